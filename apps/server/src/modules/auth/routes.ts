import {
  authResult,
  codeLoginBody,
  idParams,
  passwordLoginBody,
  registerBody,
  resetPasswordBody,
  sendCodeBody,
  sendCodeResult,
  sessionListResult,
  verifyCodeBody,
  verifyCodeResult,
} from '@teltlk/protocol';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { rateLimited, type RateLimiter } from '../limits/limiter.js';
import { authOf, clientOf, languageOf } from '../../http/auth.js';
import { addressBucket } from '../../lib/address-bucket.js';
import { byAddress, byUser, limitBy, type LimitKey } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import { withPlaceChecks } from '../meta/countries.js';

const noContent = { 204: z.null().describe('No content') };
const secured = [{ bearer: [] }];

/** Where a code goes, read from a parsed body that has one. */
export const byDestination: LimitKey = (request) =>
  (request.body as { destination?: string } | undefined)?.destination ?? null;

/**
 * A phone number less its last four digits: SMS pumping walks a premium range one number at
 * a time, which only a limit on the range sees.
 */
const byPhonePrefix: LimitKey = (request) => {
  const body = request.body as { channel?: string; destination?: string } | undefined;
  return body?.channel === 'phone' && body.destination ? body.destination.slice(0, -4) : null;
};

/** Answers that tell whether an account exists, where the spec names them. */
const ACCOUNT_ANSWERS = new Set(['ACCOUNT_REGISTERED', 'ACCOUNT_NOT_FOUND']);

/**
 * Runs `work` and meters the answers that reveal whether an account exists, per address
 * and in all. Once either meter is empty the route answers nothing about accounts (any
 * answer, even a code sent, would tell) until it refills.
 */
export async function meteringAccountAnswers<T>(
  limits: RateLimiter,
  request: FastifyRequest,
  work: () => Promise<T>,
): Promise<T> {
  const address = addressBucket(request.ip);
  for (const [name, key] of [
    ['accountAnswersPerAddress', address],
    ['accountAnswersGlobal', 'all'],
  ] as const) {
    const decision = await limits.peek(name, key);
    if (!decision.allowed) throw rateLimited(decision.retryAfterMs);
  }
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && ACCOUNT_ANSWERS.has(error.code)) {
      await limits.attempt('accountAnswersPerAddress', address);
      await limits.attempt('accountAnswersGlobal', 'all');
    }
    throw error;
  }
}

/** Codes, registration, sign-in and password reset: no session needed. */
export function authRoutes(app: App, { services: { auth, codes }, limits }: AppContext): void {
  const tags = ['auth'];
  // Every check of a code counts per address and per destination, whatever the purpose.
  const codeChecks = limitBy(
    limits,
    ['codeCheckPerAddress', byAddress],
    ['codeCheckPerDestination', byDestination],
  );
  app.post(
    '/auth/codes',
    {
      schema: {
        tags,
        summary: 'Send a verification code',
        body: withPlaceChecks(sendCodeBody),
        response: { 200: sendCodeResult },
      },
      preHandler: limitBy(
        limits,
        ['codeSendPerAddress', byAddress],
        ['codeSendPerPrefix', byPhonePrefix],
        // Counted before the account is known, so known and unknown numbers cost the same.
        ['smsGlobal', (request) => (byPhonePrefix(request) === null ? null : 'all')],
      ),
    },
    (request) =>
      meteringAccountAnswers(limits, request, () =>
        codes.send(request.body, { ip: request.ip, language: languageOf(request) }),
      ),
  );
  app.post(
    '/auth/codes/verify',
    {
      schema: {
        tags,
        summary: 'Trade a registration code for a ticket',
        body: withPlaceChecks(verifyCodeBody),
        response: { 200: verifyCodeResult },
      },
      preHandler: codeChecks,
    },
    (request) => codes.verifyForRegistration(request.body),
  );
  app.post(
    '/auth/register',
    {
      schema: {
        tags,
        summary: 'Create an account with a ticket',
        body: withPlaceChecks(registerBody),
        response: { 200: authResult },
      },
      onRequest: limitBy(limits, ['registerPerAddress', byAddress]),
    },
    (request) => auth.register(request.body, clientOf(request)),
  );
  app.post(
    '/auth/login',
    {
      schema: {
        tags,
        summary: 'Sign in with a password',
        body: passwordLoginBody,
        response: { 200: authResult },
      },
      onRequest: limitBy(limits, ['loginPerAddress', byAddress]),
    },
    (request) =>
      meteringAccountAnswers(limits, request, () => auth.login(request.body, clientOf(request))),
  );
  app.post(
    '/auth/login/code',
    {
      schema: {
        tags,
        summary: 'Sign in with a code',
        body: withPlaceChecks(codeLoginBody),
        response: { 200: authResult },
      },
      preHandler: codeChecks,
    },
    (request) => auth.loginWithCode(request.body, clientOf(request)),
  );
  app.post(
    '/auth/password/reset',
    {
      schema: {
        tags,
        summary: 'Set a new password with a code',
        body: withPlaceChecks(resetPasswordBody),
        response: noContent,
      },
      preHandler: codeChecks,
    },
    async (request, reply) => {
      await auth.resetPassword(request.body, clientOf(request));
      return reply.code(204).send(null);
    },
  );
}

/** Sign-out and the session list: behind `requireSession`. */
export function sessionRoutes(
  app: App,
  { services: { auth, sessions, security }, limits }: AppContext,
): void {
  const tags = ['sessions'];
  const reads = limitBy(limits, ['accountReadPerUser', byUser]);
  const changes = limitBy(limits, ['accountWritePerUser', byUser]);
  app.post(
    '/auth/logout',
    {
      schema: { tags, summary: 'Sign this session out', security: secured, response: noContent },
      onRequest: changes,
    },
    async (request, reply) => {
      await auth.logout(authOf(request));
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/sessions',
    {
      schema: {
        tags,
        summary: 'Signed-in sessions of the account',
        security: secured,
        response: { 200: sessionListResult },
      },
      onRequest: reads,
    },
    async (request) => ({ sessions: await sessions.list(authOf(request)) }),
  );
  app.delete(
    '/sessions/:id',
    {
      schema: {
        tags,
        summary: 'Sign one of your sessions out',
        security: secured,
        params: idParams,
        response: noContent,
      },
      config: { sensitive: { level: 'account', proof: 'conditional' } },
      onRequest: changes,
    },
    async (request, reply) => {
      await security.signOut(authOf(request), request.params.id, clientOf(request));
      return reply.code(204).send(null);
    },
  );
}
