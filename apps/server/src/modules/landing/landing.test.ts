import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runOperator } from '../../operator.js';
import { createTestApp, dialects, type TestApp } from '../../test/harness.js';

/**
 * The landing site: prerendered pages served with the host's own address, the language
 * chosen at /home, download links from the config, and the partnership form (a plain
 * HTML form) stored, reported to the operator, and answered with its thank-you page.
 */
describe.each(dialects)('landing site on $dialect', ({ dialect }) => {
  let t: TestApp;
  const web = mkdtempSync(join(tmpdir(), 'teltlk-landing-'));

  beforeAll(async () => {
    mkdirSync(join(web, 'home', 'en', 'cooperate', 'thanks'), { recursive: true });
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(
      join(web, 'home', 'en', 'index.html'),
      `<link rel="canonical" href="https://teltlk.invalid/home/en/"><h1>Teltlk</h1>${'<p>Chat with pioneers.</p>'.repeat(100)}`,
    );
    t = await createTestApp({
      dialect,
      env: {
        WEB_DIST_DIR: web,
        DOWNLOAD_ANDROID_URL: 'https://play.example.com/teltlk',
        OPERATOR_EMAIL: 'partners@example.com',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('serves a prerendered page with the host it was asked from', async () => {
    const page = await t.call('GET', '/home/en/', { headers: { host: 'chat.example.org' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('href="http://chat.example.org/home/en/"');
    expect(page.body).not.toContain('teltlk.invalid');
    const compressed = await t.call('GET', '/home/en/', {
      headers: { 'accept-encoding': 'br', host: 'chat.example.org' },
    });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect((await t.call('GET', '/home/en')).headers.location).toBe('/home/en/');
    expect((await t.call('GET', '/home/nowhere/')).statusCode).toBe(404);
    expect((await t.call('GET', '/home/..%2F..%2Fetc/')).statusCode).toBe(404);
  });

  it("sends /home to the page in the browser's language", async () => {
    const english = await t.call('GET', '/home', { headers: { 'accept-language': 'en-GB,en' } });
    expect(english.headers.location).toBe('/home/en/');
    const taiwan = await t.call('GET', '/home', { headers: { 'accept-language': 'zh-TW' } });
    expect(taiwan.headers.location).toBe('/home/zh-tw/');
    expect((await t.call('GET', '/home')).headers.location).toBe('/home/');
  });

  it('links the app downloads from the config, and says so when there is none', async () => {
    const android = await t.call('GET', '/home/download/android');
    expect(android.statusCode).toBe(302);
    expect(android.headers.location).toBe('https://play.example.com/teltlk');
    const ios = await t.call('GET', '/home/download/ios', {
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(ios.statusCode).toBe(404);
    expect(ios.body).toContain('下载链接获取失败');
  });

  it('takes a partnership request, keeps it, tells the operator and thanks', async () => {
    const notify = vi.spyOn(t.ctx.services.notify, 'notifyOperator');
    const form = new URLSearchParams({
      lang: 'en_US',
      name: 'Mia',
      organisation: 'Pi Cafe',
      email: 'mia@example.com',
      kind: 'business',
      message: 'We would like to accept Pi for coffee.',
    });
    const sent = await t.call('POST', '/home/cooperate', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe('/home/en/cooperate/thanks/');
    const stored = await t.ctx.db.selectFrom('cooperation_requests').selectAll().execute();
    expect(stored).toMatchObject([
      { name: 'Mia', organisation: 'Pi Cafe', email: 'mia@example.com', kind: 'business' },
    ]);
    expect(notify).toHaveBeenCalledWith('partners@example.com', {
      subject: 'Teltlk partnership request (business) from Mia',
      text: expect.stringContaining('We would like to accept Pi for coffee.') as string,
    });
    notify.mockRestore();

    const lines: string[] = [];
    const out = {
      log: (line: string) => lines.push(line),
      error: (line: string) => lines.push(line),
    };
    const ctx = () => Promise.resolve({ ...t.ctx, close: () => Promise.resolve() });
    expect(await runOperator(['cooperation:list'], ctx, out)).toBe(0);
    expect(lines[0]).toContain('Mia\tPi Cafe\tmia@example.com');
  });

  it('asks again in the page language for a form that is not complete', async () => {
    const form = new URLSearchParams({ lang: 'zh_TW', name: '', email: 'not-an-email' });
    const refused = await t.call('POST', '/home/cooperate', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('請填寫姓名');
  });
});
