import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  befriend as befriendAccounts,
  callApi,
  codeFor,
  inTempDataDir,
  registerAccount as registerThroughApi,
  spawnServer,
} from '@teltlk/test-kit';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type FrameLocator,
  type Page,
} from 'playwright-core';

const serverEntry = fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));
const operatorEntry = fileURLToPath(new URL('../../apps/server/dist/operator.js', import.meta.url));

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the built server on a free loopback port with its own empty data folder. */
export function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return inTempDataDir('teltlk-e2e-', (dataDir) =>
    spawnServer({
      args: [serverEntry],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // Every person in these tests signs up and chats from one address (loopback), where
        // real people come from many: per-address limits are raised, not switched off.
        RATE_LIMIT_SCALE: '100',
        ...env,
      },
    }),
  );
}

/** The operator's command line on a running server's database; answers what it printed. */
export async function operator(server: RunningServer, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [operatorEntry, ...args], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
  });
  return stdout;
}

/** A 16×16 gold square: a picture the operator mints a badge from. */
export const BADGE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAHklEQVR4nGM4uUj9PyWYYdSA/6NhoD4aBouGRRgAAMa6kR/fFaBmAAAAAElFTkSuQmCC',
  'base64',
);

/** An NFT minted by the operator (in a new collection) and given to the person at once. */
export async function mintNft(
  server: RunningServer,
  to: { teltlkId: string },
  item: { name: string; collection: string; description?: string },
): Promise<void> {
  const picture = join(server.dataDir, `badge-${Date.now().toString(36)}.png`);
  await writeFile(picture, BADGE_PNG);
  const collection = /collection (\w+)/.exec(
    await operator(server, 'nft:collection', '--name', item.collection),
  )![1]!;
  await operator(
    server,
    ...['nft:mint', '--collection', collection, '--name', item.name, '--image', picture],
    ...['--description', item.description ?? '', '--to', to.teltlkId],
  );
}

/** Chromium as the tests use it; `extraArgs` adds switches (a camera file, say). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
      // A fake microphone and camera (a tone, a test pattern), allowed without a prompt.
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      // Voices and videos play without a gesture having unlocked sound first.
      '--autoplay-policy=no-user-gesture-required',
      ...extraArgs,
    ],
  });
}

/** A phone-sized browser context, as most people use the app. */
export function newPhoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
}

export { codeFor };

export interface ApiAccount {
  id: string;
  token: string;
  teltlkId: string;
  nickname: string;
  email: string;
  password: string;
}

/** Makes two accounts friends through the public API (a request and its acceptance). */
export function befriend(baseUrl: string, from: ApiAccount, to: ApiAccount): Promise<void> {
  return befriendAccounts(
    baseUrl,
    { userId: from.id, token: from.token },
    { userId: to.id, token: to.token },
  );
}

/** Registers an account through the public API, for tests whose subject is not sign-up. */
export async function registerAccount(
  baseUrl: string,
  nickname: string,
  password = 'Passw0rdE2E',
  motherTongue = 'en',
): Promise<ApiAccount> {
  const account = await registerThroughApi(baseUrl, {
    nickname,
    password,
    motherTongue,
    uiLanguage: 'en_US',
  });
  return { ...account, id: account.userId };
}

/**
 * Records what would mean the page is broken: uncaught errors, console errors, and any
 * 5xx answer. The browser's own network lines are left out: "Failed to load resource"
 * for 4xx answers that are part of normal flows (a wrong password), and "WebSocket
 * connection … failed" while a test has taken the network away.
 */
const BROWSER_NETWORK_LINES = /^(Failed to load resource|WebSocket connection to '.*' failed)/;
/**
 * The browser's own notice when the app subscribes to Web Push in a private context, as
 * every test context is; people's browsers subscribe.
 */
const BROWSER_PRIVATE_PUSH = /^Chrome currently does not support the Push API in incognito mode/;

export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    const text = message.text();
    if (
      message.type() === 'error' &&
      !BROWSER_NETWORK_LINES.test(text) &&
      !BROWSER_PRIVATE_PUSH.test(text)
    ) {
      errors.push(text);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 500) errors.push(`${response.status()} ${response.url()}`);
  });
  return errors;
}

/**
 * Records the app's page chunks `page` asks for, its frames' included; answers which of
 * `pages` (module names, such as `invite-code-page`) have been asked for so far.
 */
export function watchPageChunks(page: Page, pages: readonly string[]): () => string[] {
  const requested = new Set<string>();
  page.on('request', (request) => {
    const chunk = /\/assets\/(.+)-[\w-]{8}\.js$/.exec(new URL(request.url()).pathname);
    if (chunk) requested.add(chunk[1]!);
  });
  return () => pages.filter((name) => requested.has(name));
}

/** The registration's pages after the code, which download while the person waits for it. */
export const LATER_REGISTRATION_PAGES = [
  'register-account-page',
  'select-region-page',
  'register-language-page',
  'invite-code-page',
];

/** What a person reads on the registration's region, mother tongue and invitation steps. */
export interface RegistrationStepTexts {
  next: string;
  region: string;
  motherTongue: string;
  invitation: string;
}

/** The country or region and the mother tongue to pick: searched for, or the first listed. */
export interface RegistrationChoices {
  region?: string;
  motherTongue?: string;
}

/**
 * From the account step's Next, already pressed, to the invitation step, in a page or in
 * the app's frame. Each step's page loads on its own, and the step before stays until it
 * has: each step is waited for by its heading, or a choice would land on the step before.
 */
export async function walkRegistrationSteps(
  app: Page | FrameLocator,
  text: RegistrationStepTexts,
  choices: RegistrationChoices = {},
): Promise<void> {
  const step = (name: string) => app.getByRole('heading', { level: 1, name, exact: true });
  const choose = async (searched: string | undefined) => {
    if (searched === undefined) return app.getByRole('radio').first().check();
    await app.getByRole('searchbox').fill(searched);
    await app.getByRole('radio', { name: new RegExp(searched) }).check();
  };
  await step(text.region).waitFor();
  await choose(choices.region);
  await app.getByRole('button', { name: text.next }).click();
  await step(text.motherTongue).waitFor();
  await choose(choices.motherTongue);
  await app.getByRole('button', { name: text.next }).click();
  await step(text.invitation).waitFor();
}

/** The texts of the registration form's email steps, in one interface language. */
export interface EmailRegistrationTexts extends RegistrationStepTexts {
  email: string;
  emailAddress: string;
  agree: string;
  getCode: string;
  code: string;
  nickname: string;
  password: string;
  confirmPassword: string;
}

/** Who registers: the address the code goes to, the name and the password. */
export interface EmailRegistrant {
  email: string;
  nickname: string;
  password: string;
}

/**
 * Registers by email from the registration form's first step to the invitation step: the
 * code asked for and typed in, the account step filled, the region and mother tongue
 * chosen. `whileCodeIsSent` runs once the code has gone and before it is typed.
 */
export async function registerByEmailForm(
  page: Page,
  baseUrl: string,
  text: EmailRegistrationTexts,
  who: EmailRegistrant,
  choices: RegistrationChoices = {},
  whileCodeIsSent: () => Promise<void> = async () => {},
): Promise<void> {
  await page.getByRole('radio', { name: text.email }).check();
  await page.getByRole('textbox', { name: text.emailAddress }).fill(who.email);
  await page.getByRole('checkbox', { name: text.agree }).check();
  await page.getByRole('button', { name: text.getCode }).click();
  const code = await codeFor(baseUrl, who.email, 'register');
  await whileCodeIsSent();
  await page.getByRole('textbox', { name: text.code }).fill(code);
  await page.getByRole('button', { name: text.next }).click();
  await page.getByRole('textbox', { name: text.nickname }).fill(who.nickname);
  await page.getByRole('textbox', { name: text.password, exact: true }).fill(who.password);
  await page.getByRole('textbox', { name: text.confirmPassword }).fill(who.password);
  await page.getByRole('button', { name: text.next }).click();
  await walkRegistrationSteps(page, text, choices);
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

/** Opens a conversation from the chat list, and waits for its messages' log. */
export async function openFromChats(page: Page, name: RegExp): Promise<void> {
  await page.goto(`${new URL(page.url()).origin}/#/pages/home/home`);
  await page.getByRole('link', { name }).first().click();
  await page.getByRole('log').waitFor();
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
  await callApi(baseUrl, 'POST', '/groups', {
    body: { name, memberIds: members.map((member) => member.id) },
    token: owner.token,
  });
}

/** A JPEG photo drawn by the browser: a colour field of this size. */
export async function photo(page: Page, width: number, height: number, colour: string) {
  const base64 = await page.evaluate(
    ({ width, height, colour }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d')!;
      context.fillStyle = colour;
      context.fillRect(0, 0, width, height);
      context.fillStyle = '#fff';
      context.fillRect(width / 4, height / 4, width / 2, height / 2);
      return canvas.toDataURL('image/jpeg', 0.9).split(',')[1]!;
    },
    { width, height, colour },
  );
  return { name: `${colour}.jpg`, mimeType: 'image/jpeg', buffer: Buffer.from(base64, 'base64') };
}
