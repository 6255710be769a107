import {
  changePaymentPasswordBody,
  resetPaymentPasswordBody,
  walletCodeBody,
  walletCodeResult,
  setPaymentPasswordBody,
  verifyPaymentPasswordBody,
  walletResult,
} from '@teltlk/protocol';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { authOf, clientOf, languageOf } from '../../http/auth.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

const tags = ['wallet'];
const security = [{ bearer: [] }];

/** The signed-in person's wallet and payment password: behind `requireSession`. */
export function walletRoutes(app: App, { services: { wallets }, limits }: AppContext): void {
  const perUser = limitBy(limits, ['walletPerUser', byUser]);
  // Guesses of the payment password, on top of the lock that wrong ones set.
  const guesses = limitBy(limits, ['paymentPasswordPerUser', byUser]);
  app.get(
    '/wallet',
    {
      schema: {
        tags,
        summary: 'Your wallet and balances',
        security,
        response: { 200: walletResult },
      },
      onRequest: limitBy(limits, ['walletReadPerUser', byUser]),
    },
    (request) => wallets.wallet(authOf(request)),
  );
  app.post(
    '/wallet',
    {
      schema: { tags, summary: 'Create your wallet', security, response: { 200: walletResult } },
      onRequest: perUser,
    },
    (request) => wallets.create(authOf(request)),
  );
  app.put(
    '/wallet/password',
    {
      schema: {
        tags,
        summary: 'Set the first payment password',
        security,
        body: setPaymentPasswordBody,
        response: { 200: walletResult },
      },
      onRequest: perUser,
      config: { sensitive: { level: 'account', proof: 'session' } },
    },
    (request) => wallets.setPassword(authOf(request), request.body.password, clientOf(request)),
  );
  app.post(
    '/wallet/password/change',
    {
      schema: {
        tags,
        summary: 'Change the payment password with the current one',
        security,
        body: changePaymentPasswordBody,
        response: { 200: walletResult },
      },
      onRequest: guesses,
      config: { sensitive: { level: 'money', proof: 'inline' } },
    },
    (request) => wallets.changePassword(authOf(request), request.body, clientOf(request)),
  );
  app.post(
    '/wallet/password/verify',
    {
      schema: {
        tags,
        summary: 'Check the payment password',
        security,
        body: verifyPaymentPasswordBody,
        response: { 204: z.null().describe('No content') },
      },
      onRequest: guesses,
    },
    async (request, reply) => {
      await wallets.verify(authOf(request), request.body.password);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/wallet/password/code',
    {
      schema: {
        tags,
        summary: 'Forgot the payment password: a code to your own phone or email, valid 5 minutes',
        security,
        body: walletCodeBody,
        response: { 200: walletCodeResult },
      },
      onRequest: perUser,
    },
    (request) =>
      wallets.sendResetCode(authOf(request), request.body, {
        ip: request.ip,
        language: languageOf(request),
      }),
  );
  app.post(
    '/wallet/password/reset',
    {
      schema: {
        tags,
        summary: 'Set a new payment password with a wallet code',
        security,
        body: resetPaymentPasswordBody,
        response: { 200: walletResult },
      },
      onRequest: guesses,
      config: { sensitive: { level: 'account', proof: 'inline' } },
    },
    (request) => wallets.resetPassword(authOf(request), request.body, clientOf(request)),
  );
}
