import { expect } from 'vitest';
import { ownersPiWallet, ownersRechargePayment, piSandbox } from './arrange.js';
import { PI_USERS_ONLY, type Row, SIGNED_IN } from './cells.js';

/** Pi payments: recharges and withdrawals. */
export const PAYMENT_ROWS: Row[] = [
  // ------------------------------------------------------------------ Pi payments
  {
    route: 'GET /api/v1/wallet/rules',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/wallet/rules'),
  },
  {
    route: 'GET /api/v1/wallet/payments',
    on: "the caller's own payments",
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/wallet/payments?kind=recharge'),
  },
  {
    route: 'POST /api/v1/wallet/recharge',
    on: "the owner's wallet, bound to Pi",
    // An order is for the caller's own Pi account: no one else here has one.
    cells: PI_USERS_ONLY,
    run: async (w, as) => {
      await ownersPiWallet(w);
      return w.call(as, 'POST', '/wallet/recharge', { amount: '1' });
    },
  },
  {
    route: 'POST /api/v1/wallet/recharge/approve',
    on: "a payment of the owner's recharge order",
    cells: PI_USERS_ONLY,
    run: async (w, as) => {
      const { paymentId } = await ownersRechargePayment(w);
      return w.call(as, 'POST', '/wallet/recharge/approve', { paymentId });
    },
  },
  {
    route: 'POST /api/v1/wallet/recharge/complete',
    on: "the owner's approved and signed recharge",
    cells: PI_USERS_ONLY,
    run: async (w, as) => {
      const { paymentId } = await ownersRechargePayment(w);
      const approved = await w.call('owner', 'POST', '/wallet/recharge/approve', { paymentId });
      expect(approved.statusCode, approved.body).toBe(200);
      const signed = piSandbox.emulator.handle(
        'POST',
        `/sandbox/payments/${paymentId}/sign`,
        undefined,
        {},
      ).body as { transaction: { txid: string } };
      return w.call(as, 'POST', '/wallet/recharge/complete', {
        paymentId,
        txid: signed.transaction.txid,
      });
    },
  },
  {
    route: 'POST /api/v1/wallet/recharge/cancel',
    on: "a payment of the owner's recharge order",
    cells: PI_USERS_ONLY,
    run: async (w, as) => {
      const { paymentId } = await ownersRechargePayment(w);
      return w.call(as, 'POST', '/wallet/recharge/cancel', { paymentId });
    },
  },
  {
    route: 'POST /api/v1/wallet/withdraw',
    on: "the owner's recharged wallet and payment password",
    cells: PI_USERS_ONLY,
    run: async (w, as) => {
      await ownersPiWallet(w);
      const { paymentId } = await ownersRechargePayment(w, '2');
      await w.call('owner', 'POST', '/wallet/recharge/approve', { paymentId });
      const signed = piSandbox.emulator.handle(
        'POST',
        `/sandbox/payments/${paymentId}/sign`,
        undefined,
        {},
      ).body as { transaction: { txid: string } };
      const done = await w.call('owner', 'POST', '/wallet/recharge/complete', {
        paymentId,
        txid: signed.transaction.txid,
      });
      expect(done.statusCode, done.body).toBe(200);
      return w.call(as, 'POST', '/wallet/withdraw', { amount: '1', password: '123456' });
    },
  },
];
