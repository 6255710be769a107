import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createTestApp, expectError, PASSWORD, uniqueEmail } from '../test/harness.js';

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
