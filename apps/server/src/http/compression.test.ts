import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';

describe('compressed API answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('compresses JSON answers above a kilobyte, Brotli first, and nothing else', async () => {
    const plain = await t.call('GET', '/api/v1/meta/countries');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await t.call('GET', '/api/v1/meta/countries', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gzip = await t.call('GET', '/api/v1/meta/countries', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());

    const headers = { 'accept-encoding': 'br, gzip' };
    const user = await t.register();
    const me = await t.call('GET', '/api/v1/me', { token: user.token, headers });
    expect(me.statusCode).toBe(200);
    expect(me.rawPayload.length).toBeLessThan(1024);
    expect(me.headers['content-encoding']).toBeUndefined();
    expect(me.json<{ id: string }>().id).toBe(user.user.id);

    const head = await t.call('HEAD', '/api/v1/meta/countries', { headers });
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);

    const logout = await t.call('POST', '/api/v1/auth/logout', { token: user.token, headers });
    expect(logout.statusCode).toBe(204);
    expect(logout.headers['content-encoding']).toBeUndefined();
    expect(logout.rawPayload.length).toBe(0);

    const health = await t.call('GET', '/healthz', { headers });
    expect(health.headers['content-encoding']).toBeUndefined();
  });
});
