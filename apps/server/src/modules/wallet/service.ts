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
import type { AuthInfo, ClientInfo } from '../auth/sessions.js';
import type { Ledger } from '../ledger/ledger.js';
import {
  clearFailures,
  reserveThenCheck,
  reserveUnlessLocked,
  type LockColumns,
} from '../../lib/attempts.js';
import { masked } from '../../lib/masked.js';
import type { ActivityEntry, SecurityActivityLog } from '../security/activity.js';
import type { StepUpRule } from '../security/step-up.js';
import { loginLockSteps } from '../users/rules.js';
import type { UserService } from '../users/service.js';

/** Where a wallet counts wrong payment passwords and keeps the lock they earn. */
const walletColumns = (userId: string): LockColumns => ({
  table: 'wallets',
  key: { column: 'user_id', value: userId },
  count: 'failed_attempts',
  lockedUntil: 'locked_until',
});

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
      stepUp: StepUpRule;
      activity: SecurityActivityLog;
    },
  ) {}

  /** Whether the person has set a payment password. */
  async hasPassword(userId: string): Promise<boolean> {
    return Boolean((await this.find(userId))?.password_hash);
  }

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

  /**
   * The first payment password (creatPassword); one already set is changed with itself.
   * It lets money move, so its route asks for a step-up.
   */
  async setPassword(who: AuthInfo, password: string, client: ClientInfo): Promise<WalletResult> {
    const { db, passwords, clock, activity } = this.deps;
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
    await activity.recordNow(this.entry(who, 'paymentPasswordSet', client));
    return this.wallet(who);
  }

  /** Needs the current payment password: the proof of this money action, off hold only. */
  async changePassword(
    who: AuthInfo,
    body: ChangePaymentPasswordBody,
    client: ClientInfo,
  ): Promise<WalletResult> {
    const { db, passwords, clock, stepUp, activity } = this.deps;
    await stepUp.require(who, 'money', 'payment');
    await this.verify(who, body.currentPassword);
    const hash = await passwords.hash(body.password);
    await db
      .updateTable('wallets')
      .set({ password_hash: hash, updated_at: clock.now() })
      .where('user_id', '=', who.userId)
      .execute();
    await activity.recordNow(this.entry(who, 'paymentPasswordChanged', client));
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

  /**
   * Sets a new payment password with a wallet code; the lock of wrong entries goes too.
   * The code, sent to an address already on the account, is this action's step-up.
   */
  async resetPassword(
    who: AuthInfo,
    body: ResetPaymentPasswordBody,
    client: ClientInfo,
  ): Promise<WalletResult> {
    const { codes, passwords, clock, stepUp, activity } = this.deps;
    await this.existing(who.userId);
    const destination = await this.destinationOf(who, body.channel);
    const hash = await passwords.hash(body.password);
    const pending = await codes.redeem(
      { purpose: 'wallet', channel: body.channel, destination, code: body.code },
      async (trx) => {
        await trx
          .updateTable('wallets')
          .set({
            password_hash: hash,
            failed_attempts: 0,
            locked_until: null,
            updated_at: clock.now(),
          })
          .where('user_id', '=', who.userId)
          .execute();
        await stepUp.require(who, 'account', 'code', trx);
        return activity.record(trx, {
          ...this.entry(who, 'paymentPasswordReset', client),
          channel: body.channel,
        });
      },
    );
    activity.publish([pending]);
    return this.wallet(who);
  }

  private entry(
    who: AuthInfo,
    action: 'paymentPasswordSet' | 'paymentPasswordChanged' | 'paymentPasswordReset',
    client: ClientInfo,
  ): ActivityEntry {
    return { userId: who.userId, action, sessionId: who.sessionId, client };
  }

  private async destinationOf(who: AuthInfo, channel: WalletCodeBody['channel']): Promise<string> {
    const user = await this.deps.users.get(who.userId);
    const destination = channel === 'phone' ? user.phone : user.email;
    if (!destination) throw new AppError('WALLET_CODE_NO_DESTINATION');
    return destination;
  }

  /**
   * Checks the payment password: the attempt is counted (and the lock it would earn set)
   * before the comparison, so guesses sent at once never get past the lock; from the fifth
   * wrong one in a row the wallet locks for a doubling while, and a right one clears it.
   */
  async verify(who: AuthInfo, password: string): Promise<void> {
    const { db, passwords, clock } = this.deps;
    const row = await this.existing(who.userId);
    const hash = row.password_hash;
    if (!hash) throw new AppError('PAYMENT_PASSWORD_NOT_SET');
    this.refuseWhileLocked(row);
    const columns = walletColumns(who.userId);
    const turn = passwords.turn();
    await reserveThenCheck({
      reserve: () =>
        reserveUnlessLocked(
          db,
          columns,
          loginLockSteps(),
          () => clock.now(),
          (seconds) => new AppError('PAYMENT_PASSWORD_LOCKED', { seconds }),
        ),
      compare: () => turn.verify(hash, password),
      right: () => clearFailures(db, columns),
      wrong: () => new AppError('PAYMENT_PASSWORD_INCORRECT'),
      cancel: () => turn.cancel(),
    });
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
