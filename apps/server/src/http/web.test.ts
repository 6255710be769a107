import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';

/** Above the build's 1 KB floor, so it has compressed copies as a real build's would. */
const INDEX = `<!doctype html><title>teltlk</title>${'<p>sign in</p>'.repeat(100)}`;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;
/** A file the build left without copies: it must go out as it is, never encoded here. */
const PLAIN_SCRIPT = `console.log(${JSON.stringify('y'.repeat(2000))});`;

function decoded(response: LightMyRequestResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString();
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString();
  expect(encoding).toBeUndefined();
  return response.body;
}

function varies(response: LightMyRequestResponse): boolean {
  return String(response.headers.vary ?? '')
    .toLowerCase()
    .split(/,\s*/)
    .includes('accept-encoding');
}

describe('the built web app, compressed at build time', () => {
  let t: TestApp;

  beforeAll(async () => {
    const empty = await createTestApp();
    await empty.close();
    const web = join(empty.dataDir, 'web');
    await mkdir(join(web, 'assets'), { recursive: true });
    const files = { 'index.html': INDEX, 'assets/index-AbC123.js': SCRIPT };
    for (const [name, text] of Object.entries(files)) {
      await writeFile(join(web, name), text);
      await writeFile(join(web, `${name}.br`), brotliCompressSync(text));
      await writeFile(join(web, `${name}.gz`), gzipSync(text));
    }
    await writeFile(join(web, 'assets', 'plain-XyZ789.js'), PLAIN_SCRIPT);
    t = await createTestApp({ env: { WEB_DIST_DIR: web } });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
    t.call(method, url, {
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends Brotli when the browser takes it, whatever the order it lists encodings in', async () => {
    for (const accept of ['gzip, deflate, br', 'br', 'br;q=1, gzip;q=1']) {
      const response = await get('/assets/index-AbC123.js', accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(varies(response)).toBe(true);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decoded(response)).toBe(SCRIPT);
    }
  });

  it('sends gzip to a browser without Brotli', async () => {
    const response = await get('/assets/index-AbC123.js', 'gzip, deflate');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(varies(response)).toBe(true);
    expect(decoded(response)).toBe(SCRIPT);
  });

  it('sends the file itself to a client that accepts neither, still saying it varies', async () => {
    for (const accept of [undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const response = await get('/assets/index-AbC123.js', accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(varies(response)).toBe(true);
      expect(response.body).toBe(SCRIPT);
    }
  });

  it('compresses the page at `/` too, and keeps it revalidated', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await get('/', 'gzip, br', method);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(varies(response)).toBe(true);
      if (method === 'GET') expect(decoded(response)).toBe(INDEX);
    }
    const named = await get('/index.html', 'gzip');
    expect(named.headers['content-encoding']).toBe('gzip');
    expect(decoded(named)).toBe(INDEX);
  });

  it('leaves a file without compressed copies as it is', async () => {
    const response = await get('/assets/plain-XyZ789.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(varies(response)).toBe(true);
    expect(response.body).toBe(PLAIN_SCRIPT);
  });
});
