import {
  CODE_MAX_ATTEMPTS,
  CODE_RESEND_SECONDS,
  CODE_SENDS_PER_DESTINATION_PER_DAY,
  CODE_TTL_SECONDS,
  REGISTRATION_TICKET_TTL_SECONDS,
  type Channel,
  type StoredCodePurpose,
  type SendCodeBody,
  type SendCodeResult,
  type UiLanguage,
} from '@teltlk/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, SECOND, type Clock } from '../../lib/clock.js';
import { newId, newSecret, sameDigest, sha256 } from '../../lib/random.js';
import type { CodeDelivery, NotifyService } from '../notify/service.js';
import type { UserService } from '../users/service.js';
import type { CodeRepo } from './repo.js';
import { generateCode, hashCode } from './rules.js';

/** A code that was checked and found right, still to be used up. */
export interface CheckedCode {
  id: string;
}

export interface CodeAttempt {
  purpose: StoredCodePurpose;
  channel: Channel;
  destination: string;
  code: string;
}

/** Sends, checks and uses verification codes, with every limit kept in the database. */
export class CodeService {
  /** Sign-in and reset codes on their way out. */
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      db: Db;
      repo: CodeRepo;
      users: UserService;
      notify: NotifyService;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  async send(
    body: Omit<SendCodeBody, 'purpose'> & { purpose: StoredCodePurpose },
    client: { ip: string; language: UiLanguage },
  ): Promise<SendCodeResult> {
    const { db, repo, users, notify, clock } = this.deps;
    const { purpose, channel, destination } = body;
    // Before anything else: a channel this server cannot send on is refused for everyone alike.
    if (!notify.canSend(channel)) throw new AppError('CHANNEL_UNAVAILABLE');
    const registered = await users.isRegistered(channel, destination);
    // The spec's 'This account has been registered' stays. A sign-in or reset code for an
    // address with no account is answered as if sent, limits and all, and never goes out:
    // the answer must not tell who has an account.
    if (purpose === 'register' && registered) throw new AppError('ACCOUNT_REGISTERED');
    const deliver = purpose === 'register' || registered;

    const code = generateCode();
    const ttlSeconds = CODE_TTL_SECONDS[purpose];
    const id = newId();
    await db.transaction().execute(async (trx) => {
      const codes = repo.in(trx);
      const now = clock.now();
      // Per purpose: a person who just registered may want a sign-in code straight away.
      // The daily cap below counts every purpose, so alternating them buys nothing.
      const last = await codes.lastSentAt(destination, purpose);
      if (last !== null && now - last < CODE_RESEND_SECONDS * SECOND) {
        throw new AppError('CODE_TOO_FREQUENT', {
          seconds: Math.ceil((last + CODE_RESEND_SECONDS * SECOND - now) / SECOND),
        });
      }
      if (
        (await codes.countForDestinationSince(destination, now - DAY)) >=
        CODE_SENDS_PER_DESTINATION_PER_DAY
      ) {
        throw new AppError('CODE_DAILY_LIMIT');
      }
      await codes.insert({
        id,
        purpose,
        channel,
        destination,
        code_hash: hashCode(id, code),
        ip: client.ip,
        created_at: now,
        expires_at: now + ttlSeconds * SECOND,
        attempts: 0,
        consumed_at: null,
        ticket_hash: null,
        ticket_expires_at: null,
      });
    });

    const delivery = this.deliver(
      { id, purpose, channel, destination },
      deliver
        ? { channel, destination, purpose, code, ttlSeconds, language: client.language }
        : null,
    );
    // A registration code that could not go out is said so: 'This account has been
    // registered' already tells who has one. A sign-in or reset code goes out in the
    // background, so neither a slow provider nor a failing one (a mailbox that does not
    // exist, say) tells an address with an account from one without.
    // A wallet code goes to the signed-in person's own address: nothing to hide there.
    if (purpose === 'register' || purpose === 'wallet') await delivery;
    else this.inBackground(delivery);
    return { resendAfter: CODE_RESEND_SECONDS, expiresIn: ttlSeconds };
  }

  /** Waits for codes still going out in the background (before the database closes). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.sending]);
  }

  private async deliver(
    row: { id: string; purpose: StoredCodePurpose; channel: Channel; destination: string },
    delivery: CodeDelivery | null,
  ): Promise<void> {
    const { repo, notify, clock, logger } = this.deps;
    try {
      if (delivery) await notify.sendCode(delivery);
    } catch (error) {
      // Undelivered, so it must not work and must not hold back an immediate retry.
      await repo.delete(row.id);
      logger.warn(
        { err: error, channel: row.channel, purpose: row.purpose },
        'verification code delivery failed',
      );
      throw new AppError('CODE_SEND_FAILED');
    }
    // Only once the new code is out do older ones stop working.
    await repo.supersede(row.id, row.destination, row.purpose, clock.now());
  }

  private inBackground(delivery: Promise<void>): void {
    const tracked = delivery
      .catch((error: unknown) => {
        // A provider failure was logged where it happened; anything else is logged here.
        if (!(error instanceof AppError)) {
          this.deps.logger.warn({ err: error }, 'verification code delivery failed');
        }
      })
      .finally(() => this.sending.delete(tracked));
    this.sending.add(tracked);
  }

  /** Turns a correct registration code into a one-time ticket that finishes the sign-up. */
  async verifyForRegistration(attempt: CodeAttempt): Promise<{ ticket: string }> {
    const ticket = newSecret();
    const expiresAt = this.deps.clock.now() + REGISTRATION_TICKET_TTL_SECONDS * SECOND;
    await this.redeem(attempt, () => Promise.resolve(), { hash: sha256(ticket), expiresAt });
    return { ticket };
  }

  /**
   * Checks a code and, in one transaction, uses it up and runs `work` (sign in, reset a
   * password). If `work` throws, the code stays usable.
   */
  async redeem<T>(
    attempt: CodeAttempt,
    work: (trx: Db) => Promise<T>,
    ticket?: { hash: string; expiresAt: number },
  ): Promise<T> {
    return this.use(await this.check(attempt), work, ticket);
  }

  /**
   * Checks a code, counting the attempt before comparing: one conditional update reserves
   * it only while the code is open, unexpired and under its attempt limit, so N guesses in
   * parallel count N and at most CODE_MAX_ATTEMPTS are ever compared. Attempts stick,
   * right or wrong. The code is used up later by `use`.
   */
  async check({ purpose, destination, code }: CodeAttempt): Promise<CheckedCode> {
    const { repo, clock } = this.deps;
    const row = await repo.findOpen(destination, purpose);
    if (!row) throw new AppError('CODE_INVALID');
    const now = clock.now();
    if (row.expires_at <= now) throw new AppError('CODE_EXPIRED');
    if ((await repo.reserveAttempt(row.id, now, CODE_MAX_ATTEMPTS)) === undefined) {
      throw new AppError('CODE_INVALID');
    }
    if (!sameDigest(row.code_hash, hashCode(row.id, code))) throw new AppError('CODE_INVALID');
    return { id: row.id };
  }

  /** Uses a checked code up and runs `work` in one transaction; someone else first: CODE_INVALID. */
  async use<T>(
    checked: CheckedCode,
    work: (trx: Db) => Promise<T>,
    ticket?: { hash: string; expiresAt: number },
  ): Promise<T> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.deps.repo.in(trx).consume(checked.id, this.deps.clock.now(), ticket))) {
        throw new AppError('CODE_INVALID');
      }
      return work(trx);
    });
  }

  /**
   * Refuses a registration ticket that could not work now (unknown, used or expired),
   * without using it; gives the channel its code went to.
   */
  async checkTicket(ticket: string): Promise<Channel> {
    const open = await this.deps.repo.openTicket(sha256(ticket), this.deps.clock.now());
    if (!open) throw new AppError('TICKET_INVALID');
    return open.channel as Channel;
  }

  /** Uses a registration ticket up within the caller's transaction; returns the verified destination. */
  async takeTicket(ticket: string, trx: Db): Promise<{ channel: Channel; destination: string }> {
    const taken = await this.deps.repo.in(trx).takeTicket(sha256(ticket), this.deps.clock.now());
    if (!taken) throw new AppError('TICKET_INVALID');
    return { channel: taken.channel as Channel, destination: taken.destination };
  }

  /** Codes older than the daily window count for nothing any more. */
  async purge(): Promise<void> {
    await this.deps.repo.deleteCreatedBefore(this.deps.clock.now() - 2 * DAY);
  }
}
