import type { Channel, CodePurpose, UiLanguage } from '@teltlk/protocol';
import type { Logger } from 'pino';
import type { Clock } from '../../lib/clock.js';
import { codeEmail, codeSms } from './messages.js';
import type { DevOutbox } from './outbox.js';
import type { EmailProvider, SmsProvider } from './providers.js';

export interface CodeDelivery {
  channel: Channel;
  destination: string;
  purpose: CodePurpose;
  code: string;
  ttlSeconds: number;
  language: UiLanguage;
}

/** Delivers verification codes through the provider of their channel, or the log and dev outbox. */
export class NotifyService {
  constructor(
    private readonly deps: {
      email: EmailProvider | null;
      sms: SmsProvider | null;
      outbox: DevOutbox | null;
      logger: Logger;
      clock: Clock;
    },
  ) {}

  /** Rejects when a configured provider fails; without a provider it cannot fail. */
  async sendCode(delivery: CodeDelivery): Promise<void> {
    const { channel, destination, purpose, code } = delivery;
    if (channel === 'email' && this.deps.email) {
      await this.deps.email.send({ to: destination, ...codeEmail(delivery) });
      return;
    }
    if (channel === 'phone' && this.deps.sms) {
      await this.deps.sms.send({ to: destination, text: codeSms(delivery) });
      return;
    }
    // No provider: the operator reads codes from the log, a local tester from the outbox.
    this.deps.logger.info(
      { channel, destination, purpose, code },
      'verification code (no provider configured)',
    );
    this.deps.outbox?.add({
      channel,
      destination,
      purpose,
      code,
      createdAt: this.deps.clock.now(),
    });
  }
}
