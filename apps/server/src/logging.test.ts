import { Writable } from 'node:stream';
import {
  CODE_RESEND_SECONDS,
  type AuthResult,
  type CodePurpose,
  type VerifyCodeResult,
} from '@teltlk/protocol';
import * as protocol from '@teltlk/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, requestLogFields, SECRET_KEYS } from './logging.js';
import { SECOND } from './lib/clock.js';
import { socketUrl, TestSocket } from './test/test-client.js';
import {
  createTestApp,
  dialects,
  PASSWORD,
  uniqueEmail,
  uniquePhone,
  type TestApp,
} from './test/harness.js';

describe('requestLogFields', () => {
  it('keeps the path and drops the query string', () => {
    const fields = requestLogFields({
      method: 'GET',
      url: '/api/v1/users/search?q=%2B8613800000000&x=1',
      host: 'localhost',
      ip: '127.0.0.1',
      socket: { remotePort: 5000 },
    });
    expect(fields).toEqual({
      method: 'GET',
      url: '/api/v1/users/search?[redacted]',
      host: 'localhost',
      remoteAddress: '127.0.0.1',
      remotePort: 5000,
    });
    expect(requestLogFields({ method: 'GET', url: '/healthz' }).url).toBe('/healthz');
  });

  it("leaves out a secret in the path: an address-undo link's token", () => {
    const token = 'Zm9vYmFyYmF6cXV4cXV1eA';
    expect(
      requestLogFields({ method: 'GET', url: `/api/v1/security/address-undo/${token}?x=1` }).url,
    ).toBe('/api/v1/security/address-undo/[redacted]?[redacted]');
  });
});

/** Every field name the protocol's schemas declare, in bodies, answers and frames alike. */
function protocolFieldNames(): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach(visit);
    // zod keeps a schema's parts in its definition: an object's shape, a union's options…
    const def = (value as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def) return;
    if (def.type === 'object') {
      for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) {
        names.add(key);
        visit(field);
      }
    }
    Object.values(def).forEach(visit);
  };
  Object.values(protocol).forEach(visit);
  return names;
}

describe('redaction', () => {
  /** Names that say a field holds a secret someone types or holds. */
  const SECRET_NAME = /password|token|ticket|secret|^codes?$|^match$|^auth$/i;
  /** Names that match but hold none. */
  const NOT_SECRETS: Record<string, string> = {
    hasPassword: 'whether an account has a password, not the password',
  };

  it('covers every field of the protocol that carries a secret', () => {
    const names = [...protocolFieldNames()];
    // The walk did reach the bodies and frames.
    expect(names).toEqual(expect.arrayContaining(['password', 'ticket', 'accessToken', 'match']));
    const secrets = names.filter((name) => SECRET_NAME.test(name) && !(name in NOT_SECRETS));
    expect(secrets.filter((name) => !SECRET_KEYS.includes(name))).toEqual([]);
  });

  it('keeps each secret out of the log at every depth it is logged at', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ logLevel: 'trace' }, sink);
    const values: string[] = [];
    for (const key of SECRET_KEYS) {
      const value = () => {
        const made = `secret-${key}-${values.length}-${Math.random().toString(36).slice(2)}`;
        values.push(made);
        return made;
      };
      logger.info({ [key]: value() }, 'top level');
      logger.info({ body: { [key]: value() } }, 'a body');
      logger.info({ request: { body: { [key]: value() } } }, "a request's body");
      logger.info({ items: [{ [key]: value() }] }, 'a list');
      logger.warn({ err: Object.assign(new Error('refused'), { [key]: value() }) }, 'an error');
      logger.warn(
        { err: Object.assign(new Error('refused'), { body: { [key]: value() } }) },
        "an error's body",
      );
      logger.warn(
        { err: Object.assign(new Error('refused'), { response: { body: { [key]: value() } } }) },
        "an error's answer",
      );
    }
    const log = lines.join('');
    expect(lines).toHaveLength(SECRET_KEYS.length * 7);
    for (const value of values) expect(log.includes(value), `log holds ${value}`).toBe(false);
  });

  it('still names an error by its code', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ logLevel: 'info' }, sink);
    for (const code of ['ECONNREFUSED', 'RATE_LIMITED', 'ERR_STREAM_PREMATURE_CLOSE', '23505']) {
      logger.warn({ err: Object.assign(new Error('refused'), { code }) }, 'down');
    }
    // A code that names no kind of error may be someone's: it stays out.
    logger.warn({ err: Object.assign(new Error('refused'), { code: '482913' }) }, 'down');
    expect(lines.map((line) => (JSON.parse(line) as { err: object }).err)).toMatchObject([
      { code: '[redacted]', errorCode: 'ECONNREFUSED', message: 'refused' },
      { errorCode: 'RATE_LIMITED' },
      { errorCode: 'ERR_STREAM_PREMATURE_CLOSE' },
      { errorCode: '23505' },
      { code: '[redacted]' },
    ]);
    expect(lines[4]).not.toContain('482913');
  });
});

describe.each(dialects)('the log at trace level on $dialect', ({ dialect }) => {
  let t: TestApp;
  let lines: string[];
  beforeEach(async () => {
    lines = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    // The logger the server runs with, at its most talkative.
    t = await createTestApp({ dialect, logger: createLogger({ logLevel: 'trace' }, sink) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    await t.close();
  });

  it('holds no code, ticket, token, password or searched phone or email', async () => {
    const secrets: string[] = [];
    const codes: string[] = [];
    const post = async <T>(url: string, body: object, token?: string) => {
      const response = await t.call('POST', url, { body, token });
      expect(response.statusCode, `${url} ${response.body}`).toBeLessThan(300);
      return response.body ? response.json<T>() : (null as T);
    };
    const codeFor = async (purpose: CodePurpose, destination: string) => {
      await post('/api/v1/auth/codes', { purpose, channel: 'email', destination });
      const code = t.codeFor(destination, purpose);
      codes.push(code);
      return code;
    };

    // Register: code, ticket, password, session token.
    const email = uniqueEmail();
    const registerCode = await codeFor('register', email);
    const { ticket } = await post<VerifyCodeResult>('/api/v1/auth/codes/verify', {
      purpose: 'register',
      channel: 'email',
      destination: email,
      code: registerCode,
    });
    const registered = await post<AuthResult>('/api/v1/auth/register', {
      ticket,
      nickname: 'Ada',
      password: PASSWORD,
      country: 'GB',
      motherTongue: 'en',
    });
    secrets.push(ticket, registered.token, PASSWORD, email);

    // Sign in by password, wrong and right.
    const wrong = 'Wr0ngPassword';
    const failed = await t.call('POST', '/api/v1/auth/login', {
      body: { account: email, password: wrong },
    });
    expect(failed.statusCode).toBe(400);
    const byPassword = await post<AuthResult>('/api/v1/auth/login', {
      account: email,
      password: PASSWORD,
    });
    secrets.push(wrong, byPassword.token);

    // Sign in by code.
    t.clock.advance(CODE_RESEND_SECONDS * SECOND);
    const loginCode = await codeFor('login', email);
    const byCode = await post<AuthResult>('/api/v1/auth/login/code', {
      channel: 'email',
      destination: email,
      code: loginCode,
    });
    secrets.push(byCode.token);

    // Reset, then change the password.
    const reset = 'R3setPassphrase with spaces';
    const changed = 'Ch4ngedPassphrase';
    const resetCode = await codeFor('reset', email);
    await post('/api/v1/auth/password/reset', {
      channel: 'email',
      destination: email,
      code: resetCode,
      password: reset,
    });
    const afterReset = await post<AuthResult>('/api/v1/auth/login', {
      account: email,
      password: reset,
    });
    const change = await t.call('PUT', '/api/v1/me/password', {
      token: afterReset.token,
      body: { currentPassword: reset, newPassword: changed },
    });
    expect(change.statusCode).toBe(204);
    secrets.push(reset, changed, afterReset.token);

    // Socket authentication, with the token and with a made-up one.
    const url = socketUrl(t.app.server.address());
    const socket = await TestSocket.connect(url, afterReset.token);
    await socket.close();
    const forged = 'F'.repeat(43);
    const refused = await TestSocket.open(url);
    refused.send({ t: 'auth', token: forged });
    await refused.closed;
    secrets.push(forged);

    // Searches by email and by phone, found and not.
    const other = await t.register();
    const phone = uniquePhone();
    for (const q of [other.destination, phone]) {
      await t.call('GET', `/api/v1/users/search?q=${encodeURIComponent(q)}`, {
        token: afterReset.token,
      });
      secrets.push(q, encodeURIComponent(q), q.replace('+', ''));
    }

    const log = lines.join('');
    // The log did see all of it.
    expect(log).toContain('"url":"/api/v1/users/search?[redacted]"');
    expect(log).toContain('/api/v1/auth/password/reset');
    expect(log).toContain('verification code put in the dev outbox');
    for (const secret of secrets) {
      expect(log.includes(secret), `log holds ${secret}`).toBe(false);
    }
    // Six digits on their own, not a part of a timestamp.
    for (const code of codes) {
      expect(log).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
    }
  });
});

describe('request lines', () => {
  /** The messages the server logs while one page asks the API for the country list. */
  async function messagesAt(logLevel: 'info' | 'debug'): Promise<string[]> {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await createTestApp({ logger: createLogger({ logLevel }, sink) });
    try {
      expect((await t.call('GET', '/api/v1/meta/countries')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
    return lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
  }

  it('are debug lines: the default level keeps the console for start-up and trouble', async () => {
    expect(await messagesAt('info')).not.toContain('incoming request');
    expect(await messagesAt('debug')).toEqual(
      expect.arrayContaining(['incoming request', 'request completed']),
    );
  });
});
