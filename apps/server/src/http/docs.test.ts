import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, type TestApp } from '../test/harness.js';

const DOC_URLS = [
  '/openapi.json',
  '/docs',
  '/docs/',
  '/docs/json',
  '/docs/yaml',
  '/docs/static/index.html',
  '/docs/static/swagger-initializer.js',
];

describe('API docs', () => {
  let web: string;
  beforeAll(async () => {
    // A built web app at `/`, as in production, so its static files are asked first.
    web = await mkdtemp(join(tmpdir(), 'teltlk-web-'));
    await mkdir(join(web, 'assets'), { recursive: true });
    await writeFile(join(web, 'index.html'), '<!doctype html><title>teltlk</title>');
  });
  afterAll(async () => {
    await rm(web, { recursive: true, force: true });
  });

  async function withApp(env: Record<string, string>, test: (t: TestApp) => Promise<void>) {
    const t = await createTestApp({ env: { WEB_DIST_DIR: web, ...env } });
    try {
      await test(t);
    } finally {
      await t.close();
    }
  }

  const expectServed = async (t: TestApp) => {
    const doc = await t.call('GET', '/openapi.json');
    expect(doc.statusCode).toBe(200);
    expect(doc.json<{ paths: object }>().paths).toHaveProperty(['/api/v1/me']);
    const page = await t.call('GET', '/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  };

  const expectHidden = async (t: TestApp) => {
    for (const url of DOC_URLS) {
      const response = await t.call('GET', url);
      expect(response.body, url).not.toContain('/api/v1/me');
      expectError(response, 'NOT_FOUND');
    }
    // Still built inside the server, for tests and tools that walk it.
    expect(t.app.swagger().paths).toHaveProperty(['/api/v1/me']);
    expect((await t.call('GET', '/')).body).toContain('<title>teltlk</title>');
  };

  it('are off in production: every docs path answers NOT_FOUND', () =>
    withApp(
      {
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        PUBLIC_URL: 'https://teltlk.example',
      },
      expectHidden,
    ));

  it('are on in production when API_DOCS=true', () =>
    withApp(
      {
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        PUBLIC_URL: 'https://teltlk.example',
        API_DOCS: 'true',
      },
      expectServed,
    ));

  it('are on outside production, and off there with API_DOCS=false', async () => {
    await withApp({ NODE_ENV: 'development' }, expectServed);
    await withApp({ NODE_ENV: 'development', API_DOCS: 'false' }, expectHidden);
  });
});
