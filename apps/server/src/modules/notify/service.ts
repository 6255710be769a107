import type { Channel, StoredCodePurpose, UiLanguage } from '@teltlk/protocol';
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { codeEmail, codeSms } from './messages.js';
import type { DevOutbox } from './outbox.js';
import type { EmailProvider, SmsProvider } from './providers.js';

const CHANNELS: readonly Channel[] = ['email', 'phone'];

export interface CodeDelivery {
  channel: Channel;
  destination: string;
  purpose: StoredCodePurpose;
  code: string;
  ttlSeconds: number;
  language: UiLanguage;
}

export interface NoticeDelivery {
  channel: Channel;
  destination: string;
  subject: string;
  /** The email's text; `sms` is the shorter text message. */
  text: string;
  sms: string;
}

/**
 * Delivers verification codes through the provider of their channel. Outside production a
 * channel without a provider puts its codes in the dev outbox, which only this machine
 * can read; in production such a channel is refused (CHANNEL_UNAVAILABLE). A code never
 * goes to the log.
 */
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

  /** Channels a code can go out on now: through a provider, or into the dev outbox. */
  canSend(channel: Channel): boolean {
    return this.provider(channel) !== null || this.deps.outbox !== null;
  }

  /** Channels with no provider: refused in production, into the dev outbox otherwise. */
  channelsWithoutProvider(): Channel[] {
    return CHANNELS.filter((channel) => this.provider(channel) === null);
  }

  /** Rejects when a configured provider fails, or (CHANNEL_UNAVAILABLE) when the channel has none. */
  async sendCode(delivery: CodeDelivery): Promise<void> {
    const { channel, destination, purpose, code } = delivery;
    const { email, sms, outbox, logger, clock } = this.deps;
    if (channel === 'email' && email) {
      await email.send({ to: destination, ...codeEmail(delivery) });
      return;
    }
    if (channel === 'phone' && sms) {
      await sms.send({ to: destination, text: codeSms(delivery) });
      return;
    }
    if (!outbox) throw new AppError('CHANNEL_UNAVAILABLE');
    outbox.add({ kind: 'code', channel, destination, purpose, code, createdAt: clock.now() });
    logger.info({ channel, purpose }, 'verification code put in the dev outbox');
  }

  /**
   * A notice to an address (an email or phone replaced, told to the old one), by the same
   * providers and outbox as codes. Rejects when the provider fails or the channel has none.
   */
  async sendNotice(notice: NoticeDelivery): Promise<void> {
    const { channel, destination, subject, text } = notice;
    const { email, sms, outbox, logger, clock } = this.deps;
    if (channel === 'email' && email) {
      await email.send({ to: destination, subject, text });
      return;
    }
    if (channel === 'phone' && sms) {
      await sms.send({ to: destination, text: notice.sms });
      return;
    }
    if (!outbox) throw new AppError('CHANNEL_UNAVAILABLE');
    outbox.add({ kind: 'notice', channel, destination, subject, text, createdAt: clock.now() });
    logger.info({ channel }, 'notice put in the dev outbox');
  }

  /**
   * Tells the operator something that wants a person's attention (a partnership request):
   * by email to `operatorEmail` when there is a provider and an address, and always in
   * the log, so it is never only in the database.
   */
  async notifyOperator(
    operatorEmail: string | null,
    message: { subject: string; text: string },
  ): Promise<void> {
    const { email, logger } = this.deps;
    logger.warn({ subject: message.subject }, 'for the operator');
    if (!email || !operatorEmail) return;
    try {
      await email.send({ to: operatorEmail, ...message });
    } catch (error) {
      logger.error({ err: error }, 'could not email the operator');
    }
  }

  private provider(channel: Channel): EmailProvider | SmsProvider | null {
    return channel === 'email' ? this.deps.email : this.deps.sms;
  }
}
