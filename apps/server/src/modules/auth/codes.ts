import {
  CODE_MAX_ATTEMPTS,
  CODE_RESEND_SECONDS,
  CODE_SENDS_PER_ADDRESS_PER_HOUR,
  CODE_SENDS_PER_DESTINATION_PER_DAY,
  CODE_TTL_SECONDS,
  REGISTRATION_TICKET_TTL_SECONDS,
  type Channel,
  type CodePurpose,
  type SendCodeBody,
  type SendCodeResult,
  type UiLanguage,
} from '@teltlk/protocol';
import type { Logger } from 'pino';
import type { CodeRow, Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, HOUR, SECOND, type Clock } from '../../lib/clock.js';
import { newId, newSecret, sameDigest, sha256 } from '../../lib/random.js';
import type { NotifyService } from '../notify/service.js';
import type { UserService } from '../users/service.js';
import type { CodeRepo } from './repo.js';
import { generateCode, hashCode } from './rules.js';

export interface CodeAttempt {
  purpose: CodePurpose;
  channel: Channel;
  destination: string;
  code: string;
}

/** Sends, checks and uses verification codes, with every limit kept in the database. */
export class CodeService {
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
    body: SendCodeBody,
    client: { ip: string; language: UiLanguage },
  ): Promise<SendCodeResult> {
    const { db, repo, users, notify, clock, logger } = this.deps;
    const { purpose, channel, destination } = body;
    const registered = await users.isRegistered(channel, destination);
    if (purpose === 'register' && registered) throw new AppError('ACCOUNT_REGISTERED');
    if (purpose !== 'register' && !registered) throw new AppError('ACCOUNT_NOT_FOUND');

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
      if ((await codes.countForIpSince(client.ip, now - HOUR)) >= CODE_SENDS_PER_ADDRESS_PER_HOUR) {
        throw new AppError('RATE_LIMITED');
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

    try {
      await notify.sendCode({
        channel,
        destination,
        purpose,
        code,
        ttlSeconds,
        language: client.language,
      });
    } catch (error) {
      // Undelivered, so it must not work and must not hold back an immediate retry.
      await repo.delete(id);
      logger.warn({ err: error, channel, purpose }, 'verification code delivery failed');
      throw new AppError('CODE_SEND_FAILED');
    }
    // Only once the new code is out do older ones stop working.
    await repo.supersede(id, destination, purpose, clock.now());
    return { resendAfter: CODE_RESEND_SECONDS, expiresIn: ttlSeconds };
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
   * password). If `work` throws, the code stays usable. Wrong guesses are counted
   * outside that transaction so they stick.
   */
  async redeem<T>(
    attempt: CodeAttempt,
    work: (trx: Db) => Promise<T>,
    ticket?: { hash: string; expiresAt: number },
  ): Promise<T> {
    const row = await this.check(attempt);
    return this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.deps.repo.in(trx).consume(row.id, this.deps.clock.now(), ticket))) {
        throw new AppError('CODE_INVALID');
      }
      return work(trx);
    });
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

  private async check({ purpose, destination, code }: CodeAttempt): Promise<CodeRow> {
    const { repo, clock } = this.deps;
    const row = await repo.findOpen(destination, purpose);
    if (!row) throw new AppError('CODE_INVALID');
    if (row.expires_at <= clock.now()) throw new AppError('CODE_EXPIRED');
    if (!sameDigest(row.code_hash, hashCode(row.id, code))) {
      if ((await repo.addAttempt(row.id)) >= CODE_MAX_ATTEMPTS) {
        await repo.retire(row.id, clock.now());
      }
      throw new AppError('CODE_INVALID');
    }
    return row;
  }
}
