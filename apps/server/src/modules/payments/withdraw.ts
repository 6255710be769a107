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
  Transaction,
  TransactionBuilder,
  type Keypair,
} from '@stellar/stellar-sdk/minimal';
import type { Logger } from 'pino';
import type { WalletConfig } from '../../config.js';
import { uniqueViolationColumn } from '../../db/database.js';
import type { Db, PaymentRow, PaymentState } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, MINUTE, SECOND, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import { Semaphore } from '../../lib/semaphore.js';
import type { AuthInfo, ClientInfo } from '../auth/sessions.js';
import type { JobSpec, Jobs, RetryDelay } from '../jobs/jobs.js';
import type { Ledger } from '../ledger/ledger.js';
import { PiApiError, PiUnreachable, type PaymentDto, type PiPlatform } from '../pi/platform.js';
import type { SecurityActivityLog } from '../security/activity.js';
import type { StepUpRule } from '../security/step-up.js';
import type { UserService } from '../users/service.js';
import type { WalletService } from '../wallet/service.js';
import { judge, type NeverLands, type Verdict } from './chain-proof.js';
import { HorizonRefused, HorizonUnreachable, type ChainLedger, type Horizon } from './horizon.js';
import { available, fees, held, outside, piOfUnits, toRecord } from './orders.js';

export const WITHDRAW_MEMO = 'Teltlk withdrawal';

/** How long a signed transaction may take to land; after that it never will. */
const TRANSACTION_WINDOW_SECONDS = 180;
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
/** Tries at a sequence number when other nodes take the same one at the same moment. */
const SEQUENCE_TRIES = 5;
/** Pi's open payments are checked against ours at most once a period, across nodes. */
const RECONCILE_PERIOD_MS = 10 * MINUTE;

const RETRY_JOB = 'withdraw';
const RECONCILE_JOB = 'withdraw-reconcile';
/** A pending withdrawal is looked at again after 30 s, then twice as long each time, up to 10 min. */
export const withdrawRetryDelay: RetryDelay = (attempts) =>
  Math.min(10 * MINUTE, 30 * SECOND * 2 ** Math.max(0, attempts - 1));

const OPEN: PaymentState[] = ['held', 'created', 'signed'];

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
 * number of its own, see `nextSequence`.
 */
export class WithdrawService {
  private readonly slots = new Semaphore(RUNNING_WITHDRAWALS, WAITING_WITHDRAWALS);
  /** The queue of each person with a withdrawal running or waiting on this node. */
  private readonly people = new Map<string, Semaphore>();
  private reconcileScheduled = -1;

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
      withdrawLeftToday: await this.leftToday(db, who.userId),
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
      const order = await this.run(await this.hold(who.userId, piUid, units));
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
    const order = await this.find(orderId);
    if (!order || !OPEN.includes(order.state)) return;
    // One of theirs is running on this node: it is being taken care of.
    if (this.people.has(order.user_id)) return 'again';
    try {
      const after = await this.inTurn(order.user_id, async () => {
        const current = await this.find(orderId);
        return current && OPEN.includes(current.state) ? this.recover(current) : current;
      });
      return after && OPEN.includes(after.state) ? 'again' : undefined;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const current = await this.find(orderId);
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
        return this.releaseUnsigned(current, 'not_created');
      }
      current = await this.move(current, 'held', {
        state: 'created',
        pi_payment_id: made.identifier,
      });
    }
    if (current.state === 'created') return this.run(current);
    if (current.state !== 'signed') return current;
    // What the chain says first; sent again only while it may still land.
    const followed = await this.followChain(current, 'never_landed');
    return followed.state === 'signed' ? this.send(followed) : followed;
  }

  /**
   * Pi's open app-to-user payments that no open withdrawal owns are completed or cancelled,
   * and every open withdrawal has its retry job (one made before jobs were, say).
   */
  private async reconcile(): Promise<void> {
    const { db, jobs, clock, logger } = this.deps;
    const payout = this.deps.payout;
    if (!payout) return;
    const open = await db
      .selectFrom('payments')
      .select('id')
      .where('kind', '=', 'withdraw')
      .where('state', 'in', OPEN)
      .execute();
    for (const { id } of open) await jobs.schedule(db, retryJob(id, clock.now()));
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
    const { db } = this.deps;
    const { platform } = this.payout();
    const order = await db
      .selectFrom('payments')
      .selectAll()
      .where('pi_payment_id', '=', dto.identifier)
      .executeTakeFirst();
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
    const { db, ledger, jobs, config, clock } = this.deps;
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
      await jobs.schedule(trx, retryJob(order.id, now + withdrawRetryDelay(1)));
      return order;
    });
  }

  /** Takes an order from where it is towards completed, or failed with the hold released. */
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
        await this.releaseUnsigned(order, error.code.slice(0, 64));
        throw new AppError(
          error.code === 'ongoing_payment_found' ? 'WITHDRAW_IN_PROGRESS' : 'WITHDRAW_FAILED',
        );
      }
      // Unknown whether Pi made it: the retry looks for it among Pi's open payments.
      throw this.unreachable(error);
    }
    return this.move(order, 'held', { state: 'created', pi_payment_id: dto.identifier });
  }

  /** Signs the payment with the app wallet and writes it down before it is sent. */
  private async sign(order: PaymentRow): Promise<PaymentRow> {
    const { platform, horizon, wallet } = this.payout();
    const { db, clock } = this.deps;
    let dto: PaymentDto;
    let chainSequence: bigint;
    let baseFee: number;
    try {
      dto = await platform.getPayment(order.pi_payment_id ?? '');
      const [account, ledger] = await Promise.all([
        horizon.account(wallet.publicKey()),
        horizon.latestLedger(),
      ]);
      chainSequence = account.sequence;
      baseFee = ledger.baseFee;
    } catch (error) {
      if (error instanceof PiApiError) {
        await this.releaseUnsigned(order, error.code.slice(0, 64));
        throw new AppError('WITHDRAW_FAILED');
      }
      throw this.unreachable(error);
    }
    const destination = dto.to_address;
    if (dto.status.cancelled || !destination) {
      await this.releaseUnsigned(order, 'cancelled_at_pi');
      throw new AppError('WITHDRAW_FAILED');
    }
    const validUntil = Math.floor(clock.now() / SECOND) + TRANSACTION_WINDOW_SECONDS;
    for (let tries = 1; ; tries += 1) {
      try {
        // The number is chosen, the transaction signed with it and written down in one
        // database transaction: a number is never given to two live transactions.
        return await db.transaction().execute(async (trx) => {
          const sequence = await nextSequence(trx, chainSequence);
          const transaction = new TransactionBuilder(
            new Account(wallet.publicKey(), String(sequence - 1n)),
            {
              fee: String(baseFee),
              networkPassphrase: dto.network,
              timebounds: { minTime: 0, maxTime: validUntil },
            },
          )
            .addOperation(
              Operation.payment({
                destination,
                asset: Asset.native(),
                amount: fromUnits(Number(order.amount), 'PI'),
              }),
            )
            .addMemo(Memo.text(dto.identifier))
            .build();
          transaction.sign(wallet);
          const signed = await trx
            .updateTable('payments')
            .set({
              state: 'signed',
              txid: transaction.hash().toString('hex'),
              envelope: transaction.toEnvelope().toXDR('base64'),
              valid_until: validUntil,
              tx_sequence: sequenceText(sequence),
              network: dto.network,
              updated_at: clock.now(),
            })
            .where('id', '=', order.id)
            .where('state', '=', 'created')
            .returningAll()
            .executeTakeFirst();
          if (!signed) throw new AppError('PAYMENT_MISMATCH');
          return signed;
        });
      } catch (error) {
        // Another node's withdrawal took the same number at the same moment: count again.
        if (uniqueViolationColumn(error) === 'tx_sequence' && tries < SEQUENCE_TRIES) continue;
        throw error;
      }
    }
  }

  /** Submits the signed transaction; a refusal is judged by what the chain shows. */
  private async send(order: PaymentRow): Promise<PaymentRow> {
    const { horizon } = this.payout();
    try {
      await horizon.submit(order.envelope ?? '');
    } catch (error) {
      if (!(error instanceof HorizonRefused)) throw this.unreachable(error);
      // Refused is not proof: the same transaction may have landed before (tx_bad_seq),
      // or may still land once the app wallet is funded or an earlier number is spent.
      this.deps.logger.warn({ err: error, orderId: order.id }, 'Horizon refused a withdrawal');
      return this.followChain(order, error.resultCode.slice(0, 64));
    }
    return this.settle(order);
  }

  /**
   * Settles a signed withdrawal that landed, releases one proven never to land (`reason`
   * kept with it), and leaves any other pending. One that can no longer land for its time
   * but whose sequence number is still unspent has that number spent first.
   */
  private async followChain(order: PaymentRow, reason: string): Promise<PaymentRow> {
    let seen = await this.look(order);
    if (seen.verdict.kind === 'open' && seen.verdict.spendable) {
      await this.spendSequence(order, seen.ledger);
      seen = await this.look(order);
    }
    if (seen.verdict.kind === 'landed') return this.settle(order);
    if (seen.verdict.kind === 'never') return this.release(order, seen.verdict.proof, reason);
    return order;
  }

  /** What the chain shows of a signed withdrawal's transaction, read as chain-proof.ts needs. */
  private async look(order: PaymentRow): Promise<{ verdict: Verdict; ledger: ChainLedger }> {
    const { horizon, wallet } = this.payout();
    const signed = signedOf(order);
    try {
      // In this order: the lookup last, from a Horizon at least as far along.
      const account = await horizon.account(wallet.publicKey());
      const ledger = await horizon.latestLedger();
      const lookup = await horizon.lookup(signed.txid);
      return { verdict: judge(signed, { account, ledger, lookup }), ledger };
    } catch (error) {
      throw this.unreachable(error);
    }
  }

  /**
   * Spends the sequence number of a transaction that can no longer land for its time, with
   * a sequence bump that pays nobody: the wallet's sequence then passes the withdrawal's,
   * which proves it never lands. Nothing else would spend it: the number stays the
   * withdrawal's (no other transaction is given it) until it is settled or released.
   */
  private async spendSequence(order: PaymentRow, ledger: ChainLedger): Promise<void> {
    const { horizon, wallet, platform } = this.payout();
    const { clock, logger } = this.deps;
    const { sequence } = signedOf(order);
    let network = order.network;
    try {
      network ??= (await platform.getPayment(order.pi_payment_id ?? '')).network;
      const bump = new TransactionBuilder(new Account(wallet.publicKey(), String(sequence - 1n)), {
        fee: String(ledger.baseFee),
        networkPassphrase: network,
        timebounds: {
          minTime: 0,
          maxTime: Math.floor(clock.now() / SECOND) + TRANSACTION_WINDOW_SECONDS,
        },
      })
        .addOperation(Operation.bumpSequence({ bumpTo: String(sequence) }))
        .build();
      bump.sign(wallet);
      await horizon.submit(bump.toEnvelope().toXDR('base64'));
    } catch (error) {
      if (!(error instanceof HorizonRefused)) throw this.unreachable(error);
      logger.warn({ err: error, orderId: order.id }, 'Horizon refused a sequence bump');
    }
  }

  /** The transaction landed: the hold goes out of the app, and Pi is told (or reconciling will). */
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
    if (!settled) {
      // Settled by another run meanwhile: that one told Pi.
      const current = await this.find(order.id);
      if (current?.state !== 'completed') throw new AppError('PAYMENT_MISMATCH');
      return current;
    }
    try {
      await this.payout().platform.completePayment(order.pi_payment_id ?? '', order.txid ?? '');
    } catch (error) {
      if (!(error instanceof PiApiError && error.code === 'already_completed')) {
        logger.warn({ err: error, orderId: order.id }, 'Pi not told of a withdrawal yet');
      }
    }
    return settled;
  }

  /** Gives back a signed withdrawal's hold, on the chain's proof that it never lands. */
  private async release(order: PaymentRow, proof: NeverLands, reason: string): Promise<PaymentRow> {
    const released = await this.giveBack(order, reason, proof);
    await this.cancelAtPi(order).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, orderId: order.id }, 'Pi not told of a release yet');
    });
    return released;
  }

  /** Gives back the hold of a withdrawal nothing was signed for: nothing can land. */
  private releaseUnsigned(order: PaymentRow, reason: string): Promise<PaymentRow> {
    return this.giveBack(order, reason, null);
  }

  /**
   * Gives the held amount and fee back, once, and marks the order failed: a signed one
   * only with the proof for its transaction, one without a transaction only while it has
   * none (the database holds both, whatever moved the order meanwhile).
   */
  private async giveBack(
    order: PaymentRow,
    reason: string,
    proof: NeverLands | null,
  ): Promise<PaymentRow> {
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

  private find(orderId: string): Promise<PaymentRow | undefined> {
    return this.deps.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', orderId)
      .where('kind', '=', 'withdraw')
      .executeTakeFirst();
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
    if (!(error instanceof PiUnreachable || error instanceof HorizonUnreachable)) throw error;
    this.deps.logger.warn({ err: error }, 'withdrawal paused: Pi or Horizon unreachable');
    return new AppError('PI_UNREACHABLE');
  }

  private payout(): Payout {
    if (!this.deps.payout) throw new AppError('WITHDRAW_UNAVAILABLE');
    return this.deps.payout;
  }
}

/**
 * The app wallet's next sequence number for a new transaction: one past the chain's and
 * past every number our landed withdrawals spent, skipping those that signed withdrawals
 * not yet settled or released hold. Run inside the transaction that writes the new one
 * down, under the unique index on held numbers, so two live transactions never share a
 * number, on one node or several: of two sharing one only one could land, and the other
 * would wait for a proof.
 *
 * Numbers are not handed out past a gap: every number between the chain's and the one
 * returned is held by a live withdrawal, which lands, or is proven never to after its
 * number is spent (`spendSequence`), so a later transaction waits for those before it
 * only as long as they may still land. That is the order the chain imposes on one
 * account's transactions; it is all the order withdrawals keep.
 */
export async function nextSequence(trx: Db, chainSequence: bigint): Promise<bigint> {
  // A Horizon behind the chain gives a number already spent: our landed ones say so.
  const spent = await trx
    .selectFrom('payments')
    .select((eb) => eb.fn.max('tx_sequence').as('top'))
    .where('kind', '=', 'withdraw')
    .where('state', '=', 'completed')
    .executeTakeFirst();
  const top = spent?.top ? BigInt(spent.top) : 0n;
  let next = (top > chainSequence ? top : chainSequence) + 1n;
  const taken = await trx
    .selectFrom('payments')
    .select('tx_sequence')
    .where('kind', '=', 'withdraw')
    .where('state', '=', 'signed')
    .where('tx_sequence', '>=', sequenceText(next))
    .orderBy('tx_sequence')
    .execute();
  for (const { tx_sequence } of taken) {
    if (tx_sequence === null || BigInt(tx_sequence) > next) break;
    next += 1n;
  }
  return next;
}

/** A sequence number as stored: 19 digits, so text order is number order. */
function sequenceText(sequence: bigint): string {
  return sequence.toString().padStart(19, '0');
}

/** A signed withdrawal's transaction, as chain-proof.ts judges it. */
function signedOf(order: PaymentRow): { txid: string; sequence: bigint; validUntil: number } {
  const { txid, envelope, valid_until: validUntil } = order;
  if (!txid || !envelope || validUntil === null) {
    throw new Error(`withdrawal ${order.id} has no signed transaction`);
  }
  const sequence = order.tx_sequence
    ? BigInt(order.tx_sequence)
    : BigInt(new Transaction(envelope, order.network ?? 'Pi Network').sequence);
  return { txid, sequence, validUntil: Number(validUntil) };
}

function retryJob(orderId: string, runAt: number): JobSpec {
  return { kind: RETRY_JOB, key: `${RETRY_JOB}:${orderId}`, runAt, payload: { orderId } };
}

function orderIdOf(dto: PaymentDto): string | null {
  const orderId = (dto.metadata as { orderId?: unknown } | null)?.orderId;
  return typeof orderId === 'string' ? orderId : null;
}
