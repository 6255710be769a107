import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { socketSources } from './security.js';

/** The Content-Security-Policy header as directive name → sources. */
function policy(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy']);
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

describe('Content-Security-Policy connect-src', () => {
  let t: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    proxied = await createTestApp({ env: { TRUST_PROXY: '10.0.0.0/8' } });
  });
  afterAll(async () => {
    await t.close();
    await proxied.close();
  });

  const connectSrc = async (app: TestApp, headers: Record<string, string>, url = '/healthz') => {
    const response = await app.call('GET', url, { headers });
    expect(response.statusCode, response.body).toBeLessThan(500);
    return policy(response).get('connect-src');
  };

  it('allows this origin and sockets to this host only, not every socket host', async () => {
    expect(await connectSrc(t, { host: 'chat.example.com' })).toEqual([
      "'self'",
      'ws://chat.example.com',
      'wss://chat.example.com',
    ]);
    expect(await connectSrc(t, { host: 'LocalHost:3000' })).toEqual([
      "'self'",
      'ws://localhost:3000',
      'wss://localhost:3000',
    ]);
    expect(await connectSrc(t, { host: '192.168.1.20:8080' })).toEqual([
      "'self'",
      'ws://192.168.1.20:8080',
      'wss://192.168.1.20:8080',
    ]);
    // Error answers carry the same policy.
    expect(await connectSrc(t, { host: 'chat.example.com' }, '/api/v1/nope')).toEqual([
      "'self'",
      'ws://chat.example.com',
      'wss://chat.example.com',
    ]);
  });

  it('lets the pages reach the SFU of group calls, when one is configured', async () => {
    const sfu = await createTestApp({
      env: {
        JANUS_URL: 'http://127.0.0.1:8088/janus',
        JANUS_PUBLIC_URL: 'https://sfu.example.com/janus',
      },
    });
    try {
      expect(await connectSrc(sfu, { host: 'chat.example.com' })).toEqual([
        "'self'",
        'ws://chat.example.com',
        'wss://chat.example.com',
        'https://sfu.example.com',
      ]);
    } finally {
      await sfu.close();
    }
  });

  it('gives a forged Host header no way to add sources or directives', async () => {
    for (const host of [
      'evil.example; script-src *',
      'evil.example wss:',
      'chat.example.com, evil.example',
      '*',
      '*.example.com',
      'ws://evil.example',
      'evil_host.example',
      '[::1]:3000',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(130)}example`,
    ]) {
      const response = await t.call('GET', '/healthz', { headers: { host } });
      expect(response.statusCode, host).toBe(200);
      const csp = policy(response);
      expect(csp.get('connect-src'), host).toEqual(["'self'"]);
      expect(csp.get('script-src'), host).toEqual(["'self'"]);
      expect([...csp.keys()].filter((name) => name === 'script-src')).toHaveLength(1);
    }
  });

  it('reads X-Forwarded-Host only from a trusted proxy, and checks it the same way', async () => {
    const forwarded = { host: 'app:3000', 'x-forwarded-host': 'chat.example.com' };
    expect(await connectSrc(t, forwarded)).toEqual(["'self'", 'ws://app:3000', 'wss://app:3000']);
    expect(await connectSrc(proxied, forwarded)).toEqual([
      "'self'",
      'ws://chat.example.com',
      'wss://chat.example.com',
    ]);
    expect(
      await connectSrc(proxied, {
        host: 'app:3000',
        'x-forwarded-host': 'evil.example; img-src *',
      }),
    ).toEqual(["'self'"]);
  });

  it('names no source for a missing host', () => {
    expect(socketSources(undefined)).toEqual([]);
    expect(socketSources('')).toEqual([]);
  });
});
