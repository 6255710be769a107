import {
  fromUnits,
  toUnits,
  type PaymentRecord,
  type WalletRules,
  type WithdrawBody,
} from '@teltlk/protocol';
import type { Logger } from 'pino';
import type { WalletConfig } from '../../config.js';
import type { Db, PaymentRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { MINUTE, SECOND, type Clock } from '../../lib/clock.js';
import { Semaphore } from '../../lib/semaphore.js';
import type { AuthInfo, ClientInfo } from '../auth/sessions.js';
import type { JobSpec, Jobs, RetryDelay } from '../jobs/jobs.js';
import type { Ledger } from '../ledger/ledger.js';
import type { PaymentDto } from '../pi/platform.js';
import type { SecurityActivityLog } from '../security/activity.js';
import type { StepUpRule } from '../security/step-up.js';
import type { UserService } from '../users/service.js';
import type { WalletService } from '../wallet/service.js';
import { toRecord } from './orders.js';
import { payoutOf, unreachable, WithdrawChain, type Payout } from './withdraw-chain.js';
import { OPEN, WithdrawOrders } from './withdraw-orders.js';

/** Withdrawals one node runs at once (each mostly waits on Pi and Horizon), and waiting. */
const RUNNING_WITHDRAWALS = 16;
const WAITING_WITHDRAWALS = 50;
/** One person's withdrawals waiting for their turn on a node. */
const WAITING_PER_PERSON = 4;
/**
 * A held withdrawal Pi does not list is released only this long after it was made: by
 * then a call making its payment at Pi, on any node, has ended one way or the other.
 */
const HELD_GRACE_MS = 2 * MINUTE;
/** Pi's open payments are checked against ours at most once a period, across nodes. */
const RECONCILE_PERIOD_MS = 10 * MINUTE;

const RETRY_JOB = 'withdraw';
const RECONCILE_JOB = 'withdraw-reconcile';
/** A pending withdrawal is looked at again after 30 s, then twice as long each time, up to 10 min. */
export const withdrawRetryDelay: RetryDelay = (attempts) =>
  Math.min(10 * MINUTE, 30 * SECOND * 2 ** Math.max(0, attempts - 1));

/**
 * Withdrawals: the app pays a person's Pi wallet from its own, and their balance shrinks
 * by the amount and the fee, once.
 *
 * The amount and fee are held in the ledger first, and a retry job is scheduled in the same
 * transaction. Then the server creates the payment at Pi, signs the Stellar payment with
 * the app wallet's key, writes down its hash, envelope and sequence number, submits it to
 * Horizon, and settles the hold once it is in a ledger; Pi is told the txid last.
 *
 * Once a transaction is signed the hold goes back to the balance only on proof, read from
 * the chain, that it can never land (chain-proof.ts): a refusal, a timeout, an expiry on
 * our clock or a failed lookup proves nothing, and leaves the withdrawal pending for its
 * job to look again, backing off. A refusal of a transaction that landed earlier (a
 * resubmission's tx_bad_seq) is found landed and settled. Before anything is signed
 * (Pi refused the payment, or never made it) nothing can land, and the hold goes back at
 * once. Settling and releasing are both keyed by the order and each moves it out of the
 * `signed` state the other needs: never both.
 *
 * What runs one at a time is what Pi and the chain need, no more. Pi keeps one open
 * app-to-user payment per person, so a person's withdrawals take turns (on this node in a
 * queue of their own, across nodes by the database's one open withdrawal per person);
 * different people's run side by side, and one stuck at Pi or Horizon holds up only its
 * own person. The chain needs each transaction of the app wallet to carry a sequence
 * number of its own, see `nextSequence` (sequence.ts).
 *
 * Here are the turns, the hold and the jobs that take a withdrawal on after a crash or an
 * outage (retry, reconcile); the steps through Pi and the chain are withdraw-chain.ts's,
 * the orders' rows and their money withdraw-orders.ts's.
 */
export class WithdrawService {
  private readonly slots = new Semaphore(RUNNING_WITHDRAWALS, WAITING_WITHDRAWALS);
  /** The queue of each person with a withdrawal running or waiting on this node. */
  private readonly people = new Map<string, Semaphore>();
  private reconcileScheduled = -1;
  private readonly orders: WithdrawOrders;
  private readonly chain: WithdrawChain;

  constructor(
    private readonly deps: {
      db: Db;
      ledger: Ledger;
      users: UserService;
      wallets: WalletService;
      jobs: Jobs;
      payout: Payout | null;
      config: WalletConfig;
      clock: Clock;
      logger: Logger;
      stepUp: StepUpRule;
      activity: SecurityActivityLog;
    },
  ) {
    const { db, ledger, config, clock, logger, payout } = deps;
    this.orders = new WithdrawOrders({ db, ledger, config, clock });
    this.chain = new WithdrawChain({ db, orders: this.orders, payout, clock, logger });
    deps.jobs.handle(RETRY_JOB, (payload) => this.retry(String(payload.orderId)), {
      retryDelay: withdrawRetryDelay,
    });
    deps.jobs.handle(RECONCILE_JOB, () => this.reconcile());
  }

  async rules(who: AuthInfo): Promise<WalletRules> {
    const { config, db, payout } = this.deps;
    return {
      withdrawFee: config.withdrawFee,
      withdrawMin: config.withdrawMin,
      withdrawDailyLimit: config.withdrawDailyLimit,
      withdrawLeftToday: await this.orders.leftToday(db, who.userId),
      rechargeMax: config.rechargeMax,
      withdrawEnabled: payout !== null,
    };
  }

  /** Holds and sends a withdrawal; answers it completed, or pending while the chain decides. */
  async withdraw(who: AuthInfo, body: WithdrawBody, client: ClientInfo): Promise<PaymentRecord> {
    const { users, wallets, config, stepUp, activity } = this.deps;
    this.payout();
    const user = await users.get(who.userId);
    if (user.pi_uid === null) throw new AppError('PI_ONLY');
    const units = toUnits(body.amount, 'PI');
    if (units === null || units <= 0) throw new AppError('VALIDATION_FAILED');
    if (units < config.withdrawMin) {
      throw new AppError('WITHDRAW_BELOW_MIN', { min: fromUnits(config.withdrawMin, 'PI') });
    }
    // The payment password proves a withdrawal, but not on a new device still on hold:
    // that is asked first, so it spends no attempt of the password.
    await stepUp.require(who, 'money', 'payment');
    await wallets.verify(who, body.password);
    const piUid = user.pi_uid;
    const record = await this.inTurn(who.userId, async () => {
      const order = await this.chain.run(await this.hold(who.userId, piUid, units));
      if (order.state === 'failed') throw new AppError('WITHDRAW_FAILED');
      return toRecord(order);
    });
    await activity.recordNow({
      userId: who.userId,
      action: 'withdrawal',
      sessionId: who.sessionId,
      client,
      detail: `${fromUnits(units, 'PI')} Pi`,
    });
    return record;
  }

  /**
   * A node starting: the pending withdrawals are looked at now rather than after their
   * retry's wait (a crash may have cut them short), and Pi's open payments checked.
   */
  async resume(): Promise<void> {
    if (!this.deps.payout) return;
    await this.deps.jobs.hurry(RETRY_JOB);
    await this.scheduleReconcile();
  }

  /** Schedules the check of Pi's open payments for this period (once across nodes). */
  async scheduleReconcile(): Promise<void> {
    const { jobs, db, clock } = this.deps;
    if (!this.deps.payout) return;
    const now = clock.now();
    const period = Math.floor(now / RECONCILE_PERIOD_MS);
    if (period === this.reconcileScheduled) return;
    await jobs.schedule(db, {
      kind: RECONCILE_JOB,
      key: `${RECONCILE_JOB}:${period}`,
      runAt: now,
      payload: {},
    });
    this.reconcileScheduled = period;
  }

  /**
   * The retry job of one withdrawal: takes it as far as Pi and the chain allow. `again`
   * while it is still pending, so the job runs again later, backing off.
   */
  private async retry(orderId: string): Promise<void | 'again'> {
    const order = await this.orders.find(orderId);
    if (!order || !OPEN.includes(order.state)) return;
    // One of theirs is running on this node: it is being taken care of.
    if (this.people.has(order.user_id)) return 'again';
    try {
      const after = await this.inTurn(order.user_id, async () => {
        const current = await this.orders.find(orderId);
        return current && OPEN.includes(current.state) ? this.recover(current) : current;
      });
      return after && OPEN.includes(after.state) ? 'again' : undefined;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const current = await this.orders.find(orderId);
      return current && OPEN.includes(current.state) ? 'again' : undefined;
    }
  }

  /** Takes an open withdrawal on from wherever a crash or an unreachable Pi or Horizon left it. */
  private async recover(order: PaymentRow): Promise<PaymentRow> {
    let current = order;
    if (current.state === 'held') {
      let incomplete: PaymentDto[];
      try {
        incomplete = await this.payout().platform.incompleteServerPayments();
      } catch (error) {
        throw this.unreachable(error);
      }
      const made = incomplete.find((dto) => orderIdOf(dto) === current.id);
      if (!made) {
        if (this.deps.clock.now() - Number(current.created_at) < HELD_GRACE_MS) return current;
        // Pi never made the payment: nothing was signed, nothing can leave the app wallet.
        return this.chain.releaseUnsigned(current, 'not_created');
      }
      current = await this.orders.move(current, 'held', {
        state: 'created',
        pi_payment_id: made.identifier,
      });
    }
    if (current.state === 'created') return this.chain.run(current);
    if (current.state !== 'signed') return current;
    // What the chain says first; sent again only while it may still land.
    const followed = await this.chain.followChain(current, 'never_landed');
    return followed.state === 'signed' ? this.chain.send(followed) : followed;
  }

  /**
   * Pi's open app-to-user payments that no open withdrawal owns are completed or cancelled,
   * and every open withdrawal has its retry job (one made before jobs were, say).
   */
  private async reconcile(): Promise<void> {
    const { db, jobs, clock, logger } = this.deps;
    const payout = this.deps.payout;
    if (!payout) return;
    for (const id of await this.orders.openIds()) {
      await jobs.schedule(db, retryJob(id, clock.now()));
    }
    let incomplete: PaymentDto[];
    try {
      incomplete = await payout.platform.incompleteServerPayments();
    } catch (error) {
      logger.warn({ err: error }, 'withdrawal reconciling: Pi unreachable');
      return;
    }
    for (const dto of incomplete) {
      try {
        await this.closeAtPi(dto);
      } catch (error) {
        logger.warn({ err: error, paymentId: dto.identifier }, 'open Pi payment left for later');
      }
    }
  }

  /** An open payment at Pi that no open order owns: completed if ours went, else cancelled. */
  private async closeAtPi(dto: PaymentDto): Promise<void> {
    const { platform } = this.payout();
    const order = await this.orders.byPiPayment(dto.identifier);
    if (order && OPEN.includes(order.state)) return;
    if (order?.state === 'completed' && order.txid) {
      await platform.completePayment(dto.identifier, order.txid);
      return;
    }
    if (!dto.transaction) await platform.cancelPayment(dto.identifier);
    else this.deps.logger.error({ paymentId: dto.identifier }, 'a paid Pi payment has no order');
  }

  /** Holds the amount and fee, writes the order and schedules its retry, in one transaction. */
  private hold(userId: string, piUid: string, units: number): Promise<PaymentRow> {
    const { db, jobs } = this.deps;
    return db.transaction().execute(async (trx) => {
      const order = await this.orders.hold(trx, userId, piUid, units);
      await jobs.schedule(
        trx,
        retryJob(order.id, Number(order.created_at) + withdrawRetryDelay(1)),
      );
      return order;
    });
  }

  /**
   * Runs `work` in the person's turn: after their earlier withdrawals on this node, beside
   * everyone else's, within the node's bound on withdrawals at once.
   */
  private async inTurn<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const queue = this.people.get(userId) ?? new Semaphore(1, WAITING_PER_PERSON);
    this.people.set(userId, queue);
    const turn = queue.take();
    try {
      if (!turn) throw new AppError('WITHDRAW_IN_PROGRESS');
      await turn.ready;
      const slot = this.slots.take();
      if (!slot) throw new AppError('SERVER_BUSY');
      try {
        await slot.ready;
        return await work();
      } finally {
        slot.release();
      }
    } finally {
      turn?.release();
      const { running, waiting } = queue.load;
      if (running === 0 && waiting === 0 && this.people.get(userId) === queue) {
        this.people.delete(userId);
      }
    }
  }

  private unreachable(error: unknown): AppError {
    return unreachable(this.deps.logger, error);
  }

  private payout(): Payout {
    return payoutOf(this.deps.payout);
  }
}

function retryJob(orderId: string, runAt: number): JobSpec {
  return { kind: RETRY_JOB, key: `${RETRY_JOB}:${orderId}`, runAt, payload: { orderId } };
}

function orderIdOf(dto: PaymentDto): string | null {
  const orderId = (dto.metadata as { orderId?: unknown } | null)?.orderId;
  return typeof orderId === 'string' ? orderId : null;
}
