import { APP_VERSION } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperator } from '../../operator.js';
import { createTestApp, dialects, expectError, type TestApp } from '../../test/harness.js';

/**
 * `/upgradation`: the version the server serves and the oldest app it works with; and
 * maintenance, switched by the operator, which every API call then meets.
 */
describe.each(dialects)('versions and maintenance on $dialect', ({ dialect }) => {
  let t: TestApp;
  const lines: string[] = [];
  const out = {
    log: (line: string) => lines.push(line),
    error: (line: string) => lines.push(line),
  };
  const operator = (...argv: string[]) =>
    runOperator(argv, () => Promise.resolve({ ...t.ctx, close: () => Promise.resolve() }), out);

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { MIN_CLIENT_VERSION: '1.0.1' } });
  });
  afterAll(() => t.close());

  it('tells clients the version served and the oldest one supported', async () => {
    const response = await t.call('GET', '/api/v1/meta/version');
    expect(response.json()).toEqual({ version: APP_VERSION, minimum: '1.0.1', maintenance: false });
  });

  it('refuses API calls under maintenance, and answers again after it', async () => {
    const ada = await t.register();
    expect(await operator('maintenance:on', '--note', 'database upgrade')).toBe(0);
    t.clock.advance(10_000);
    const refused = await t.call('GET', '/api/v1/me', { token: ada.token });
    expect(refused.statusCode).toBe(503);
    expect(expectError(refused, 'MAINTENANCE').message).toBe(
      'This feature is currently under maintenance',
    );
    // Clients still learn why, and health checks still pass.
    expect((await t.call('GET', '/api/v1/meta/version')).json()).toMatchObject({
      maintenance: true,
    });
    expect((await t.call('GET', '/healthz')).statusCode).toBe(200);

    expect(await operator('maintenance:off')).toBe(0);
    t.clock.advance(10_000);
    expect((await t.call('GET', '/api/v1/me', { token: ada.token })).statusCode).toBe(200);
    expect(lines).toEqual(['under maintenance (database upgrade)', 'maintenance over']);
  });
});
