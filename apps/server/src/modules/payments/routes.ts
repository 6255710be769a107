import type { paymentEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';
import { listPayments } from './orders.js';

/** Recharges and withdrawals through Pi, and their history. */
export function paymentHandlers({
  services: { recharges, withdrawals },
  db,
}: AppContext): Handlers<typeof paymentEndpoints> {
  return {
    rules: ({ auth }) => withdrawals.rules(auth),
    payments: ({ auth, query }) => listPayments(db, auth.userId, query),
    recharge: ({ auth, body }) => recharges.create(auth, body),
    approveRecharge: ({ auth, body }) => recharges.approve(auth, body.paymentId),
    completeRecharge: ({ auth, body }) => recharges.complete(auth, body.paymentId, body.txid),
    cancelRecharge: ({ auth, body }) => recharges.cancel(auth, body.paymentId),
    withdraw: ({ auth, body, client }) => withdrawals.withdraw(auth, body, client),
  };
}
