import {
  CURRENCIES,
  type ChangePaymentPasswordBody,
  type Currency,
  type ResetPaymentPasswordBody,
  type UiLanguage,
  type WalletCodeBody,
  type WalletCodeResult,
  type WalletResult,
} from '@teltlk/protocol';
import type { Db, WalletsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { SECOND, type Clock } from '../../lib/clock.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import type { CodeService } from '../auth/codes.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { Ledger } from '../ledger/ledger.js';
import { loginLockSeconds } from '../users/rules.js';
import type { UserService } from '../users/service.js';

/**
 * A person's wallet: created once (creatWallet), guarded by a six-digit payment password
 * (argon2id; wrong entries in a row lock it with a growing delay, as sign-in does), its
 * balances read from the ledger.
 */
export class WalletService {
  constructor(
    private readonly deps: {
      db: Db;
      ledger: Ledger;
      passwords: PasswordHasher;
      codes: CodeService;
      users: UserService;
      clock: Clock;
    },
  ) {}

  async wallet(who: AuthInfo): Promise<WalletResult> {
    const { db, ledger } = this.deps;
    const row = await this.find(who.userId);
    const balances = [];
    for (const currency of Object.keys(CURRENCIES) as Currency[]) {
      const [available, held] = await Promise.all([
        ledger.balance(db, { user: who.userId, purpose: 'available', currency }),
        ledger.balance(db, { user: who.userId, purpose: 'held', currency }),
      ]);
      balances.push({ currency, available, held });
    }
    return {
      exists: row !== undefined,
      hasPassword: Boolean(row?.password_hash),
      lockedUntil: row ? this.lockedUntil(row) : null,
      balances,
    };
  }

  /** Creates the wallet; creating it again changes nothing. */
  async create(who: AuthInfo): Promise<WalletResult> {
    const now = this.deps.clock.now();
    await this.deps.db
      .insertInto('wallets')
      .values({
        user_id: who.userId,
        password_hash: null,
        failed_attempts: 0,
        locked_until: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .execute();
    return this.wallet(who);
  }

  /** The first payment password (creatPassword); one already set is changed with itself. */
  async setPassword(who: AuthInfo, password: string): Promise<WalletResult> {
    const { db, passwords, clock } = this.deps;
    const row = await this.existing(who.userId);
    if (row.password_hash) throw new AppError('PAYMENT_PASSWORD_ALREADY_SET');
    const hash = await passwords.hash(password);
    const set = await db
      .updateTable('wallets')
      .set({ password_hash: hash, failed_attempts: 0, locked_until: null, updated_at: clock.now() })
      .where('user_id', '=', who.userId)
      .where('password_hash', 'is', null)
      .executeTakeFirst();
    // Two first passwords at once: the other one was set first.
    if (set.numUpdatedRows === 0n) throw new AppError('PAYMENT_PASSWORD_ALREADY_SET');
    return this.wallet(who);
  }

  async changePassword(who: AuthInfo, body: ChangePaymentPasswordBody): Promise<WalletResult> {
    const { db, passwords, clock } = this.deps;
    await this.verify(who, body.currentPassword);
    const hash = await passwords.hash(body.password);
    await db
      .updateTable('wallets')
      .set({ password_hash: hash, updated_at: clock.now() })
      .where('user_id', '=', who.userId)
      .execute();
    return this.wallet(who);
  }

  /** A forgotten payment password: a code, valid 5 minutes, to the person's own phone or email. */
  async sendResetCode(
    who: AuthInfo,
    body: WalletCodeBody,
    client: { ip: string; language: UiLanguage },
  ): Promise<WalletCodeResult> {
    await this.existing(who.userId);
    const destination = await this.destinationOf(who, body.channel);
    const sent = await this.deps.codes.send(
      { purpose: 'wallet', channel: body.channel, destination },
      client,
    );
    return { ...sent, sentTo: masked(destination) };
  }

  /** Sets a new payment password with a wallet code; the lock of wrong entries goes too. */
  async resetPassword(who: AuthInfo, body: ResetPaymentPasswordBody): Promise<WalletResult> {
    const { codes, passwords, clock } = this.deps;
    await this.existing(who.userId);
    const destination = await this.destinationOf(who, body.channel);
    const hash = await passwords.hash(body.password);
    await codes.redeem(
      { purpose: 'wallet', channel: body.channel, destination, code: body.code },
      (trx) =>
        trx
          .updateTable('wallets')
          .set({
            password_hash: hash,
            failed_attempts: 0,
            locked_until: null,
            updated_at: clock.now(),
          })
          .where('user_id', '=', who.userId)
          .execute(),
    );
    return this.wallet(who);
  }

  private async destinationOf(who: AuthInfo, channel: WalletCodeBody['channel']): Promise<string> {
    const user = await this.deps.users.get(who.userId);
    const destination = channel === 'phone' ? user.phone : user.email;
    if (!destination) throw new AppError('WALLET_CODE_NO_DESTINATION');
    return destination;
  }

  /**
   * Checks the payment password: a right one clears the count of wrong ones; a wrong one
   * counts, and from the fifth in a row locks the wallet for a doubling while.
   */
  async verify(who: AuthInfo, password: string): Promise<void> {
    const { db, passwords, clock } = this.deps;
    const row = await this.existing(who.userId);
    if (!row.password_hash) throw new AppError('PAYMENT_PASSWORD_NOT_SET');
    this.refuseWhileLocked(row);
    if (await passwords.verify(row.password_hash, password)) {
      if (row.failed_attempts > 0) {
        await db
          .updateTable('wallets')
          .set({ failed_attempts: 0, locked_until: null })
          .where('user_id', '=', who.userId)
          .execute();
      }
      return;
    }
    const counted = await db
      .updateTable('wallets')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
      .where('user_id', '=', who.userId)
      .returning('failed_attempts')
      .executeTakeFirstOrThrow();
    const seconds = loginLockSeconds(counted.failed_attempts);
    if (seconds > 0) {
      await db
        .updateTable('wallets')
        .set({ locked_until: clock.now() + seconds * SECOND })
        .where('user_id', '=', who.userId)
        .execute();
    }
    throw new AppError('PAYMENT_PASSWORD_INCORRECT');
  }

  private find(userId: string) {
    return this.deps.db
      .selectFrom('wallets')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The person's wallet; none yet: WALLET_NOT_FOUND. */
  async require(userId: string): Promise<WalletsTable> {
    return this.existing(userId);
  }

  private async existing(userId: string) {
    const row = await this.find(userId);
    if (!row) throw new AppError('WALLET_NOT_FOUND');
    return row;
  }

  private lockedUntil(row: Pick<WalletsTable, 'locked_until'>): number | null {
    const until = row.locked_until === null ? null : Number(row.locked_until);
    return until !== null && until > this.deps.clock.now() ? until : null;
  }

  private refuseWhileLocked(row: Pick<WalletsTable, 'locked_until'>): void {
    const until = this.lockedUntil(row);
    if (until === null) return;
    const seconds = Math.ceil((until - this.deps.clock.now()) / SECOND);
    throw new AppError('PAYMENT_PASSWORD_LOCKED', { seconds });
  }
}

/** An address partly hidden: enough to recognise, not to read off a screen. */
export function masked(destination: string): string {
  const at = destination.indexOf('@');
  if (at > 0) return `${destination.slice(0, 1)}***${destination.slice(at)}`;
  if (destination.length <= 8) return `${destination.slice(0, 2)}****`;
  return `${destination.slice(0, destination.length - 8)}****${destination.slice(-4)}`;
}
