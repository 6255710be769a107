import { fromUnits } from '@teltlk/protocol';
import {
  Account,
  Asset,
  Memo,
  Operation,
  TransactionBuilder,
  type Keypair,
} from '@stellar/stellar-sdk/minimal';
import type { Logger } from 'pino';
import { uniqueViolationColumn } from '../../db/database.js';
import type { Db, PaymentRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { SECOND, type Clock } from '../../lib/clock.js';
import { PiApiError, PiUnreachable, type PaymentDto, type PiPlatform } from '../pi/platform.js';
import { judge, type NeverLands, type Verdict } from './chain-proof.js';
import { HorizonRefused, HorizonUnreachable, type ChainLedger, type Horizon } from './horizon.js';
import { piOfUnits } from './orders.js';
import { nextSequence, sequenceText, signedOf } from './sequence.js';
import type { WithdrawOrders } from './withdraw-orders.js';

/** How long a signed transaction may take to land; after that it never will. */
const TRANSACTION_WINDOW_SECONDS = 180;
/** Tries at a sequence number when other nodes take the same one at the same moment. */
const SEQUENCE_TRIES = 5;

/** The app wallet and the services a withdrawal needs: present only when all are configured. */
export interface Payout {
  platform: PiPlatform;
  horizon: Horizon;
  wallet: Keypair;
}

/** The payout of a withdrawal, or WITHDRAW_UNAVAILABLE when the app has none configured. */
export function payoutOf(payout: Payout | null): Payout {
  if (!payout) throw new AppError('WITHDRAW_UNAVAILABLE');
  return payout;
}

/**
 * Pi or Horizon out of reach: the withdrawal pauses, PI_UNREACHABLE to the caller. Any
 * other error is thrown as it is.
 */
export function unreachable(logger: Logger, error: unknown): AppError {
  if (!(error instanceof PiUnreachable || error instanceof HorizonUnreachable)) throw error;
  logger.warn({ err: error }, 'withdrawal paused: Pi or Horizon unreachable');
  return new AppError('PI_UNREACHABLE');
}

/**
 * A withdrawal's way through Pi and the chain: the payment made at Pi, the Stellar payment
 * signed with a sequence number of its own (sequence.ts) and written down before it is
 * sent, submitted to Horizon, and then settled or released on what the chain shows
 * (chain-proof.ts). Each step starts from the order as stored, so a run cut short anywhere
 * is taken on from there.
 */
export class WithdrawChain {
  constructor(
    private readonly deps: {
      db: Db;
      orders: WithdrawOrders;
      payout: Payout | null;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** Takes an order from where it is towards completed, or failed with the hold released. */
  async run(start: PaymentRow): Promise<PaymentRow> {
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
    return this.deps.orders.move(order, 'held', {
      state: 'created',
      pi_payment_id: dto.identifier,
    });
  }

  /** Signs the payment with the app wallet and writes it down before it is sent. */
  private async sign(order: PaymentRow): Promise<PaymentRow> {
    const { platform, horizon, wallet } = this.payout();
    const { db, clock, orders } = this.deps;
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
          const signed = await orders.signed(trx, order.id, {
            txid: transaction.hash().toString('hex'),
            envelope: transaction.toEnvelope().toXDR('base64'),
            valid_until: validUntil,
            tx_sequence: sequenceText(sequence),
            network: dto.network,
          });
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
  async send(order: PaymentRow): Promise<PaymentRow> {
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
  async followChain(order: PaymentRow, reason: string): Promise<PaymentRow> {
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
    const { orders, logger } = this.deps;
    const settled = await orders.settle(order);
    if (!settled) {
      // Settled by another run meanwhile: that one told Pi.
      const current = await orders.find(order.id);
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
    const released = await this.deps.orders.giveBack(order, reason, proof);
    await this.cancelAtPi(order).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, orderId: order.id }, 'Pi not told of a release yet');
    });
    return released;
  }

  /** Gives back the hold of a withdrawal nothing was signed for: nothing can land. */
  releaseUnsigned(order: PaymentRow, reason: string): Promise<PaymentRow> {
    return this.deps.orders.giveBack(order, reason, null);
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

  private unreachable(error: unknown): AppError {
    return unreachable(this.deps.logger, error);
  }

  private payout(): Payout {
    return payoutOf(this.deps.payout);
  }
}
