import { startPiSandbox, type RunningPiSandbox } from '@teltlk/pi-sandbox';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import {
  LATER_REGISTRATION_PAGES,
  launchBrowser,
  newPhoneContext,
  registerAccount,
  startServer,
  watchConsole,
  watchPageChunks,
  walkRegistrationSteps,
  type RegistrationStepTexts,
  type RunningServer,
} from './harness.js';
import type { Browser } from 'playwright-core';

/**
 * Pi sign-in in the browser, through the local Pi sandbox: its page frames the built app
 * and plays the Pi Browser (the consent dialog), its emulator plays Pi's Platform API.
 */

const API_KEY = 'e2e-sandbox-key';

let sandbox: RunningPiSandbox;
let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const consoleErrors: string[][] = [];

beforeAll(async () => {
  sandbox = await startPiSandbox({ apiKey: API_KEY });
  [server, browser] = await Promise.all([
    startServer({
      PI_API_URL: `${sandbox.url}/v2`,
      PI_API_KEY: API_KEY,
      PI_SDK_URL: `${sandbox.url}/pi-sdk.js`,
      PI_SANDBOX: 'true',
      PI_SANDBOX_HOST_URL: `${sandbox.url}/`,
    }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
  await sandbox?.close();
});

afterEach(() => {
  expect(consoleErrors.flat()).toEqual([]);
});

async function newPage(): Promise<Page> {
  const context = await newPhoneContext(browser);
  contexts.push(context);
  const page = await context.newPage();
  consoleErrors.push(watchConsole(page));
  return page;
}

/** The sandbox's page, signed in to Pi as `user`, framing the app. */
async function inPiBrowser(
  user: string,
  language = 'English',
): Promise<{ page: Page; app: FrameLocator }> {
  const page = await newPage();
  const appUrl = encodeURIComponent(`${server.baseUrl}/`);
  await page.goto(`${sandbox.url}/?app=${appUrl}&user=${user}`);
  const app = page.frameLocator('#app');
  await app.getByRole('combobox', { name: /Language/ }).selectOption({ label: language });
  return { page, app };
}

/** The app's frame inside the sandbox page, for axe. */
function appFrame(page: Page) {
  const frame = page.frames().find((f) => f.url().startsWith(server.baseUrl));
  if (!frame) throw new Error('the app is not framed');
  return frame;
}

const heading = (app: FrameLocator, name: string) =>
  app.getByRole('heading', { level: 1, name, exact: true });

/** Signing in with Pi from the sign-in page; the consent dialog when Pi shows one. */
async function signInWithPi(page: Page, app: FrameLocator, consent: boolean): Promise<void> {
  await app.getByRole('link', { name: 'Sign in with Pi' }).click();
  if (consent) {
    const dialog = page.getByRole('dialog', { name: 'Share your Pi account with this app?' });
    // The SDK loads from the sandbox first: Pi's consent can take a moment to come up.
    await dialog.waitFor();
    await expect.poll(() => dialog.getByText('username, payments').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Allow' }).click();
  }
}

/** What a person reads on the registration steps after the account page. */
interface StepTexts extends RegistrationStepTexts {
  skip: string;
  chats: string;
}

const englishSteps: StepTexts = {
  next: 'Next',
  region: 'Country or region',
  motherTongue: 'Mother tongue',
  invitation: 'Invitation code',
  skip: 'Skip',
  chats: 'Chats',
};

/** From the account page to the chat list: any region, German, no invitation code. */
async function finishRegistration(app: FrameLocator, text: StepTexts): Promise<void> {
  await app.getByRole('button', { name: text.next }).click();
  await walkRegistrationSteps(app, text, { motherTongue: 'Deutsch' });
  await app.getByRole('button', { name: text.skip }).click();
  await expect.poll(() => heading(app, text.chats).count()).toBe(1);
}

describe('Pi identity in the browser', () => {
  it('makes an account with Pi, signs out, and signs in with Pi again', async () => {
    const user = `pioneer_${Date.now().toString(36)}`;
    const { page, app } = await inPiBrowser(user);
    // The code page too, which the registration through Pi never shows.
    const laterPages = watchPageChunks(page, [...LATER_REGISTRATION_PAGES, 'send-code-page']);
    // Refusing Pi's consent first: the app says so and offers to try again.
    await app.getByRole('link', { name: 'Sign in with Pi' }).click();
    const consent = page.getByRole('dialog', { name: 'Share your Pi account with this app?' });
    await consent.getByRole('button', { name: 'Cancel' }).click();
    await app.getByRole('alert').getByText('Failed to obtain piID, Please try again').waitFor();
    await app.getByRole('button', { name: 'Try again' }).click();
    await consent.getByRole('button', { name: 'Allow' }).click();

    await heading(app, 'Welcome, pioneer').waitFor();
    await expect.poll(() => app.getByText(user).count()).toBeGreaterThan(0);
    await expectAccessible(appFrame(page), 'bindTips');
    await app.getByRole('button', { name: 'Create a new account' }).click();

    // The nickname comes from the Pi username; no password is asked for.
    const nickname = app.getByRole('textbox', { name: 'Nickname' });
    await expect.poll(() => nickname.inputValue()).toBe(user);
    expect(await app.getByLabel('Password', { exact: true }).count()).toBe(0);
    // The later steps' pages download from the first step on; the code page does not.
    await expect.poll(laterPages).toEqual(LATER_REGISTRATION_PAGES);
    await finishRegistration(app, englishSteps);

    // The profile names the Pi account.
    await app.getByRole('link', { name: 'Me', exact: true }).click();
    await app.getByRole('link', { name: 'Profile' }).click();
    await expect.poll(() => app.getByText(user, { exact: true }).count()).toBeGreaterThan(0);

    // Signed out and back in: Pi does not ask again, and the account is the same.
    await app.getByRole('button', { name: 'Back' }).click();
    await app.getByRole('link', { name: 'Settings', exact: true }).click();
    await app.getByRole('button', { name: 'Log out' }).click();
    await app.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await app.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await signInWithPi(page, app, false);
    await expect.poll(() => heading(app, 'Chats').count()).toBe(1);
    const accounts = [...sandbox.emulator.users.values()].filter((u) => u.username === user);
    expect(accounts).toHaveLength(1);
  });

  /** What a person reads on the Pi screens, per interface language. */
  const chinese = [
    {
      ui: 'zh_CN',
      option: '简体中文',
      withPi: '使用 Pi 登录',
      welcome: '欢迎你，先锋',
      create: '创建新账号',
      next: '下一步',
      region: '国家或地区',
      motherTongue: '母语',
      invitation: '邀请码',
      skip: '跳过',
      chats: '消息',
      piOnly: '该功能目前仅对PI用户开放',
    },
    {
      ui: 'zh_TW',
      option: '繁體中文',
      withPi: '使用 Pi 登入',
      welcome: '歡迎你，先鋒',
      create: '建立新帳號',
      next: '下一步',
      region: '國家或地區',
      motherTongue: '母語',
      invitation: '邀請碼',
      skip: '略過',
      chats: '訊息',
      piOnly: '此功能目前僅對PI用戶開放',
    },
  ];

  it.each(chinese)('makes an account with Pi in the $ui interface', async (text) => {
    const user = `pioneer_${text.ui}_${Date.now().toString(36)}`;
    const { page, app } = await inPiBrowser(user, text.option);
    await app.getByRole('link', { name: text.withPi }).click();
    const dialog = page.getByRole('dialog', { name: 'Share your Pi account with this app?' });
    await dialog.getByRole('button', { name: 'Allow' }).click();
    await heading(app, text.welcome).waitFor();
    await expectAccessible(appFrame(page), `bindTips in ${text.ui}`);
    await app.getByRole('button', { name: text.create }).click();
    await finishRegistration(app, text);

    // Outside the Pi Browser, the same page says Pi sign-in is for Pi users.
    const other = await newPage();
    await other.goto(`${server.baseUrl}/`);
    await other.getByRole('combobox', { name: /Language/ }).selectOption({ label: text.option });
    await other.goto(`${server.baseUrl}/#/pages/login/PIlogin`);
    await other.getByRole('alert').getByText(text.piOnly).waitFor();
  });

  it('binds Pi to an account that signs in with a password', async () => {
    const existing = await registerAccount(server.baseUrl, 'Bea');
    const user = `binder_${Date.now().toString(36)}`;
    const { page, app } = await inPiBrowser(user);
    await signInWithPi(page, app, true);
    await app.getByRole('button', { name: 'Bind my Teltlk account' }).click();
    await heading(app, 'Bind your Teltlk account').waitFor();
    await expectAccessible(appFrame(page), 'bindAccount');
    await app.getByRole('textbox', { name: 'Account' }).fill(existing.email);
    await app.getByLabel('Password', { exact: true }).fill('Wr0ngPassword');
    await app.getByRole('button', { name: 'Bind and sign in' }).click();
    await app
      .getByText('The password you entered is incorrect, Please re-enter it')
      .first()
      .waitFor();
    await app.getByLabel('Password', { exact: true }).fill(existing.password);
    await app.getByRole('button', { name: 'Bind and sign in' }).click();
    await expect.poll(() => heading(app, 'Chats').count()).toBe(1);

    const me = await fetch(`${server.baseUrl}/api/v1/me`, {
      headers: { Authorization: `Bearer ${existing.token}` },
    });
    expect(await me.json()).toMatchObject({ id: existing.id, piUsername: user });
  });

  it('boosts mining with a rewarded ad that Pi confirms was watched', async () => {
    const existing = await registerAccount(server.baseUrl, 'Cai');
    const { page, app } = await inPiBrowser(`miner_${Date.now().toString(36)}`);
    await signInWithPi(page, app, true);
    await app.getByRole('button', { name: 'Bind my Teltlk account' }).click();
    await app.getByRole('textbox', { name: 'Account' }).fill(existing.email);
    await app.getByLabel('Password', { exact: true }).fill(existing.password);
    await app.getByRole('button', { name: 'Bind and sign in' }).click();
    await expect.poll(() => heading(app, 'Chats').count()).toBe(1);

    await app.getByRole('link', { name: 'Discover', exact: true }).click();
    await app.getByRole('button', { name: 'Check in' }).click();
    const watch = app.getByRole('button', { name: /^Watch an ad/ });
    // Closed before the end: no booster, and the offer stays.
    await watch.click();
    const ad = page.getByRole('dialog', { name: 'Advertisement (rewarded)' });
    await ad.getByRole('button', { name: 'Close' }).click();
    await app.getByText('The ad was not watched to the end').waitFor();
    // Watched to the end: the server asks Pi, and the booster shows in the rate.
    await watch.click();
    await ad.getByRole('button', { name: 'Watch to the end' }).click();
    await app.getByText('Ad booster', { exact: true }).waitFor();
    await expect.poll(() => watch.count()).toBe(0);
    await expect
      .poll(() => app.locator('.tt-mining-rate-total strong').textContent())
      .toBe('0.35 / h');
  });

  it('tells a browser that is not Pi’s that Pi sign-in is for Pi users', async () => {
    const page = await newPage();
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('combobox', { name: /Language/ }).selectOption({ label: 'English' });
    await page.goto(`${server.baseUrl}/#/pages/login/PIlogin`);
    await page
      .getByRole('alert')
      .getByText('This feature is currently only available to PI users')
      .waitFor();
    await expectAccessible(page, 'PIlogin outside the Pi Browser');
    await page.getByRole('link', { name: 'Sign in with password' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  });
});
