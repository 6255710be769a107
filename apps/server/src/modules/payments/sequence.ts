import { Transaction } from '@stellar/stellar-sdk/minimal';
import type { Db, PaymentRow } from '../../db/schema.js';

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
export function sequenceText(sequence: bigint): string {
  return sequence.toString().padStart(19, '0');
}

/** A signed withdrawal's transaction, as chain-proof.ts judges it. */
export function signedOf(order: PaymentRow): {
  txid: string;
  sequence: bigint;
  validUntil: number;
} {
  const { txid, envelope, valid_until: validUntil } = order;
  if (!txid || !envelope || validUntil === null) {
    throw new Error(`withdrawal ${order.id} has no signed transaction`);
  }
  const sequence = order.tx_sequence
    ? BigInt(order.tx_sequence)
    : BigInt(new Transaction(envelope, order.network ?? 'Pi Network').sequence);
  return { txid, sequence, validUntil: Number(validUntil) };
}
