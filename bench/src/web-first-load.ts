import { singleConversationId } from '@teltlk/protocol';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { befriend, call, registerAccounts } from './accounts.js';
import { startTeltlk } from './server-process.js';

/** PERFORMANCE.md: gzipped JS a signed-in person downloads before the chat list shows its rows. */
export const FIRST_LOAD_BUDGET_BYTES = 250 * 1024;

const distDir = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));

export interface FirstLoadOptions {
  /** Chats of the signed-in person, each with a message; the list must show them all. */
  chats: number;
}

export const FIRST_LOAD_DEFAULTS: FirstLoadOptions = { chats: 3 };

export interface FirstLoad {
  files: { name: string; gzipBytes: number }[];
  /** The scripts gzipped at the highest level, as the budget counts them. */
  gzipBytes: number;
  /** What the browser received for them (the server sends Brotli where it may). */
  transferredBytes: number;
}

/** A built file's size gzipped: the build's own .gz copy, or gzipped here when it has none. */
async function gzipSize(name: string): Promise<number> {
  const file = join(distDir, name);
  try {
    return (await readFile(`${file}.gz`)).length;
  } catch {
    return gzipSync(await readFile(file), { level: 9 }).length;
  }
}

/**
 * In the system Chromium, a signed-in person with a few chats opens `/`: every script the
 * page starts fetching before the chat list holds its rows is counted (by the page's own
 * resource timings), lazily loaded route chunks included, by its gzipped size (and, for
 * information, the bytes actually transferred).
 */
export async function measureFirstLoad(options: FirstLoadOptions): Promise<FirstLoad> {
  const server = await startTeltlk();
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const base = server.baseUrl;
    const [user, ...friends] = await registerAccounts(base, 1 + options.chats);
    for (const [index, friend] of friends.entries()) {
      await befriend(base, user!, friend);
      await call(base, 'POST', '/messages', {
        token: friend.token,
        body: {
          conversationId: singleConversationId(user!.userId, friend.userId),
          clientMsgId: `first-load-${index}`,
          content: { kind: 'text', text: `Hello from friend number ${index + 1}` },
        },
      });
    }
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(
      (token) => localStorage.setItem('teltlk.token', token),
      user!.token,
    );
    // The moment the list holds all its rows, taken in the page itself: Playwright notices
    // a little later, and what the page fetches after its rows are there is not counted.
    // (A script as text: functions passed from here come compiled with helpers the page
    // does not have.)
    await context.addInitScript({
      content: `new MutationObserver((changes, observer) => {
        if (document.querySelectorAll('.tt-chat-row').length < ${options.chats}) return;
        window.rowsShownAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });`,
    });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page
      .locator('.tt-chat-row')
      .nth(options.chats - 1)
      .waitFor({ timeout: 30_000 });
    const fetched = await page.evaluate(() => {
      const shownAt = (window as unknown as { rowsShownAt?: number }).rowsShownAt;
      if (shownAt === undefined) throw new Error('the rows were never seen arriving');
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return entries
        .filter(
          (entry) => entry.startTime <= shownAt && /\.m?js$/.test(new URL(entry.name).pathname),
        )
        .map((entry) => ({
          name: new URL(entry.name).pathname.replace(/^\//, ''),
          transferred: entry.encodedBodySize,
        }));
    });
    const names = fetched.map((entry) => entry.name);
    // An empty list would report a perfect score for a page that cannot run.
    if (names.length === 0) throw new Error('the page fetched no script');
    const transferredBytes = fetched.reduce((sum, entry) => sum + entry.transferred, 0);
    const files = await Promise.all(
      names.map(async (name) => ({ name, gzipBytes: await gzipSize(name) })),
    );
    return {
      files,
      gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
      transferredBytes,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
