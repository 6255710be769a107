import type { ChainAccount, ChainLedger, ChainLookup } from './horizon.js';

/**
 * What the chain says of a signed withdrawal's transaction, and the one proof that lets
 * its hold go back to the person's balance.
 *
 * A transaction of the app wallet with sequence number s and last valid second t can go
 * into a ledger only while the wallet's sequence number is s - 1 and only if that ledger
 * closes at t or before. Sequence numbers only grow and close times only advance, so once
 * Horizon shows the wallet's sequence number at s or past it, and a ledger closed after t,
 * no ledger to come can take the transaction: unless it is in one already, it never lands.
 * Either fact alone would do on a chain seen whole; both are asked for, so that a Horizon
 * wrong or behind about one of them cannot release a hold by itself.
 *
 * "Unless it is in one already" is read last, and believed only from a Horizon that had
 * taken in at least the ledger the sequence number was read at: the number was spent in a
 * ledger up to that one, so if our transaction spent it, that lookup finds it. A lookup
 * from a Horizon further behind (behind a load balancer, one read may reach a Horizon
 * ingesting later than the one before), or from one that does not say how far it had
 * come, proves nothing. A failed lookup proves nothing either: it throws, and the
 * withdrawal stays pending until the next try.
 */

declare const proven: unique symbol;

/** The proof a signed withdrawal's hold needs to be released; only `judge` makes one. */
export interface NeverLands {
  readonly txid: string;
  readonly [proven]: true;
}

export type Verdict =
  /** In a ledger, and successful: the payment went. */
  | { kind: 'landed' }
  /** Not in a ledger and no ledger can take it any more. */
  | { kind: 'never'; proof: NeverLands }
  /**
   * Not known to have landed, and not proven never to. `spendable`: it can no longer land
   * for its time, it is absent from a Horizon far enough along, and its sequence number is
   * the wallet's very next, still unspent: spending that number (a sequence bump that pays
   * nobody) completes the proof without stopping a payment that could still land.
   */
  | { kind: 'open'; spendable: boolean };

/** A signed transaction as the withdrawal wrote it down. */
export interface SignedTransaction {
  txid: string;
  sequence: bigint;
  /** Its last valid second (the time bound's max time), epoch seconds. */
  validUntil: number;
}

/**
 * Judges a signed transaction from three reads of Horizon made in this order: the app
 * wallet's account, the latest closed ledger, then the transaction by hash.
 */
export function judge(
  tx: SignedTransaction,
  chain: { account: ChainAccount; ledger: ChainLedger; lookup: ChainLookup },
): Verdict {
  const { account, ledger, lookup } = chain;
  if (lookup.state === 'successful') return { kind: 'landed' };
  const numberSpent = account.sequence >= tx.sequence;
  const timePast = Math.floor(ledger.closedAt / 1000) > tx.validUntil;
  const lookedFarEnough =
    account.seenAt !== null && lookup.seenAt !== null && lookup.seenAt >= account.seenAt;
  if (numberSpent && timePast && lookedFarEnough) {
    return { kind: 'never', proof: { txid: tx.txid } as NeverLands };
  }
  return {
    kind: 'open',
    spendable:
      timePast &&
      lookedFarEnough &&
      lookup.state === 'absent' &&
      account.sequence + 1n === tx.sequence,
  };
}
