import { fromUnits } from '@teltlk/protocol';
import type { WalletConfig } from '../../config.js';
import { uniqueViolationColumn } from '../../db/database.js';
import type { Db, PaymentRow, PaymentState } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { Ledger } from '../ledger/ledger.js';
import type { NeverLands } from './chain-proof.js';
import { available, fees, held, outside } from './orders.js';

export const WITHDRAW_MEMO = 'Teltlk withdrawal';

/** The states of a withdrawal that is not over yet. */
export const OPEN: PaymentState[] = ['held', 'created', 'signed'];

/** What a signed withdrawal writes down before it is sent. */
export type SignedFields = Pick<
  PaymentRow,
  'txid' | 'envelope' | 'valid_until' | 'tx_sequence' | 'network'
>;

/**
 * Withdrawal orders as rows, and their money in the ledger: each move of an order from one
 * state to the next is a conditional update, and the hold, its settling and its release
 * are posted in the transaction of the move, keyed by the order.
 */
export class WithdrawOrders {
  constructor(
    private readonly deps: {
      db: Db;
      ledger: Ledger;
      config: WalletConfig;
      clock: Clock;
    },
  ) {}

  /**
   * Holds the amount and fee and writes the order, in the caller's transaction: refused past
   * the day's limit, or while another withdrawal of the person's is open (on any node).
   */
  async hold(trx: Db, userId: string, piUid: string, units: number): Promise<PaymentRow> {
    const { ledger, config, clock } = this.deps;
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
          tx_sequence: null,
          network: null,
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
  }

  /** Writes down the signed transaction of a created order, in the caller's transaction. */
  signed(trx: Db, orderId: string, fields: SignedFields): Promise<PaymentRow | undefined> {
    return trx
      .updateTable('payments')
      .set({ state: 'signed', ...fields, updated_at: this.deps.clock.now() })
      .where('id', '=', orderId)
      .where('state', '=', 'created')
      .returningAll()
      .executeTakeFirst();
  }

  /** The transaction landed: the hold goes out of the app, once; null when it did before. */
  settle(order: PaymentRow): Promise<PaymentRow | null> {
    const { db, ledger, clock } = this.deps;
    const amount = Number(order.amount);
    const fee = Number(order.fee);
    return db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('payments')
        .set({ state: 'completed', updated_at: clock.now() })
        .where('id', '=', order.id)
        .where('state', '=', 'signed')
        .returningAll()
        .executeTakeFirst();
      if (!moved) return null;
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
  }

  /**
   * Gives the held amount and fee back, once, and marks the order failed: a signed one
   * only with the proof for its transaction, one without a transaction only while it has
   * none (the database holds both, whatever moved the order meanwhile).
   */
  async giveBack(order: PaymentRow, reason: string, proof: NeverLands | null): Promise<PaymentRow> {
    const { db, ledger, clock } = this.deps;
    const total = Number(order.amount) + Number(order.fee);
    const released = await db.transaction().execute(async (trx) => {
      let update = trx
        .updateTable('payments')
        .set({ state: 'failed', reason, updated_at: clock.now() })
        .where('id', '=', order.id);
      update = proof
        ? update.where('state', '=', 'signed').where('txid', '=', proof.txid)
        : update.where('state', 'in', ['held', 'created']).where('envelope', 'is', null);
      const moved = await update.returningAll().executeTakeFirst();
      if (!moved) return null;
      await ledger.post(trx, {
        key: `withdraw:release:${order.id}`,
        kind: 'withdraw-release',
        reference: order.id,
        entries: [
          { account: held(order.user_id), amount: -total },
          { account: available(order.user_id), amount: total },
        ],
      });
      return moved;
    });
    return released ?? (await this.find(order.id)) ?? order;
  }

  /** Moves an order from one state to the next; someone else moved it first: refused. */
  async move(
    order: PaymentRow,
    from: PaymentRow['state'],
    changes: Partial<Pick<PaymentRow, 'state' | 'pi_payment_id'>>,
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

  find(orderId: string): Promise<PaymentRow | undefined> {
    return this.deps.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', orderId)
      .where('kind', '=', 'withdraw')
      .executeTakeFirst();
  }

  /** The order that made a payment at Pi, if any. */
  byPiPayment(paymentId: string): Promise<PaymentRow | undefined> {
    return this.deps.db
      .selectFrom('payments')
      .selectAll()
      .where('pi_payment_id', '=', paymentId)
      .executeTakeFirst();
  }

  /** The ids of the withdrawals not over yet. */
  async openIds(): Promise<string[]> {
    const open = await this.deps.db
      .selectFrom('payments')
      .select('id')
      .where('kind', '=', 'withdraw')
      .where('state', 'in', OPEN)
      .execute();
    return open.map(({ id }) => id);
  }

  /** What a person may still withdraw today (UTC), failed withdrawals not counted. */
  async leftToday(db: Db, userId: string): Promise<number> {
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
}
