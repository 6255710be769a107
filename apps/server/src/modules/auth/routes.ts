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
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { authOf, clientOf, languageOf } from '../../http/auth.js';
import type { App } from '../../http/types.js';
import { withPlaceChecks } from '../meta/countries.js';

const noContent = { 204: z.null().describe('No content') };
const secured = [{ bearer: [] }];

/** Codes, registration, sign-in and password reset: no session needed. */
export function authRoutes(app: App, { services: { auth, codes } }: AppContext): void {
  const tags = ['auth'];
  app.post(
    '/auth/codes',
    {
      schema: {
        tags,
        summary: 'Send a verification code',
        body: withPlaceChecks(sendCodeBody),
        response: { 200: sendCodeResult },
      },
    },
    (request) => codes.send(request.body, { ip: request.ip, language: languageOf(request) }),
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
    },
    (request) => auth.login(request.body, clientOf(request)),
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
    },
    async (request, reply) => {
      await auth.resetPassword(request.body);
      return reply.code(204).send(null);
    },
  );
}

/** Sign-out and the session list: behind `requireSession`. */
export function sessionRoutes(app: App, { services: { auth, sessions } }: AppContext): void {
  const tags = ['sessions'];
  app.post(
    '/auth/logout',
    { schema: { tags, summary: 'Sign this session out', security: secured, response: noContent } },
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
    },
    async (request, reply) => {
      await sessions.revoke(authOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
