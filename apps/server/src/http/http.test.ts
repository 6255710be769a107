import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  APP_VERSION,
  ENDPOINT_GROUPS,
  JSON_BODY_LIMIT_BYTES,
  pathOf,
  type CountryListResult,
  type Endpoint,
  type ErrorBody,
  type ErrorCode,
  type OutboxResult,
} from '@teltlk/protocol';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  uniqueEmail,
  type RegisteredUser,
  type TestApp,
} from '../test/harness.js';

type Method = Endpoint['method'];

interface JsonRoute {
  method: Method;
  url: string;
  auth: boolean;
  /** Whether `{}` is a complete body (all-optional PATCH bodies). */
  emptyIsValid: boolean;
  /** A valid `{}` answered with this error instead (the resource does not exist). */
  emptyError?: ErrorCode;
  /** A body with a wrong type in every field. */
  wrongTypes: Record<string, unknown>;
  /** Its OpenAPI path, where `url` fills in a parameter. */
  route?: string;
}

/** What the tests send an endpoint of the contract that takes a JSON body. */
interface JsonSample extends Partial<Pick<JsonRoute, 'emptyError' | 'wrongTypes'>> {
  /** Path parameters that pass their checks, where PARAMS' do not. */
  params?: Record<string, string>;
  emptyIsValid?: boolean;
}

/** Every endpoint of the contract. */
const CONTRACT: Endpoint[] = Object.values(ENDPOINT_GROUPS).flatMap((group) =>
  Object.values<Endpoint>(group),
);
const { security, auth, users, contacts, messages, translation, groups } = ENDPOINT_GROUPS;

/** Path parameters that pass their checks, by name. */
const PARAMS: Record<string, string> = {
  id: 'abc',
  userId: 'abd',
  seq: '1',
  token: 'abc',
  mediaId: 'a'.repeat(20),
  variant: 'original',
  board: 'points',
};
const chat = { id: 'si_abc_abd' };

/** An endpoint's URL with its path parameters filled in, and its OpenAPI path. */
function addressOf(endpoint: Endpoint, params: Record<string, string> = {}) {
  return {
    url: `/api/v1${pathOf(endpoint.path, { ...PARAMS, ...params })}`,
    route: `/api/v1${endpoint.path}`,
  };
}

/**
 * Every endpoint of the contract that takes a JSON body, with what the tests send it. The
 * OpenAPI test below finds one missing.
 */
const JSON_SAMPLES = new Map<Endpoint, JsonSample>([
  [auth.sendCode, { wrongTypes: { purpose: 1, channel: true, destination: [] } }],
  [
    auth.verifyCode,
    { wrongTypes: { purpose: 'register', channel: 'email', destination: 5, code: 123456 } },
  ],
  [
    auth.register,
    {
      wrongTypes: {
        ticket: 1,
        nickname: 2,
        password: 3,
        country: 4,
        motherTongue: 5,
        inviteCode: 6,
        uiLanguage: 7,
      },
    },
  ],
  [auth.login, { wrongTypes: { account: {}, password: 12345678 } }],
  [auth.loginWithCode, { wrongTypes: { channel: 'phone', destination: 8613800000000, code: 1 } }],
  [
    auth.resetPassword,
    { wrongTypes: { channel: 'email', destination: null, code: [], password: {} } },
  ],
  [security.setAddress, { wrongTypes: { ticket: 9 } }],
  [security.sendStepUpCode, { wrongTypes: { channel: 3 } }],
  [security.stepUp, { wrongTypes: { method: 1, password: 2 } }],
  [security.undoAddress, { wrongTypes: { token: 7 } }],
  [
    users.updateProfile,
    { emptyIsValid: true, wrongTypes: { nickname: 1, country: 2, motherTongue: 3 } },
  ],
  [users.changeTeltlkId, { wrongTypes: { teltlkId: 1234567 } }],
  [users.changePassword, { wrongTypes: { currentPassword: 1, newPassword: true } }],
  [
    users.updateSettings,
    {
      emptyIsValid: true,
      wrongTypes: {
        uiLanguage: 1,
        motherTongueFirst: 'yes',
        notifications: 0,
        vibration: null,
        alertSound: [],
      },
    },
  ],
  [contacts.sendFriendRequest, { wrongTypes: { userId: 1, greeting: 2 } }],
  [contacts.updateFriend, { wrongTypes: { remark: 1 } }],
  [messages.send, { wrongTypes: { conversationId: 1, clientMsgId: 2, content: 'text' } }],
  [
    // `{}` changes nothing and is refused; the conversation does not exist either.
    messages.update,
    {
      params: chat,
      emptyIsValid: false,
      wrongTypes: { pinned: 'yes', muted: 1, hidden: null, translate: 'on', translateTo: 'xx' },
    },
  ],
  [messages.setBurn, { params: chat, wrongTypes: { seconds: 'ten' } }],
  [messages.edit, { params: chat, wrongTypes: { text: 5 } }],
  [messages.read, { params: chat, wrongTypes: { seq: 'last' } }],
  [
    translation.translate,
    { wrongTypes: { conversationId: 1, seqs: 'all', lang: 5, retry: 'yes' } },
  ],
  [translation.preview, { wrongTypes: { text: 1, to: 'klingon' } }],
  [groups.create, { wrongTypes: { name: 1, memberIds: 'all' } }],
  [
    // `{}` changes nothing and is refused.
    groups.update,
    {
      emptyIsValid: false,
      wrongTypes: { name: 1, notice: [], verification: 'all', allMuted: 'yes' },
    },
  ],
  // `{}` changes nothing and is refused.
  [groups.updateMine, { emptyIsValid: false, wrongTypes: { nickname: 1, remark: true } }],
  [groups.invite, { wrongTypes: { userIds: 'all' } }],
  [
    groups.requestFriend,
    { emptyIsValid: true, emptyError: 'GROUP_NOT_FOUND', wrongTypes: { greeting: 5 } },
  ],
  [groups.setRole, { wrongTypes: { role: 'owner' } }],
  [groups.mute, { wrongTypes: { seconds: 'long' } }],
  [groups.transfer, { wrongTypes: { userId: 1 } }],
  [groups.join, { emptyIsValid: true, emptyError: 'GROUP_NOT_FOUND', wrongTypes: { message: 1 } }],
]);

/**
 * A value of the wrong type for each field of a JSON body: the first of a few candidates
 * the field refuses (a field that takes anything is left out).
 */
function wrongTypesOf(schema: z.ZodType): Record<string, unknown> {
  if (!(schema instanceof z.ZodObject)) return {};
  const candidates: unknown[] = [12345, 'x', true, [], { a: 1 }];
  const wrong: Record<string, unknown> = {};
  for (const [key, field] of Object.entries<z.ZodType>(schema.shape)) {
    const value = candidates.find((candidate) => !field.safeParse(candidate).success);
    if (value !== undefined) wrong[key] = value;
  }
  return wrong;
}

/**
 * Every endpoint of the contract that takes a JSON body, with what the tests send it: its
 * sample where it has one, otherwise wrong types found from its schema.
 */
const JSON_ROUTES: JsonRoute[] = CONTRACT.flatMap((endpoint) => {
  const { body } = endpoint;
  if (body === undefined || typeof body === 'string') return [];
  const { params, ...sample } = JSON_SAMPLES.get(endpoint) ?? {};
  return [
    {
      method: endpoint.method,
      ...addressOf(endpoint, params),
      auth: endpoint.access === 'session',
      emptyIsValid: body.safeParse({}).success,
      wrongTypes: wrongTypesOf(body),
      ...sample,
    },
  ];
});

/** Every route that needs a session: every endpoint of the contract that says so. */
const PROTECTED: { method: Method; url: string; body?: unknown; route: string }[] = CONTRACT.filter(
  (endpoint) => endpoint.access === 'session',
).map((endpoint) => ({ method: endpoint.method, ...addressOf(endpoint) }));

/** Every route open without a session: the health check and the contract's public ones. */
const PUBLIC = [
  'GET /healthz',
  ...CONTRACT.filter((endpoint) => endpoint.access === 'public').map(
    (endpoint) => `${endpoint.method} /api/v1${endpoint.path}`,
  ),
];

describe.each(dialects)('HTTP behaviour on $dialect', ({ dialect }) => {
  let t: TestApp;
  let user: RegisteredUser;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    user = await t.register();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the health check', async () => {
    const response = await t.call('GET', '/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', version: APP_VERSION });
  });

  it('lists countries with dial codes, sorted by code', async () => {
    const { countries } = (await t.call('GET', '/api/v1/meta/countries')).json<CountryListResult>();
    expect(countries.length).toBeGreaterThan(200);
    expect(countries).toContainEqual({ code: 'CN', dialCode: '86' });
    expect(countries).toContainEqual({ code: 'TW', dialCode: '886' });
    expect(countries).toContainEqual({ code: 'US', dialCode: '1' });
    expect(countries.map((c) => c.code)).toEqual(countries.map((c) => c.code).sort());
  });

  it('answers unknown API routes and methods with NOT_FOUND', async () => {
    expectError(await t.call('GET', '/api/v1/nope'), 'NOT_FOUND');
    expectError(await t.call('POST', '/api/v1/meta/countries', { body: {} }), 'NOT_FOUND');
    expectError(await t.call('DELETE', '/api/v1/me', { token: user.token }), 'NOT_FOUND');
  });

  it('describes every route in the OpenAPI document, each either public or behind a session', async () => {
    const response = await t.call('GET', '/openapi.json');
    expect(response.statusCode).toBe(200);
    const doc = response.json<{
      openapi: string;
      paths: Record<
        string,
        Record<string, { security?: unknown[]; requestBody?: { content: Record<string, unknown> } }>
      >;
    }>();
    expect(doc.openapi).toMatch(/^3\./);
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        route: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        operation,
      })),
    );
    // The document leaves out HEAD (a tus offset query), which Fastify answers beside GET.
    const secured = PROTECTED.filter((r) => r.method !== 'HEAD').map(
      (r) => `${r.method} ${r.route}`,
    );
    expect(operations.map((o) => o.route).sort()).toEqual([...PUBLIC, ...secured].sort());
    for (const { route, operation } of operations) {
      expect(Boolean(operation.security), route).toBe(secured.includes(route));
    }
    const withJson = operations
      .filter((o) => o.operation.requestBody?.content['application/json'])
      .map((o) => o.route);
    expect(withJson.sort()).toEqual(
      JSON_ROUTES.map((r) => `${r.method} ${r.route ?? r.url}`).sort(),
    );
  });

  it('serves the API docs UI', async () => {
    const page = await t.call('GET', '/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect((await t.call('GET', '/docs/static/swagger-initializer.js')).statusCode).toBe(200);
  });

  it('sends security headers that allow the app and nothing else', async () => {
    const response = await t.call('GET', '/healthz');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    // Sockets to the host asked for only (light-my-request's default Host).
    expect(csp).toContain("connect-src 'self' ws://localhost:80 wss://localhost:80;");
    expect(csp).not.toContain('unsafe');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  describe('every protected endpoint needs a session', () => {
    it.each(PROTECTED)('$method $url', async ({ method, url, body }) => {
      expectError(await t.call(method, url, { body }), 'UNAUTHENTICATED');
      expectError(
        await t.call(method, url, { body, headers: { authorization: `Basic ${user.token}` } }),
        'UNAUTHENTICATED',
      );
      expectError(await t.call(method, url, { body, token: 'x'.repeat(43) }), 'UNAUTHENTICATED');
      // A broken body does not get past the missing session either.
      const broken = await t.app.inject({
        method,
        url,
        payload: '{"a":',
        headers: { 'content-type': 'application/json' },
      });
      expectError(broken, 'UNAUTHENTICATED');
    });
  });

  describe('bad input never becomes a 500', () => {
    const send = (route: JsonRoute, payload: string | Buffer, contentType = 'application/json') =>
      t.app.inject({
        method: route.method,
        url: route.url,
        payload,
        headers: {
          'content-type': contentType,
          ...(route.auth ? { authorization: `Bearer ${user.token}` } : {}),
        },
      });

    it.each(JSON_ROUTES)('$method $url', async (route) => {
      expectError(await send(route, '{"purpose": "register",'), 'MALFORMED_REQUEST');
      expectError(await send(route, ''), 'MALFORMED_REQUEST');
      expectError(await send(route, '{"__proto__": {"admin": true}}'), 'MALFORMED_REQUEST');

      const wrong = expectError(
        await send(route, JSON.stringify(route.wrongTypes)),
        'VALIDATION_FAILED',
      );
      expect(wrong.issues?.length).toBeGreaterThan(0);

      for (const notAnObject of ['[]', '"text"', 'null', '42']) {
        expectError(await send(route, notAnObject), 'VALIDATION_FAILED');
      }

      const empty = await send(route, '{}');
      if (route.emptyError) expectError(empty, route.emptyError);
      else if (route.emptyIsValid) expect(empty.statusCode).toBe(200);
      else expect(expectError(empty, 'VALIDATION_FAILED').issues?.length).toBeGreaterThan(0);

      const big = JSON.stringify({ padding: 'x'.repeat(JSON_BODY_LIMIT_BYTES) });
      expectError(await send(route, big), 'PAYLOAD_TOO_LARGE');

      expectError(
        await send(route, 'purpose=register', 'application/x-www-form-urlencoded'),
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expectError(await send(route, '{}', 'text/plain'), 'UNSUPPORTED_MEDIA_TYPE');
      expectError(
        await send(route, '--b\r\n\r\n--b--', 'multipart/form-data; boundary=b'),
        'UNSUPPORTED_MEDIA_TYPE',
      );
    });

    it('reports missing fields as required, with the shared rule keys', async () => {
      const response = await t.call('POST', '/api/v1/auth/login', { body: {} });
      const error = expectError(response, 'VALIDATION_FAILED');
      expect(error.message).toBe('The request is not valid');
      expect(error.issues).toEqual([
        { path: 'account', rule: 'required' },
        { path: 'password', rule: 'required' },
      ]);
      const register = expectError(
        await t.call('POST', '/api/v1/auth/register', {
          body: {
            ticket: 'short',
            nickname: 'Ada',
            password: 'password',
            country: 'GB',
            motherTongue: 'en',
          },
        }),
        'VALIDATION_FAILED',
      );
      expect(register.issues).toEqual([
        { path: 'ticket', rule: 'ticket' },
        { path: 'password', rule: 'passwordStrength' },
      ]);
    });

    it('checks path parameters', async () => {
      const long = expectError(
        await t.call('DELETE', `/api/v1/sessions/${'a'.repeat(65)}`, { token: user.token }),
        'VALIDATION_FAILED',
      );
      expect(long.issues).toEqual([{ path: 'id', rule: 'invalid' }]);
    });

    it('handles broken URLs and multipart bodies', async () => {
      const badUrl = await t.call('GET', '/api/v1/me/%E0%A4%A');
      expect(badUrl.statusCode).toBeLessThan(500);
      expect(badUrl.json<ErrorBody>().error.code).toBeDefined();

      const avatar = (payload: string, contentType: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/me/avatar',
          payload,
          headers: { 'content-type': contentType, authorization: `Bearer ${user.token}` },
        });
      for (const [payload, contentType] of [
        [
          '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
          'multipart/form-data; boundary=b',
        ],
        ['garbage', 'multipart/form-data'],
        ['garbage', 'multipart/form-data; boundary=b'],
        [
          '--b\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--b--\r\n',
          'multipart/form-data; boundary=b',
        ],
      ] as const) {
        const response = await avatar(payload, contentType);
        expect(response.statusCode, `${contentType} ${payload}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, response.body).toBeLessThan(500);
        expect(response.json<ErrorBody>().error.code).toMatch(/^[A-Z_]+$/);
      }
    });
  });

  describe('dev outbox', () => {
    it('lists codes newest first as JSON', async () => {
      const first = uniqueEmail();
      const second = uniqueEmail();
      await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'email', destination: first },
      });
      t.clock.advance(1000);
      await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'email', destination: second },
      });
      const { messages } = (
        await t.call('GET', '/api/v1/dev/outbox', { ip: '127.0.0.1' })
      ).json<OutboxResult>();
      expect(messages[0]).toMatchObject({
        destination: second,
        purpose: 'register',
        channel: 'email',
      });
      expect(messages[1]).toMatchObject({ destination: first });
      expect(messages[0]?.createdAt).toBe(t.clock.now());
    });

    it('shows an escaped, self-refreshing HTML page', async () => {
      t.ctx.outbox?.add({
        kind: 'code',
        channel: 'email',
        destination: '<script>alert("x")</script>@example.com',
        purpose: 'login',
        code: '012345',
        createdAt: t.clock.now(),
      });
      const page = await t.call('GET', '/dev/outbox', { ip: '127.0.0.1' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toContain('http-equiv="refresh"');
      expect(page.body).toContain('012345');
      expect(page.body).not.toContain('<script>');
      expect(page.body).toContain('&#60;script&#62;');
    });
  });
});

describe('production and static files', () => {
  it('has no dev outbox in production, and codes do not land in memory', async () => {
    const mailed: unknown[] = [];
    const t = await createTestApp({
      env: {
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        PUBLIC_URL: 'https://teltlk.example',
      },
      email: { send: (message) => Promise.resolve(void mailed.push(message)) },
    });
    try {
      expect(t.ctx.outbox).toBeNull();
      const local = { ip: '127.0.0.1' };
      expectError(await t.call('GET', '/api/v1/dev/outbox', local), 'NOT_FOUND');
      expect((await t.call('GET', '/dev/outbox', local)).statusCode).toBe(404);
      const sent = await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'email', destination: uniqueEmail() },
      });
      expect(sent.statusCode).toBe(200);
      expect(mailed).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('serves the built web app with the right caching', async () => {
    const t = await createTestApp();
    await t.close();
    const web = join(t.dataDir, 'web');
    await mkdir(join(web, 'assets'), { recursive: true });
    await writeFile(join(web, 'index.html'), '<!doctype html><title>teltlk</title>');
    await writeFile(join(web, 'assets', 'index-AbC123.js'), 'console.log(1)');
    const served = await createTestApp({ env: { WEB_DIST_DIR: web } });
    try {
      const index = await served.call('GET', '/');
      expect(index.statusCode).toBe(200);
      expect(index.body).toContain('<title>teltlk</title>');
      expect(index.headers['cache-control']).toBe('no-cache');
      expect(index.headers['content-security-policy']).toContain("script-src 'self'");
      const asset = await served.call('GET', '/assets/index-AbC123.js');
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await served.call('GET', '/assets/missing.js')).statusCode).toBe(404);
      expect((await served.call('GET', '/healthz')).statusCode).toBe(200);
    } finally {
      await served.close();
    }
  });

  it('says how to build the web app when it is missing', async () => {
    const t = await createTestApp();
    try {
      const response = await t.call('GET', '/');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/plain/);
      expect(response.body).toContain('npm run build');
    } finally {
      await t.close();
    }
  });

  it('never logs passwords, tokens, the Authorization header or verification codes', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await createTestApp({ logger: pino({ level: 'trace' }, sink) });
    try {
      const user = await t.register();
      const code = t.codeFor(user.destination, 'register');
      await t.call('POST', '/api/v1/auth/login', {
        body: { account: user.destination, password: 'Wrong1234' },
      });
      await t.call('GET', '/api/v1/me', {
        token: user.token,
        headers: { 'x-test': 'header-check' },
      });
      const log = lines.join('');
      expect(log).toContain('/api/v1/me');
      expect(log).toContain('verification code put in the dev outbox');
      expect(log).not.toContain(PASSWORD);
      expect(log).not.toContain('Wrong1234');
      expect(log).not.toContain(user.token);
      // As a number of its own, not inside a timestamp.
      expect(log).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
    } finally {
      await t.close();
    }
  });
});
