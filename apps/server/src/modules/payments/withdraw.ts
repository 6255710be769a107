import {
  fromUnits,
  toUnits,
  type PaymentRecord,
  type WalletRules,
  type WithdrawBody,
} from '@teltlk/protocol';
import {
  Account,
  Asset,
  Memo,
  Operation,
  TransactionBuilder,
  type Keypair,
} from '@stellar/stellar-sdk/minimal';
import type { Logger } from 'pino';
import type { WalletConfig } from '../../config.js';
import { uniqueViolationColumn } from '../../db/database.js';
import type { Db, PaymentRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, SECOND, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import { Semaphore } from '../../lib/semaphore.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { Ledger } from '../ledger/ledger.js';
import { PiApiError, PiUnreachable, type PaymentDto, type PiPlatform } from '../pi/platform.js';
import type { UserService } from '../users/service.js';
import type { WalletService } from '../wallet/service.js';
import { HorizonRefused, HorizonUnreachable, type Horizon } from './horizon.js';
import { available, fees, held, outside, piOfUnits, toRecord } from './orders.js';

export const WITHDRAW_MEMO = 'Teltlk withdrawal';

/** How long a signed transaction may take to land; after that it never will. */
const TRANSACTION_WINDOW_SECONDS = 180;
/** Withdrawals waiting for their turn on this node, past which a new one is refused. */
const WAITING_WITHDRAWALS = 50;

/** The app wallet and the services a withdrawal needs: present only when all are configured. */
interface Payout {
  platform: PiPlatform;
  horizon: Horizon;
  wallet: Keypair;
}

/**
 * Withdrawals: the app pays a person's Pi wallet from its own, and their balance shrinks
 * by the amount and the fee, once.
 *
 * The amount and fee are held in the ledger first. Then, one payment at a time (Pi allows
 * one open app-to-user payment), the server creates the payment at Pi, signs the Stellar
 * payment with the app wallet's key, writes down its hash and envelope, submits it to
 * Horizon, and settles the hold once it is in a ledger; Pi is told the txid last. Any
 * failure before the transaction could land releases the hold. A crash anywhere is
 * resolved by the sweep from what the chain says of the written-down hash: landed, the hold
 * is settled; expired without landing, released. Never both: both are keyed by the order,
 * and each moves the order out of the states the other needs.
 */
export class WithdrawService {
  private readonly turns = new Semaphore(1, WAITING_WITHDRAWALS);

  constructor(
    private readonly deps: {
      db: Db;
      ledger: Ledger;
      users: UserService;
      wallets: WalletService;
      payout: Payout | null;
      config: WalletConfig;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  async rules(who: AuthInfo): Promise<WalletRules> {
    const { config, db, payout } = this.deps;
    return {
      withdrawFee: config.withdrawFee,
      withdrawMin: config.withdrawMin,
      withdrawDailyLimit: config.withdrawDailyLimit,
      withdrawLeftToday: await this.leftToday(db, who.userId),
      rechargeMax: config.rechargeMax,
      withdrawEnabled: payout !== null,
    };
  }

  async withdraw(who: AuthInfo, body: WithdrawBody): Promise<PaymentRecord> {
    const { users, wallets, config } = this.deps;
    this.payout();
    const user = await users.get(who.userId);
    if (user.pi_uid === null) throw new AppError('PI_ONLY');
    const units = toUnits(body.amount, 'PI');
    if (units === null || units <= 0) throw new AppError('VALIDATION_FAILED');
    if (units < config.withdrawMin) {
      throw new AppError('WITHDRAW_BELOW_MIN', { min: fromUnits(config.withdrawMin, 'PI') });
    }
    await wallets.verify(who, body.password);
    const piUid = user.pi_uid;
    return this.inTurn(async () => {
      const order = await this.hold(who.userId, piUid, units);
      return toRecord(await this.run(order));
    });
  }

  /**
   * Finishes what a crash or an unreachable Pi or Horizon left open: withdrawals in
   * flight, and app-to-user payments Pi still counts as open. Run at start and then
   * regularly; safe to run at any time.
   */
  async sweep(): Promise<void> {
    const { db, logger } = this.deps;
    const payout = this.deps.payout;
    if (!payout) return;
    await this.inTurn(async () => {
      let incomplete: PaymentDto[];
      try {
        incomplete = await payout.platform.incompleteServerPayments();
      } catch (error) {
        logger.warn({ err: error }, 'withdrawal sweep: Pi unreachable');
        return;
      }
      const open = await db
        .selectFrom('payments')
        .selectAll()
        .where('kind', '=', 'withdraw')
        .where('state', 'in', ['held', 'created', 'signed'])
        .execute();
      for (const order of open) {
        try {
          await this.recover(order, incomplete);
        } catch (error) {
          logger.warn({ err: error, orderId: order.id }, 'withdrawal left for the next sweep');
        }
      }
      for (const dto of incomplete) {
        try {
          await this.closeAtPi(dto);
        } catch (error) {
          logger.warn({ err: error, paymentId: dto.identifier }, 'open Pi payment left for later');
        }
      }
    });
  }

  private async recover(order: PaymentRow, incomplete: PaymentDto[]): Promise<void> {
    let current = order;
    if (current.state === 'held') {
      const made = incomplete.find((dto) => orderIdOf(dto) === current.id);
      // Pi never made the payment: nothing can have left the app wallet.
      if (!made) {
        await this.release(current, 'not_created');
        return;
      }
      current = await this.move(current, 'held', {
        state: 'created',
        pi_payment_id: made.identifier,
      });
    }
    if (current.state === 'signed') {
      const landed = await this.payout().horizon.payment(current.txid ?? '');
      if (landed) {
        await this.settle(current);
        return;
      }
      const expired =
        this.deps.clock.now() > Number(current.valid_until ?? 0) * SECOND + 5 * SECOND;
      if (expired) {
        await this.cancelAtPi(current);
        await this.release(current, 'expired');
        return;
      }
    }
    await this.run(current);
  }

  /** An open payment at Pi that no open order owns: completed if ours went, else cancelled. */
  private async closeAtPi(dto: PaymentDto): Promise<void> {
    const { db } = this.deps;
    const { platform } = this.payout();
    const order = await db
      .selectFrom('payments')
      .selectAll()
      .where('pi_payment_id', '=', dto.identifier)
      .executeTakeFirst();
    if (order && ['held', 'created', 'signed'].includes(order.state)) return;
    if (order?.state === 'completed' && order.txid) {
      await platform.completePayment(dto.identifier, order.txid);
      return;
    }
    if (!dto.transaction) await platform.cancelPayment(dto.identifier);
    else this.deps.logger.error({ paymentId: dto.identifier }, 'a paid Pi payment has no order');
  }

  /** Holds the amount and fee, and writes the order, in one database transaction. */
  private hold(userId: string, piUid: string, units: number): Promise<PaymentRow> {
    const { db, ledger, config, clock } = this.deps;
    return db.transaction().execute(async (trx) => {
      const left = await this.leftToday(trx, userId);
      if (units > left) throw new AppError('WITHDRAW_DAILY_LIMIT', { left: fromUnits(left, 'PI') });
      const now = clock.now();
      const total = units + config.withdrawFee;
      let order: PaymentRow;
      try {
        order = await trx
          .insertInto('payments')
          .values({
            id: newId(),
            user_id: userId,
            kind: 'withdraw',
            currency: 'PI',
            amount: units,
            fee: config.withdrawFee,
            memo: WITHDRAW_MEMO,
            pi_uid: piUid,
            pi_payment_id: null,
            state: 'held',
            txid: null,
            envelope: null,
            valid_until: null,
            reason: null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (error) {
        // Another withdrawal of this person's is open (on another node).
        if (uniqueViolationColumn(error) === 'user_id') throw new AppError('WITHDRAW_IN_PROGRESS');
        throw error;
      }
      await ledger.post(trx, {
        key: `withdraw:hold:${order.id}`,
        kind: 'withdraw-hold',
        reference: order.id,
        entries: [
          { account: available(userId), amount: -total },
          { account: held(userId), amount: total },
        ],
      });
      return order;
    });
  }

  /** Takes an order from where it is to completed, or to failed with the hold released. */
  private async run(start: PaymentRow): Promise<PaymentRow> {
    let order = start;
    if (order.state === 'held') order = await this.create(order);
    if (order.state === 'created') order = await this.sign(order);
    if (order.state === 'signed') order = await this.send(order);
    return order;
  }

  private async create(order: PaymentRow): Promise<PaymentRow> {
    const { platform } = this.payout();
    let dto: PaymentDto;
    try {
      dto = await platform.createPayment({
        amount: piOfUnits(Number(order.amount)),
        memo: order.memo,
        metadata: { orderId: order.id },
        uid: order.pi_uid,
      });
    } catch (error) {
      if (error instanceof PiApiError) {
        this.deps.logger.warn({ err: error, orderId: order.id }, 'Pi refused a withdrawal');
        await this.release(order, error.code.slice(0, 64));
        throw new AppError(
          error.code === 'ongoing_payment_found' ? 'WITHDRAW_IN_PROGRESS' : 'WITHDRAW_FAILED',
        );
      }
      // Unknown whether Pi made it: the sweep looks for it among Pi's open payments.
      throw this.unreachable(error);
    }
    return this.move(order, 'held', { state: 'created', pi_payment_id: dto.identifier });
  }

  /** Signs the payment with the app wallet and writes it down before it is sent. */
  private async sign(order: PaymentRow): Promise<PaymentRow> {
    const { platform, horizon, wallet } = this.payout();
    const { clock } = this.deps;
    let dto: PaymentDto;
    let sequence: string;
    let baseFee: number;
    try {
      dto = await platform.getPayment(order.pi_payment_id ?? '');
      const [account, ledger] = await Promise.all([
        horizon.account(wallet.publicKey()),
        horizon.latestLedger(),
      ]);
      sequence = account.sequence.toString();
      baseFee = ledger.baseFee;
    } catch (error) {
      if (error instanceof PiApiError) {
        await this.release(order, error.code.slice(0, 64));
        throw new AppError('WITHDRAW_FAILED');
      }
      throw this.unreachable(error);
    }
    if (dto.status.cancelled || !dto.to_address) {
      await this.release(order, 'cancelled_at_pi');
      throw new AppError('WITHDRAW_FAILED');
    }
    const validUntil = Math.floor(clock.now() / SECOND) + TRANSACTION_WINDOW_SECONDS;
    const transaction = new TransactionBuilder(new Account(wallet.publicKey(), sequence), {
      fee: String(baseFee),
      networkPassphrase: dto.network,
      timebounds: { minTime: 0, maxTime: validUntil },
    })
      .addOperation(
        Operation.payment({
          destination: dto.to_address,
          asset: Asset.native(),
          amount: fromUnits(Number(order.amount), 'PI'),
        }),
      )
      .addMemo(Memo.text(dto.identifier))
      .build();
    transaction.sign(wallet);
    return this.move(order, 'created', {
      state: 'signed',
      txid: transaction.hash().toString('hex'),
      envelope: transaction.toEnvelope().toXDR('base64'),
      valid_until: validUntil,
    });
  }

  private async send(order: PaymentRow): Promise<PaymentRow> {
    const { horizon } = this.payout();
    try {
      await horizon.submit(order.envelope ?? '');
    } catch (error) {
      if (!(error instanceof HorizonRefused)) throw this.unreachable(error);
      // Refused: unless an earlier submission of the same transaction landed, it never will.
      if (!(await horizon.payment(order.txid ?? '').catch(() => null))) {
        this.deps.logger.warn({ err: error, orderId: order.id }, 'Horizon refused a withdrawal');
        await this.cancelAtPi(order).catch(() => undefined);
        await this.release(order, error.resultCode.slice(0, 64));
        throw new AppError('WITHDRAW_FAILED');
      }
    }
    return this.settle(order);
  }

  /** The transaction landed: the hold goes out of the app, and Pi is told (or the sweep will). */
  private async settle(order: PaymentRow): Promise<PaymentRow> {
    const { db, ledger, clock, logger } = this.deps;
    const amount = Number(order.amount);
    const fee = Number(order.fee);
    const settled = await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('payments')
        .set({ state: 'completed', updated_at: clock.now() })
        .where('id', '=', order.id)
        .where('state', '=', 'signed')
        .returningAll()
        .executeTakeFirst();
      if (!moved) throw new AppError('PAYMENT_MISMATCH');
      await ledger.post(trx, {
        key: `withdraw:settle:${order.id}`,
        kind: 'withdraw',
        reference: order.id,
        entries: [
          { account: held(order.user_id), amount: -(amount + fee) },
          { account: outside, amount },
          ...(fee > 0 ? [{ account: fees, amount: fee }] : []),
        ],
      });
      return moved;
    });
    try {
      await this.payout().platform.completePayment(order.pi_payment_id ?? '', order.txid ?? '');
    } catch (error) {
      if (!(error instanceof PiApiError && error.code === 'already_completed')) {
        logger.warn({ err: error, orderId: order.id }, 'Pi not told of a withdrawal yet');
      }
    }
    return settled;
  }

  /** Gives the held amount and fee back, once, and marks the order failed. */
  private release(order: PaymentRow, reason: string): Promise<void> {
    const { db, ledger, clock } = this.deps;
    const total = Number(order.amount) + Number(order.fee);
    return db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('payments')
        .set({ state: 'failed', reason, updated_at: clock.now() })
        .where('id', '=', order.id)
        .where('state', 'in', ['held', 'created', 'signed'])
        .executeTakeFirst();
      if (moved.numUpdatedRows === 0n) return;
      await ledger.post(trx, {
        key: `withdraw:release:${order.id}`,
        kind: 'withdraw-release',
        reference: order.id,
        entries: [
          { account: held(order.user_id), amount: -total },
          { account: available(order.user_id), amount: total },
        ],
      });
    });
  }

  private async cancelAtPi(order: PaymentRow): Promise<void> {
    if (!order.pi_payment_id) return;
    try {
      await this.payout().platform.cancelPayment(order.pi_payment_id);
    } catch (error) {
      if (error instanceof PiApiError && error.code === 'cancelled_payment') return;
      throw error;
    }
  }

  /** Moves an order from one state to the next; someone else moved it first: refused. */
  private async move(
    order: PaymentRow,
    from: PaymentRow['state'],
    changes: Partial<
      Pick<PaymentRow, 'state' | 'pi_payment_id' | 'txid' | 'envelope' | 'valid_until'>
    >,
  ): Promise<PaymentRow> {
    const moved = await this.deps.db
      .updateTable('payments')
      .set({ ...changes, updated_at: this.deps.clock.now() })
      .where('id', '=', order.id)
      .where('state', '=', from)
      .returningAll()
      .executeTakeFirst();
    if (!moved) throw new AppError('PAYMENT_MISMATCH');
    return moved;
  }

  /** What a person may still withdraw today (UTC), failed withdrawals not counted. */
  private async leftToday(db: Db, userId: string): Promise<number> {
    const now = this.deps.clock.now();
    const row = await db
      .selectFrom('payments')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('total'))
      .where('user_id', '=', userId)
      .where('kind', '=', 'withdraw')
      .where('state', '!=', 'failed')
      .where('created_at', '>=', now - (now % DAY))
      .executeTakeFirstOrThrow();
    return Math.max(0, this.deps.config.withdrawDailyLimit - Number(row.total));
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const place = this.turns.take();
    if (!place) throw new AppError('WITHDRAW_IN_PROGRESS');
    return place.ready.then(work).finally(() => place.release());
  }

  private unreachable(error: unknown): AppError {
    if (!(error instanceof PiUnreachable || error instanceof HorizonUnreachable)) throw error;
    this.deps.logger.warn({ err: error }, 'withdrawal paused: Pi or Horizon unreachable');
    return new AppError('PI_UNREACHABLE');
  }

  private payout(): Payout {
    if (!this.deps.payout) throw new AppError('WITHDRAW_UNAVAILABLE');
    return this.deps.payout;
  }
}

function orderIdOf(dto: PaymentDto): string | null {
  const orderId = (dto.metadata as { orderId?: unknown } | null)?.orderId;
  return typeof orderId === 'string' ? orderId : null;
}
