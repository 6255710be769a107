import {
  fromUnits,
  isCurrency,
  toUnits,
  type PaymentListQuery,
  type PaymentListResult,
  type PaymentRecord,
} from '@teltlk/protocol';
import type { Db, PaymentRow, PaymentState } from '../../db/schema.js';
import { after, cursorOf } from '../../db/keyset.js';
import type { AccountRef } from '../ledger/ledger.js';

/** Pi's amounts are numbers of Pi; ours are units. Null when it is not a whole number of units. */
export function unitsOfPi(amount: number): number | null {
  if (!Number.isFinite(amount) || amount < 0) return null;
  const units = toUnits(amount.toFixed(7), 'PI');
  // 0.1 + 0.2 and its like: a float that is not exactly seven places away is refused.
  return units !== null && Math.abs(units / 1e7 - amount) < 1e-9 ? units : null;
}

/** The number of Pi that `createPayment` and Pi's payments carry for an amount in units. */
export function piOfUnits(units: number): number {
  return Number(fromUnits(units, 'PI'));
}

/** What a person sees of an order's state. */
export function publicState(state: PaymentState): PaymentRecord['state'] {
  if (state === 'completed' || state === 'cancelled' || state === 'failed') return state;
  return 'pending';
}

const STATES_OF: Record<PaymentRecord['state'], PaymentState[]> = {
  pending: ['created', 'approved', 'held', 'signed'],
  completed: ['completed'],
  cancelled: ['cancelled'],
  failed: ['failed'],
};

export function toRecord(row: PaymentRow): PaymentRecord {
  return {
    id: row.id,
    kind: row.kind,
    currency: isCurrency(row.currency) ? row.currency : 'PI',
    amount: Number(row.amount),
    fee: Number(row.fee),
    state: publicState(row.state),
    txid: row.txid,
    createdAt: Number(row.created_at),
  };
}

export const available = (user: string): AccountRef => ({
  user,
  purpose: 'available',
  currency: 'PI',
});
export const held = (user: string): AccountRef => ({ user, purpose: 'held', currency: 'PI' });
export const outside: AccountRef = { app: 'outside', currency: 'PI' };
export const fees: AccountRef = { app: 'fees', currency: 'PI' };

/** A person's payments, newest first, filtered and paged, with the count of all that match. */
export async function listPayments(
  db: Db,
  userId: string,
  query: PaymentListQuery,
): Promise<PaymentListResult> {
  const { limit } = query;
  let filtered = db.selectFrom('payments').where('user_id', '=', userId);
  if (query.kind) filtered = filtered.where('kind', '=', query.kind);
  if (query.state) filtered = filtered.where('state', 'in', STATES_OF[query.state]);
  let page = filtered.selectAll();
  const { cursor } = query;
  if (cursor) page = page.where((eb) => after(eb, cursor, 'created_at', 'id'));
  const [rows, count] = await Promise.all([
    page
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    payments: shown.map(toRecord),
    next: more && last ? cursorOf(last.created_at, last.id) : null,
    total: Number(count.total),
  };
}
