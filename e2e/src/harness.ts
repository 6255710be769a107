import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const serverEntry = fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(
  baseUrl: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not become healthy:\n${output()}`);
}

/** Starts the built server on a free loopback port with its own empty data folder. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'teltlk-e2e-'));
  const port = await freePort();
  const child = spawn(process.execPath, [serverEntry], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Every person in these tests signs up and chats from one address (loopback), where
      // real people come from many: per-address limits are raised, not switched off.
      RATE_LIMIT_SCALE: '100',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, child, () => log);
  return {
    baseUrl,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
    ],
  });
}

/** A phone-sized browser context, as most people use the app. */
export function newPhoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
}

interface OutboxMessage {
  destination: string;
  purpose: string;
  code: string;
}

/** The newest verification code the server wrote to its dev outbox for a destination. */
export async function codeFor(
  baseUrl: string,
  destination: string,
  purpose: string,
): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/api/v1/dev/outbox`);
    const { messages } = (await response.json()) as { messages: OutboxMessage[] };
    const found = messages.find((m) => m.destination === destination && m.purpose === purpose);
    if (found) return found.code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${purpose} code for ${destination} in the outbox`);
}

export interface ApiAccount {
  id: string;
  token: string;
  teltlkId: string;
  nickname: string;
  email: string;
  password: string;
}

async function postJson(url: string, body?: unknown, token?: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Makes two accounts friends through the public API (a request and its acceptance). */
export async function befriend(baseUrl: string, from: ApiAccount, to: ApiAccount): Promise<void> {
  const request = (await postJson(
    `${baseUrl}/api/v1/friend-requests`,
    { userId: to.id },
    from.token,
  )) as { id: string };
  await postJson(`${baseUrl}/api/v1/friend-requests/${request.id}/accept`, undefined, to.token);
}

/** Registers an account through the public API, for tests whose subject is not sign-up. */
export async function registerAccount(
  baseUrl: string,
  nickname: string,
  password = 'Passw0rdE2E',
  motherTongue = 'en',
): Promise<ApiAccount> {
  const email = `${nickname.toLowerCase().replace(/\W/g, '') || 'person'}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  const destination = { channel: 'email', destination: email };
  await postJson(`${baseUrl}/api/v1/auth/codes`, { purpose: 'register', ...destination });
  const code = await codeFor(baseUrl, email, 'register');
  const { ticket } = (await postJson(`${baseUrl}/api/v1/auth/codes/verify`, {
    purpose: 'register',
    code,
    ...destination,
  })) as { ticket: string };
  const { user, token } = (await postJson(`${baseUrl}/api/v1/auth/register`, {
    ticket,
    nickname,
    password,
    country: 'GB',
    motherTongue,
    uiLanguage: 'en_US',
  })) as { token: string; user: { id: string; teltlkId: string } };
  return { id: user.id, token, teltlkId: user.teltlkId, nickname, email, password };
}

/**
 * Records what would mean the page is broken: uncaught errors, console errors, and any
 * 5xx answer. The browser's own network lines are left out: "Failed to load resource"
 * for 4xx answers that are part of normal flows (a wrong password), and "WebSocket
 * connection … failed" while a test has taken the network away.
 */
const BROWSER_NETWORK_LINES = /^(Failed to load resource|WebSocket connection to '.*' failed)/;

export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !BROWSER_NETWORK_LINES.test(message.text())) {
      errors.push(message.text());
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 500) errors.push(`${response.status()} ${response.url()}`);
  });
  return errors;
}

/** A phone-sized browser of one person, signed in through the sign-in page, in English. */
export async function signIn(
  browser: Browser,
  baseUrl: string,
  account: ApiAccount,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newPhoneContext(browser);
  await context.addInitScript(() => {
    if (!localStorage.getItem('currentLanguage')) localStorage.setItem('currentLanguage', 'en_US');
  });
  const page = await context.newPage();
  const errors = watchConsole(page);
  await page.goto(`${baseUrl}/`);
  await page.getByRole('textbox', { name: 'Account' }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Chats' }).waitFor();
  return { context, page, errors };
}

/** The interface texts the chat helpers go by, in one interface language. */
export interface ChatTexts {
  chats: string;
  sendMessage: string;
  message: string;
}

const ENGLISH_CHAT_TEXTS: ChatTexts = {
  chats: 'Chats',
  sendMessage: 'Send message',
  message: 'Message',
};

/** Switches a signed-in page to another interface language, as the settings would. */
export async function useInterface(page: Page, language: string, ui: ChatTexts): Promise<void> {
  await page.evaluate((code) => localStorage.setItem('currentLanguage', code), language);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: ui.chats }).waitFor();
}

/** Opens the chat with a friend from the contacts page, ready to type. */
export async function openChat(
  page: Page,
  name: RegExp,
  ui: ChatTexts = ENGLISH_CHAT_TEXTS,
): Promise<void> {
  await page.goto(`${new URL(page.url()).origin}/#/pages/contacts/contacts`);
  await page.getByRole('link', { name }).first().click();
  await page.getByRole('button', { name: ui.sendMessage }).click();
  await page.getByRole('textbox', { name: ui.message }).waitFor();
}

/** Sends a text from the open chat and waits for it to show. */
export async function send(
  page: Page,
  text: string,
  ui: ChatTexts = ENGLISH_CHAT_TEXTS,
): Promise<void> {
  const box = page.getByRole('textbox', { name: ui.message });
  await box.fill(text);
  await box.press('Enter');
  await page.getByText(text, { exact: true }).last().waitFor();
}

/** Creates a group of the owner's friends through the public API. */
export async function createGroup(
  baseUrl: string,
  owner: ApiAccount,
  name: string,
  members: ApiAccount[],
): Promise<void> {
  await postJson(
    `${baseUrl}/api/v1/groups`,
    { name, memberIds: members.map((member) => member.id) },
    owner.token,
  );
}
