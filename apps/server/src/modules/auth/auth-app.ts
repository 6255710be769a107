import {
  CODE_RESEND_SECONDS,
  CODE_TTL_SECONDS,
  type SendCodeResult,
  type VerifyCodeResult,
} from '@teltlk/protocol';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Dialect } from '../../db/database.js';
import { SECOND } from '../../lib/clock.js';
import { createTestApp, PASSWORD, type TestApp } from '../../test/harness.js';

/** The second password the auth tests change to. */
export const NEW_PASSWORD = 'N3wPassword';

/**
 * A fresh app for each auth test on a dialect (started before, closed after it), and the
 * calls the tests make to it: codes, tickets, registration, sign-in.
 */
export function authApp(dialect: Dialect) {
  let app: TestApp | undefined;
  beforeEach(async () => {
    app = await createTestApp({ dialect });
  });
  afterEach(async () => {
    await app?.close();
  });
  const current = (): TestApp => {
    if (!app) throw new Error('the auth app starts before each test');
    return app;
  };

  const sendCode = (body: object, ip?: string) =>
    current().call('POST', '/api/v1/auth/codes', { body, ip });
  const verify = (body: object) => current().call('POST', '/api/v1/auth/codes/verify', { body });
  const register = (body: object) => current().call('POST', '/api/v1/auth/register', { body });
  const login = (account: string, password: string) =>
    current().call('POST', '/api/v1/auth/login', { body: { account, password } });
  const me = (token: string) => current().call('GET', '/api/v1/me', { token });

  /** Sends a register code and trades it for a ticket. */
  async function ticketFor(destination: string, channel = 'email'): Promise<string> {
    expect((await sendCode({ purpose: 'register', channel, destination })).statusCode).toBe(200);
    const code = current().codeFor(destination, 'register');
    const verified = await verify({ purpose: 'register', channel, destination, code });
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json<VerifyCodeResult>().ticket;
  }

  /** Asks for a sign-in or reset code (after the resend interval of the registration code) and reads it. */
  async function freshCode(
    purpose: 'login' | 'reset',
    destination: string,
    channel = 'email',
  ): Promise<string> {
    const t = current();
    t.clock.advance(CODE_RESEND_SECONDS * SECOND);
    const sent = await sendCode({ purpose, channel, destination });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<SendCodeResult>().expiresIn).toBe(CODE_TTL_SECONDS[purpose]);
    return t.codeFor(destination, purpose);
  }

  return {
    get t() {
      return current();
    },
    sendCode,
    verify,
    register,
    login,
    me,
    ticketFor,
    freshCode,
    profile: { nickname: 'Ada', password: PASSWORD, country: 'GB', motherTongue: 'en' },
  };
}
