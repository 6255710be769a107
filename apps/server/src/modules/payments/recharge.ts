import {
  fromUnits,
  toUnits,
  type PaymentRecord,
  type RechargeBody,
  type RechargeOrder,
} from '@teltlk/protocol';
import type { Logger } from 'pino';
import { uniqueViolationColumn } from '../../db/database.js';
import type { Db, PaymentRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { MINUTE, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { Ledger } from '../ledger/ledger.js';
import { askPi } from '../pi/ask.js';
import { PiApiError, type PaymentDto, type PiPlatform } from '../pi/platform.js';
import type { UserService } from '../users/service.js';
import type { WalletService } from '../wallet/service.js';
import type { Horizon } from './horizon.js';
import { available, outside, piOfUnits, toRecord, unitsOfPi } from './orders.js';

export const RECHARGE_MEMO = 'Teltlk recharge';

/** Created orders nobody paid are dropped from the pending list after this long. */
const ABANDONED_AFTER = 60 * MINUTE;

/**
 * Recharges: a person pays the app in Pi, and their balance grows by exactly that, once.
 *
 * The server makes an order; the browser hands it to Pi's `createPayment`. When Pi says
 * the payment is ready for approval, the server fetches it from Pi and approves it only if
 * it is this person's payment of this order, amount and memo; when Pi says it is ready for
 * completion, the server checks the transaction on the chain (to the app, the amount, the
 * payment as memo), completes it at Pi, and only then credits the ledger, keyed by the
 * order: replayed, reordered or concurrent callbacks credit once. A payment Pi reports
 * unfinished (at sign-in, before a new payment, or found by the sweep after a restart) is
 * completed when its transaction is there and matches, and cancelled otherwise.
 */
export class RechargeService {
  constructor(
    private readonly deps: {
      db: Db;
      ledger: Ledger;
      users: UserService;
      wallets: WalletService;
      platform: PiPlatform | null;
      /** null: the chain is not checked (Pi's own verification is trusted). */
      horizon: Horizon | null;
      /** The app wallet's address, when known: recharges must pay into it. */
      appAddress: string | null;
      rechargeMax: number;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  async create(who: AuthInfo, body: RechargeBody): Promise<RechargeOrder> {
    const { db, wallets, rechargeMax, clock } = this.deps;
    this.platform();
    const piUid = await this.piUidOf(who);
    await wallets.require(who.userId);
    const units = toUnits(body.amount, 'PI');
    if (units === null || units <= 0) throw new AppError('VALIDATION_FAILED');
    if (units > rechargeMax) {
      throw new AppError('RECHARGE_ABOVE_MAX', { max: fromUnits(rechargeMax, 'PI') });
    }
    const now = clock.now();
    const id = newId();
    await db
      .insertInto('payments')
      .values({
        id,
        user_id: who.userId,
        kind: 'recharge',
        currency: 'PI',
        amount: units,
        fee: 0,
        memo: RECHARGE_MEMO,
        pi_uid: piUid,
        pi_payment_id: null,
        state: 'created',
        txid: null,
        envelope: null,
        valid_until: null,
        reason: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return {
      orderId: id,
      payment: { amount: piOfUnits(units), memo: RECHARGE_MEMO, metadata: { orderId: id } },
    };
  }

  /** Pi's `onReadyForServerApproval`: checks the payment against its order and approves it. */
  async approve(who: AuthInfo, paymentId: string): Promise<PaymentRecord> {
    const platform = this.platform();
    const piUid = await this.piUidOf(who);
    const dto = await this.ask(() => platform.getPayment(paymentId));
    const order = await this.orderOf(who, dto, piUid);
    if (order.state === 'completed' || order.state === 'approved') {
      // A replayed approval: Pi is told again (it is idempotent), nothing else changes.
      if (order.state === 'approved') await this.ask(() => platform.approvePayment(paymentId));
      return toRecord(order);
    }
    if (order.state !== 'created') throw new AppError('PAYMENT_MISMATCH');
    if (dto.status.cancelled || dto.status.user_cancelled) {
      await this.cancelOrder(order.id, 'cancelled_at_pi');
      throw new AppError('PAYMENT_MISMATCH');
    }
    const approved = await this.claim(order, paymentId);
    await this.ask(() => platform.approvePayment(paymentId));
    return toRecord(approved);
  }

  /** Pi's `onReadyForServerCompletion`: completes at Pi and credits the person, once. */
  async complete(who: AuthInfo, paymentId: string, txid: string): Promise<PaymentRecord> {
    await this.piUidOf(who);
    const order = await this.byPayment(who, paymentId);
    if (order.state === 'completed') return toRecord(order);
    if (order.state !== 'approved') throw new AppError('PAYMENT_MISMATCH');
    return toRecord(await this.settle(order, txid));
  }

  /** Pi's `onCancel` and `onError`: the order is closed; a payment that did go through is settled. */
  async cancel(who: AuthInfo, paymentId: string): Promise<PaymentRecord> {
    const platform = this.platform();
    const piUid = await this.piUidOf(who);
    const dto = await this.ask(() => platform.getPayment(paymentId));
    const order = await this.orderOf(who, dto, piUid);
    if (order.state === 'completed' || order.state === 'cancelled') return toRecord(order);
    if (dto.transaction && !dto.status.cancelled) {
      // The Pi left the person's wallet: it is theirs in the app, whatever the browser said.
      const claimed = order.state === 'created' ? await this.claim(order, paymentId) : order;
      return toRecord(await this.settle(claimed, dto.transaction.txid));
    }
    if (!dto.status.cancelled) {
      await this.ask(() => platform.cancelPayment(paymentId), ['already_completed']);
    }
    return toRecord(await this.cancelOrder(order.id, 'cancelled'));
  }

  /**
   * A user-to-app payment Pi reports unfinished: completed when its transaction is there and
   * matches, cancelled otherwise. One with no order of ours (made before a restart lost it,
   * or by another client) is taken as an order of its own when its transaction paid the app.
   */
  async resolveIncomplete(who: AuthInfo, paymentId: string): Promise<void> {
    const platform = this.platform();
    const piUid = await this.piUidOf(who);
    const dto = await this.ask(() => platform.getPayment(paymentId));
    if (dto.user_uid !== piUid) throw new AppError('PI_PAYMENT_NOT_YOURS');
    if (dto.direction !== 'user_to_app') throw new AppError('PAYMENT_MISMATCH');
    let order = await this.findByPayment(paymentId);
    if (dto.status.developer_completed && order?.state === 'completed') return;
    if (!dto.transaction || dto.status.cancelled) {
      if (!dto.status.cancelled && !dto.status.developer_completed) {
        await this.ask(() => platform.cancelPayment(paymentId), ['already_completed']);
      }
      if (order) await this.cancelOrder(order.id, 'incomplete_without_transaction');
      return;
    }
    if (!order) {
      const ordered = await this.ownOrder(who.userId, dto);
      order = ordered?.state === 'created' ? await this.claim(ordered, paymentId) : ordered;
    }
    order ??= await this.adopt(who.userId, piUid, dto);
    if (order.state === 'approved') await this.settle(order, dto.transaction.txid);
  }

  /**
   * After a restart: approved orders whose completion may have been cut short are settled
   * from what Pi says of them; orders nobody paid are closed after a while.
   */
  async sweep(): Promise<void> {
    const { db, clock, logger } = this.deps;
    const platform = this.deps.platform;
    if (!platform) return;
    const open = await db
      .selectFrom('payments')
      .selectAll()
      .where('kind', '=', 'recharge')
      .where('state', 'in', ['created', 'approved'])
      .execute();
    for (const order of open) {
      try {
        if (order.state === 'created') {
          if (clock.now() - Number(order.created_at) > ABANDONED_AFTER) {
            await this.cancelOrder(order.id, 'abandoned');
          }
          continue;
        }
        const dto = await platform.getPayment(order.pi_payment_id ?? '');
        if (dto.status.cancelled || dto.status.user_cancelled) {
          await this.cancelOrder(order.id, 'cancelled_at_pi');
        } else if (dto.transaction) {
          await this.settle(order, dto.transaction.txid);
        }
      } catch (error) {
        logger.warn({ err: error, orderId: order.id }, 'recharge left for the next sweep');
      }
    }
  }

  /**
   * Checks the transaction on the chain and at Pi, completes the payment at Pi, then
   * credits the person: the order moves to completed and the ledger posts in one database
   * transaction, keyed by the order, so it happens once however often it is called.
   */
  private async settle(order: PaymentRow, txid: string): Promise<PaymentRow> {
    const { db, ledger, horizon, appAddress } = this.deps;
    const platform = this.platform();
    const paymentId = order.pi_payment_id ?? '';
    const dto = await this.ask(() => platform.getPayment(paymentId));
    if (dto.status.cancelled || dto.status.user_cancelled) throw new AppError('PAYMENT_MISMATCH');
    if (!dto.transaction) throw new AppError('PAYMENT_NOT_COMPLETE');
    if (dto.transaction.txid !== txid) throw new AppError('PAYMENT_MISMATCH');
    if (horizon) {
      const chain = await horizon.payment(txid).catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, 'Horizon unreachable');
        throw new AppError('PI_UNREACHABLE');
      });
      if (!chain) throw new AppError('PAYMENT_NOT_COMPLETE');
      const to = appAddress ?? dto.to_address;
      if (
        chain.memo !== paymentId ||
        chain.to !== to ||
        toUnits(chain.amount, 'PI') !== Number(order.amount)
      ) {
        throw new AppError('PAYMENT_MISMATCH');
      }
    }
    if (!dto.status.developer_completed) {
      try {
        await this.ask(() => platform.completePayment(paymentId, txid), ['already_completed']);
      } catch (error) {
        // Completed already (a replayed callback): what matters is that it is.
        if (!(error instanceof PiApiError)) throw error;
      }
    }
    return db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      const moved = await trx
        .updateTable('payments')
        .set({ state: 'completed', txid, updated_at: now })
        .where('id', '=', order.id)
        .where('state', '=', 'approved')
        .returningAll()
        .executeTakeFirst();
      if (moved) {
        await ledger.post(trx, {
          key: `recharge:${order.id}`,
          kind: 'recharge',
          reference: order.id,
          entries: [
            { account: outside, amount: -Number(order.amount) },
            { account: available(order.user_id), amount: Number(order.amount) },
          ],
        });
        return moved;
      }
      return trx
        .selectFrom('payments')
        .selectAll()
        .where('id', '=', order.id)
        .executeTakeFirstOrThrow();
    });
  }

  /** Ties a created order to Pi's payment: from now on only that payment completes it. */
  private async claim(order: PaymentRow, paymentId: string): Promise<PaymentRow> {
    const { db, clock } = this.deps;
    try {
      const claimed = await db
        .updateTable('payments')
        .set({ pi_payment_id: paymentId, state: 'approved', updated_at: clock.now() })
        .where('id', '=', order.id)
        .where((eb) =>
          eb.or([
            eb('state', '=', 'created'),
            eb.and([eb('state', '=', 'approved'), eb('pi_payment_id', '=', paymentId)]),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
      // Another payment claimed the order first.
      if (!claimed) throw new AppError('PAYMENT_MISMATCH');
      return claimed;
    } catch (error) {
      // The payment is another order's already.
      if (uniqueViolationColumn(error) === 'pi_payment_id') throw new AppError('PAYMENT_MISMATCH');
      throw error;
    }
  }

  /** A completed payment that paid the app with no order of ours: recorded as one, approved. */
  private async adopt(userId: string, piUid: string, dto: PaymentDto): Promise<PaymentRow> {
    const { db, clock } = this.deps;
    const units = unitsOfPi(dto.amount);
    if (units === null || units <= 0) throw new AppError('PAYMENT_MISMATCH');
    const now = clock.now();
    const row = {
      id: newId(),
      user_id: userId,
      kind: 'recharge' as const,
      currency: 'PI',
      amount: units,
      fee: 0,
      memo: dto.memo.slice(0, 200),
      pi_uid: piUid,
      pi_payment_id: dto.identifier,
      state: 'approved' as const,
      txid: null,
      envelope: null,
      valid_until: null,
      reason: 'adopted',
      created_at: now,
      updated_at: now,
    };
    const inserted = await db
      .insertInto('payments')
      .values(row)
      .onConflict((conflict) => conflict.column('pi_payment_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted ?? (await this.findByPayment(dto.identifier))!;
  }

  /** The person's own order this payment was made for, checked field by field. */
  private async orderOf(who: AuthInfo, dto: PaymentDto, piUid: string): Promise<PaymentRow> {
    if (dto.user_uid !== piUid) throw new AppError('PI_PAYMENT_NOT_YOURS');
    if (dto.direction !== 'user_to_app') throw new AppError('PAYMENT_MISMATCH');
    const order = await this.ownOrder(who.userId, dto);
    if (!order) throw new AppError('PAYMENT_MISMATCH');
    if (order.pi_payment_id !== null && order.pi_payment_id !== dto.identifier) {
      throw new AppError('PAYMENT_MISMATCH');
    }
    return order;
  }

  private async ownOrder(userId: string, dto: PaymentDto): Promise<PaymentRow | undefined> {
    const metadata = dto.metadata as { orderId?: unknown } | null;
    const orderId = typeof metadata?.orderId === 'string' ? metadata.orderId : null;
    if (!orderId) return undefined;
    const order = await this.deps.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', orderId)
      .where('user_id', '=', userId)
      .where('kind', '=', 'recharge')
      .executeTakeFirst();
    if (!order) return undefined;
    const to = this.deps.appAddress;
    if (
      unitsOfPi(dto.amount) !== Number(order.amount) ||
      dto.memo !== order.memo ||
      (to !== null && dto.to_address !== to)
    ) {
      throw new AppError('PAYMENT_MISMATCH');
    }
    return order;
  }

  private async byPayment(who: AuthInfo, paymentId: string): Promise<PaymentRow> {
    const order = await this.findByPayment(paymentId);
    if (!order || order.user_id !== who.userId || order.kind !== 'recharge') {
      throw new AppError('NOT_FOUND');
    }
    return order;
  }

  private findByPayment(paymentId: string): Promise<PaymentRow | undefined> {
    return this.deps.db
      .selectFrom('payments')
      .selectAll()
      .where('pi_payment_id', '=', paymentId)
      .executeTakeFirst();
  }

  private async cancelOrder(id: string, reason: string): Promise<PaymentRow> {
    const { db, clock } = this.deps;
    await db
      .updateTable('payments')
      .set({ state: 'cancelled', reason, updated_at: clock.now() })
      .where('id', '=', id)
      .where('state', 'in', ['created', 'approved'])
      .execute();
    return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  private async piUidOf(who: AuthInfo): Promise<string> {
    const user = await this.deps.users.get(who.userId);
    if (user.pi_uid === null) throw new AppError('PI_ONLY');
    return user.pi_uid;
  }

  private platform(): PiPlatform {
    if (!this.deps.platform) throw new AppError('PI_UNAVAILABLE');
    return this.deps.platform;
  }

  private ask<T>(call: () => Promise<T>, passThrough: readonly string[] = []): Promise<T> {
    return askPi(this.deps.logger, call, passThrough);
  }
}
