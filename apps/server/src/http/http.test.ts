import {
  APP_VERSION,
  type CountryListResult,
  type ErrorBody,
  JSON_BODY_LIMIT_BYTES,
  type OutboxResult,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
  uniqueEmail,
} from '../test/harness.js';
import { JSON_ROUTES, type JsonRoute, PROTECTED, PUBLIC } from './http-samples.js';

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
