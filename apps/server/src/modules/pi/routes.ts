import {
  authResult,
  meSchema,
  piBindBody,
  piConfigResult,
  piIncompletePaymentBody,
  piLoginBody,
  piLoginResult,
  piRegisterBody,
} from '@teltlk/protocol';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { authOf, clientOf } from '../../http/auth.js';
import { byAddress, byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import { byDestination, meteringAccountAnswers } from '../auth/routes.js';
import { withPlaceChecks } from '../meta/countries.js';

const tags = ['pi'];
const security = [{ bearer: [] }];
const noContent = { 204: z.null().describe('No content') };

/** Pi sign-in, making or binding an account for a Pi account: no session needed. */
export function piAuthRoutes(app: App, { services: { pi }, limits }: AppContext): void {
  app.get(
    '/pi/config',
    {
      schema: {
        tags,
        summary: 'Whether Pi is on here, and where its SDK loads from',
        response: { 200: piConfigResult },
      },
      onRequest: limitBy(limits, ['publicInfoPerAddress', byAddress]),
    },
    () => pi.config(),
  );
  app.post(
    '/auth/pi',
    {
      schema: {
        tags,
        summary: 'Sign in with a Pi access token',
        body: piLoginBody,
        response: { 200: piLoginResult },
      },
      onRequest: limitBy(limits, ['piLoginPerAddress', byAddress]),
    },
    (request) => pi.login(request.body, clientOf(request)),
  );
  app.post(
    '/auth/pi/register',
    {
      schema: {
        tags,
        summary: 'Create an account for a Pi account',
        body: withPlaceChecks(piRegisterBody),
        response: { 200: authResult },
      },
      onRequest: limitBy(limits, ['registerPerAddress', byAddress]),
    },
    (request) => pi.register(request.body, clientOf(request)),
  );
  app.post(
    '/auth/pi/bind',
    {
      schema: {
        tags,
        summary: 'Bind a Pi account to an existing account and sign in',
        body: withPlaceChecks(piBindBody),
        response: { 200: authResult },
      },
      config: { sensitive: { level: 'account', proof: 'inline' } },
      preHandler: limitBy(
        limits,
        ['piBindPerAddress', byAddress],
        ['codeCheckPerDestination', byDestination],
      ),
    },
    (request) =>
      meteringAccountAnswers(limits, request, () => pi.bind(request.body, clientOf(request))),
  );
}

/** The signed-in account's Pi binding and unfinished Pi payments. */
export function piAccountRoutes(
  app: App,
  { services: { pi, recharges }, limits }: AppContext,
): void {
  const perUser = limitBy(limits, ['piAccountPerUser', byUser]);
  app.post(
    '/me/pi',
    {
      schema: {
        tags,
        summary: 'Bind the Pi account of an access token to your account',
        security,
        body: piLoginBody,
        response: { 200: meSchema },
      },
      onRequest: perUser,
      config: { sensitive: { level: 'account', proof: 'session' } },
    },
    (request) => pi.bindSignedIn(authOf(request), request.body.accessToken, clientOf(request)),
  );
  app.delete(
    '/me/pi',
    {
      schema: {
        tags,
        summary: 'Unbind your Pi account',
        security,
        response: { 200: meSchema },
      },
      onRequest: perUser,
      config: { sensitive: { level: 'account', proof: 'session' } },
    },
    (request) => pi.unbind(authOf(request), clientOf(request)),
  );
  app.post(
    '/pi/payments/incomplete',
    {
      schema: {
        tags,
        summary: 'Settle a Pi payment the SDK found unfinished: completed if paid, else cancelled',
        security,
        body: piIncompletePaymentBody,
        response: noContent,
      },
      onRequest: limitBy(limits, ['piPaymentReportPerUser', byUser]),
    },
    async (request, reply) => {
      await recharges.resolveIncomplete(authOf(request), request.body.paymentId);
      return reply.code(204).send(null);
    },
  );
}
