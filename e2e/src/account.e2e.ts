import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import {
  codeFor,
  launchBrowser,
  newPhoneContext,
  startServer,
  watchConsole,
  type RunningServer,
} from './harness.js';

/**
 * A person's first visit, in the browser against the built app: register by email with
 * the code from the dev outbox, edit the profile, switch the interface language, sign
 * out and in again, reset a forgotten password. Elements are found by role and name.
 */

const PASSWORD = 'Passw0rdE2E';

/** What a person reads on the screens this suite walks through, per interface language. */
const screens = {
  en_US: {
    option: 'English',
    createAccount: 'Create an account',
    email: 'Email',
    emailAddress: 'Email address',
    agree: 'I agree to the User Agreement and Privacy Policy',
    getCode: 'Get verification code',
    code: 'Verification code',
    nickname: 'Nickname',
    password: 'Password',
    confirmPassword: 'Confirm password',
    next: 'Next',
    search: 'Search',
    skip: 'Skip',
    finish: 'Finish',
    chats: 'Chats',
    me: 'Me',
    settings: 'Settings',
    logout: 'Log out',
    confirm: 'Confirm',
    account: 'Account',
    signIn: 'Sign in',
    forgot: 'Forgot password?',
    newPassword: 'New password',
    confirmNewPassword: 'Confirm new password',
    resetPassword: 'Reset password',
  },
  zh_CN: {
    option: '简体中文',
    chats: '消息',
    me: '我的',
    settings: '设置',
  },
  zh_TW: {
    option: '繁體中文',
    createAccount: '註冊新帳號',
    email: '電子郵件',
    emailAddress: '電子郵件地址',
    agree: '我已閱讀並同意《使用者協議》和《隱私權政策》',
    getCode: '取得驗證碼',
    code: '驗證碼',
    nickname: '暱稱',
    password: '密碼',
    confirmPassword: '確認密碼',
    next: '下一步',
    search: '搜尋',
    skip: '略過',
    finish: '完成',
    chats: '訊息',
    me: '我的',
    settings: '設定',
    logout: '登出',
    confirm: '確定',
    account: '帳號',
    signIn: '登入',
    forgot: '忘記密碼？',
    newPassword: '新密碼',
    confirmNewPassword: '確認新密碼',
    resetPassword: '重設密碼',
  },
} as const;

type Screens = { [K in keyof (typeof screens)['en_US']]: string };

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let consoleErrors: string[];
let emailCounter = 0;

function uniqueEmail(): string {
  emailCounter += 1;
  return `pioneer${emailCounter}.${Date.now().toString(36)}@example.com`;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

beforeEach(async () => {
  context = await newPhoneContext(browser);
  page = await context.newPage();
  consoleErrors = watchConsole(page);
});

afterEach(async () => {
  await context.close();
  expect(consoleErrors).toEqual([]);
});

function heading(name: string) {
  return page.getByRole('heading', { level: 1, name, exact: true });
}

/** Picks the interface language on the sign-in page, before any account exists. */
async function chooseLanguageOnLoginPage(option: string): Promise<void> {
  await page.goto(`${server.baseUrl}/`);
  await page.getByRole('combobox', { name: /Language/ }).selectOption({ label: option });
}

/** The whole registration through the UI; ends on the chat list. */
async function registerByEmail(text: Screens, email: string, nickname: string): Promise<void> {
  await page.getByRole('link', { name: text.createAccount }).click();
  await page.getByRole('radio', { name: text.email }).check();
  await page.getByRole('textbox', { name: text.emailAddress }).fill(email);
  await page.getByRole('checkbox', { name: text.agree }).check();
  await page.getByRole('button', { name: text.getCode }).click();

  const code = await codeFor(server.baseUrl, email, 'register');
  await page.getByRole('textbox', { name: text.code }).fill(code);
  await page.getByRole('button', { name: text.next }).click();

  await page.getByRole('textbox', { name: text.nickname }).fill(nickname);
  await page.getByRole('textbox', { name: text.password, exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: text.confirmPassword }).fill(PASSWORD);
  await page.getByRole('button', { name: text.next }).click();

  await page.getByRole('radio').first().check();
  await page.getByRole('button', { name: text.next }).click();

  await page.getByRole('searchbox', { name: text.search }).fill('Deutsch');
  await page.getByRole('radio', { name: /Deutsch/ }).check();
  await page.getByRole('button', { name: text.next }).click();

  await page.getByRole('button', { name: text.skip }).click();
  await expect.poll(() => heading(text.chats).count(), { timeout: 15_000 }).toBe(1);
}

async function openSettings(text: { me: string; settings: string }): Promise<void> {
  await page.getByRole('link', { name: text.me, exact: true }).click();
  await page.getByRole('link', { name: text.settings, exact: true }).click();
  await heading(text.settings).waitFor();
}

async function signOut(text: Screens): Promise<void> {
  await openSettings(text);
  await page.getByRole('button', { name: text.logout }).click();
  await page.getByRole('dialog').getByRole('button', { name: text.confirm }).click();
  await page.getByRole('button', { name: text.signIn, exact: true }).waitFor();
}

async function signIn(text: Screens, account: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: text.account }).fill(account);
  await page.getByRole('textbox', { name: text.password, exact: true }).fill(password);
  // Enter submits, as on any form.
  await page.getByRole('textbox', { name: text.password, exact: true }).press('Enter');
}

describe('accounts in the browser', () => {
  it('registers by email, edits the profile, switches languages, signs out and in', async () => {
    const en = screens.en_US;
    await chooseLanguageOnLoginPage(en.option);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Welcome to Teltlk' }).count())
      .toBe(1);

    const email = uniqueEmail();
    await registerByEmail(en, email, 'Ada');

    // Profile: nickname with the confirm button in the header.
    await page.getByRole('link', { name: en.me, exact: true }).click();
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('link', { name: /^Nickname/ }).click();
    await heading('Nickname').waitFor();
    await page.getByRole('textbox', { name: 'Nickname' }).fill('Ada Lovelace');
    await page.getByRole('banner').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('link', { name: 'Nickname Ada Lovelace' }).waitFor();

    // Country and mother tongue: picked from a list, saved by the header's confirm button.
    await page.getByRole('link', { name: /^Country or region/ }).click();
    await page.getByRole('searchbox').fill('Fran');
    await page.getByRole('radio', { name: 'France' }).check();
    await page.getByRole('banner').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('link', { name: 'Country or region France' }).waitFor();
    await page.getByRole('link', { name: /^Mother tongue/ }).click();
    await page.getByRole('searchbox').fill('Fran');
    await page.getByRole('radio', { name: /^Français/ }).check();
    await page.getByRole('banner').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('link', { name: 'Mother tongue Français (French)' }).waitFor();

    // Teltlk ID: once, then the monthly limit.
    const teltlkId = `ada${Date.now().toString(36).slice(-8)}`;
    await page.getByRole('button', { name: /^Teltlk ID/ }).click();
    await page.getByRole('dialog').getByRole('textbox').fill(teltlkId);
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: `Teltlk ID ${teltlkId}` }).waitFor();
    await page.getByRole('button', { name: /^Teltlk ID/ }).click();
    await page.getByText(/^TeltlkID can only be modified once a month/).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('button', { name: 'Back' }).click();

    // Interface language: to Simplified Chinese, kept across a reload, and back.
    await page.getByRole('link', { name: en.settings, exact: true }).click();
    // The radio follows the language once its catalog has loaded, so click and wait.
    await page.getByRole('radio', { name: screens.zh_CN.option }).click();
    await heading(screens.zh_CN.settings).waitFor();
    await page.reload();
    await heading(screens.zh_CN.settings).waitFor();
    await page.goto(`${server.baseUrl}/#/`);
    await heading(screens.zh_CN.chats).waitFor();
    await expect
      .poll(() => page.getByRole('link', { name: screens.zh_CN.me, exact: true }).count())
      .toBe(1);
    await openSettings(screens.zh_CN);
    await page.getByRole('radio', { name: en.option }).click();
    await heading(en.settings).waitFor();

    // Sign out; a wrong password gets the spec's message; the right one signs in.
    await page.getByRole('button', { name: 'Back' }).click();
    await signOut(en);
    await signIn(en, teltlkId, 'Wr0ngPassword');
    await page.getByText('The password you entered is incorrect, Please re-enter it').waitFor();
    await signIn(en, teltlkId.toUpperCase(), PASSWORD);
    await heading(en.chats).waitFor();
    await page.getByRole('link', { name: en.me, exact: true }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
  });

  it('registers and resets a forgotten password in Traditional Chinese', async () => {
    const tw = screens.zh_TW;
    await chooseLanguageOnLoginPage(tw.option);
    await page.getByRole('heading', { name: '歡迎來到 Teltlk' }).waitFor();

    const email = uniqueEmail();
    await registerByEmail(tw, email, '小明');
    await signOut(tw);

    await page.getByRole('link', { name: tw.forgot }).click();
    await page.getByRole('radio', { name: tw.email }).check();
    await page.getByRole('textbox', { name: tw.emailAddress }).fill(email);
    await page.getByRole('button', { name: tw.getCode }).click();
    const code = await codeFor(server.baseUrl, email, 'reset');
    await page.getByRole('textbox', { name: tw.code }).fill(code);
    const newPassword = 'N3wPassword';
    await page.getByRole('textbox', { name: tw.newPassword, exact: true }).fill(newPassword);
    await page.getByRole('textbox', { name: tw.confirmNewPassword }).fill(newPassword);
    await page.getByRole('button', { name: tw.resetPassword }).click();

    await page.getByRole('button', { name: tw.signIn, exact: true }).waitFor();
    await signIn(tw, email, PASSWORD);
    await page.getByText('您輸入的密碼有誤，請重新輸入').waitFor();
    await signIn(tw, email, newPassword);
    await heading(tw.chats).waitFor();

    // And once more with a sign-in code instead of the password.
    await signOut(tw);
    await page.getByRole('link', { name: '驗證碼登入' }).click();
    await page.getByRole('radio', { name: tw.email }).check();
    await page.getByRole('textbox', { name: tw.emailAddress }).fill(email);
    await page.getByRole('button', { name: tw.getCode }).click();
    const loginCode = await codeFor(server.baseUrl, email, 'login');
    // Six digits submit by themselves.
    await page.getByRole('textbox', { name: tw.code }).fill(loginCode);
    await heading(tw.chats).waitFor();
  });

  it('opens on the sign-in page in Simplified Chinese by default, and the shell on wide screens', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('heading', { name: '欢迎来到 Teltlk' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    const width = await page
      .locator('main')
      .first()
      .evaluate((main) => main.getBoundingClientRect().width);
    // Capped and centred, not stretched across a desktop screen.
    expect(width).toBeLessThan(1280);
  });

  it('shows the sign-in page without the app, and loads the app for another page', async () => {
    const scripts: string[] = [];
    const fetched: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      fetched.push(path);
      if (request.resourceType() === 'script') scripts.push(path);
    });
    await page.goto(`${server.baseUrl}/`);
    const form = page.getByRole('form', { name: '登录' });
    await form.waitFor();
    // The form answers before the app is there: an empty submit is refused in place.
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('alert').first().waitFor();
    expect(await page.getByRole('textbox', { name: '账号' }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    // Switching the language redraws the page in it, still without the app.
    await page.getByRole('combobox', { name: /语言/ }).selectOption({ label: 'English' });
    await page.getByRole('heading', { name: 'Welcome to Teltlk' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    const app = (path: string) => /\/assets\/main-[\w-]+\.js$/.test(path);
    expect(scripts.filter(app)).toEqual([]);
    // Starting on the form fetched the app's files into the cache, unrun.
    expect(fetched.filter(app)).toHaveLength(1);

    // A link to another page brings the app, which shows that page in the chosen language.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create account' }).waitFor();
    expect(scripts.filter(app)).toHaveLength(1);
    expect(new URL(page.url()).hash).toBe('#/pages/register/register');
  });
});
