import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  befriend,
  launchBrowser,
  newPhoneContext,
  registerAccount,
  signIn,
  startServer,
  watchConsole,
  type ApiAccount,
  type RunningServer,
} from './harness.js';

/** A server and a browser shared by a file's tests, and the people signed in to it. */
export interface BrowserSuite {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** A phone-sized browser of one person, signed in; its console is watched. */
  signedIn(account: ApiAccount): Promise<Page>;
  /**
   * A phone-sized browser nobody is signed in to, in the interface `language` if given
   * (else the one the app starts in), at the app's first page; its console is watched.
   */
  guest(language?: string): Promise<Page>;
  /** New accounts of these names, strangers to each other, none signed in yet. */
  strangers<const N extends readonly string[]>(
    ...names: N
  ): Promise<{ [K in keyof N]: ApiAccount }>;
  /** New accounts of these names, all friends of the first, none signed in yet. */
  accounts<const N extends readonly string[]>(...names: N): Promise<{ [K in keyof N]: ApiAccount }>;
  /** New accounts of these names, all friends of the first: each one's browser, signed in. */
  friends<const N extends readonly string[]>(...names: N): Promise<{ [K in keyof N]: Page }>;
}

/**
 * Starts the built server (with `env`) and the browser before a file's tests, and stops
 * them after; the file fails if any page logged an error.
 */
export function browserSuite(env: Record<string, string> = {}): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const consoleErrors: string[][] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    expect(consoleErrors.flat()).toEqual([]);
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite has not started');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
    async signedIn(account) {
      const { context, page, errors } = await signIn(
        started(browser),
        started(server).baseUrl,
        account,
      );
      contexts.push(context);
      consoleErrors.push(errors);
      return page;
    },
    async guest(language) {
      const context = await newPhoneContext(started(browser));
      contexts.push(context);
      if (language !== undefined) {
        await context.addInitScript(
          (code) => localStorage.setItem('currentLanguage', code),
          language,
        );
      }
      const page = await context.newPage();
      consoleErrors.push(watchConsole(page));
      await page.goto(`${started(server).baseUrl}/`);
      return page;
    },
    async strangers(...names) {
      const { baseUrl } = started(server);
      const accounts = await Promise.all(names.map((name) => registerAccount(baseUrl, name)));
      return accounts as { [K in keyof typeof names]: ApiAccount };
    },
    async accounts(...names) {
      const { baseUrl } = started(server);
      const accounts: readonly ApiAccount[] = await this.strangers(...names);
      const [first, ...others] = accounts;
      for (const other of others) await befriend(baseUrl, first!, other);
      return accounts as { [K in keyof typeof names]: ApiAccount };
    },
    async friends(...names) {
      const accounts: readonly ApiAccount[] = await this.accounts(...names);
      const pages: Page[] = [];
      for (const account of accounts) pages.push(await this.signedIn(account));
      return pages as { [K in keyof typeof names]: Page };
    },
  };
}
