import {
  paymentListQuery,
  paymentListResult,
  paymentRecordSchema,
  piCompletionBody,
  piPaymentBody,
  rechargeBody,
  rechargeOrder,
  walletRulesSchema,
  withdrawBody,
} from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import { authOf, clientOf } from '../../http/auth.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import { listPayments } from './orders.js';

const tags = ['wallet'];
const security = [{ bearer: [] }];

/** Recharges and withdrawals through Pi, and their history: behind `requireSession`. */
export function paymentRoutes(app: App, ctx: AppContext): void {
  const { recharges, withdrawals } = ctx.services;
  const recharge = limitBy(ctx.limits, ['rechargePerUser', byUser]);
  const reads = limitBy(ctx.limits, ['walletReadPerUser', byUser]);
  app.get(
    '/wallet/rules',
    {
      schema: {
        tags,
        summary: 'Fees and limits of recharges and withdrawals',
        security,
        response: { 200: walletRulesSchema },
      },
      onRequest: reads,
    },
    (request) => withdrawals.rules(authOf(request)),
  );
  app.get(
    '/wallet/payments',
    {
      schema: {
        tags,
        summary: 'Your recharges and withdrawals, newest first',
        security,
        querystring: paymentListQuery,
        response: { 200: paymentListResult },
      },
      onRequest: reads,
    },
    (request) => listPayments(ctx.db, authOf(request).userId, request.query),
  );
  app.post(
    '/wallet/recharge',
    {
      schema: {
        tags,
        summary: "Order a recharge: what to hand Pi's createPayment",
        security,
        body: rechargeBody,
        response: { 200: rechargeOrder },
      },
      onRequest: recharge,
    },
    (request) => recharges.create(authOf(request), request.body),
  );
  app.post(
    '/wallet/recharge/approve',
    {
      schema: {
        tags,
        summary: "Pi's onReadyForServerApproval: check the payment and approve it",
        security,
        body: piPaymentBody,
        response: { 200: paymentRecordSchema },
      },
      onRequest: recharge,
    },
    (request) => recharges.approve(authOf(request), request.body.paymentId),
  );
  app.post(
    '/wallet/recharge/complete',
    {
      schema: {
        tags,
        summary: "Pi's onReadyForServerCompletion: complete the payment and credit it",
        security,
        body: piCompletionBody,
        response: { 200: paymentRecordSchema },
      },
      onRequest: recharge,
    },
    (request) => recharges.complete(authOf(request), request.body.paymentId, request.body.txid),
  );
  app.post(
    '/wallet/recharge/cancel',
    {
      schema: {
        tags,
        summary: "Pi's onCancel and onError: close the order",
        security,
        body: piPaymentBody,
        response: { 200: paymentRecordSchema },
      },
      onRequest: recharge,
    },
    (request) => recharges.cancel(authOf(request), request.body.paymentId),
  );
  app.post(
    '/wallet/withdraw',
    {
      schema: {
        tags,
        summary: 'Withdraw Pi to your Pi wallet',
        security,
        body: withdrawBody,
        response: { 200: paymentRecordSchema },
      },
      onRequest: limitBy(
        ctx.limits,
        ['withdrawPerUser', byUser],
        ['paymentPasswordPerUser', byUser],
      ),
      config: { sensitive: { level: 'money', proof: 'inline' } },
    },
    (request) => withdrawals.withdraw(authOf(request), request.body, clientOf(request)),
  );
}
