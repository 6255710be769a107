import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import {
  codeFor,
  LATER_REGISTRATION_PAGES,
  launchBrowser,
  newPhoneContext,
  startServer,
  watchConsole,
  watchPageChunks,
  registerByEmailForm,
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
    region: 'Country or region',
    motherTongue: 'Mother tongue',
    invitation: 'Invitation code',
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
    createAccount: '注册新账号',
    email: '邮箱',
    emailAddress: '邮箱地址',
    agree: '我已阅读并同意《用户协议》和《隐私政策》',
    getCode: '获取验证码',
    code: '验证码',
    nickname: '昵称',
    password: '密码',
    confirmPassword: '确认密码',
    next: '下一步',
    region: '国家或地区',
    motherTongue: '母语',
    invitation: '邀请码',
    search: '搜索',
    skip: '跳过',
    finish: '完成',
    chats: '消息',
    me: '我的',
    settings: '设置',
    logout: '退出登录',
    confirm: '确定',
    account: '账号',
    signIn: '登录',
    forgot: '忘记密码？',
    newPassword: '新密码',
    confirmNewPassword: '确认新密码',
    resetPassword: '重置密码',
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
    region: '國家或地區',
    motherTongue: '母語',
    invitation: '邀請碼',
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
  const laterPages = watchPageChunks(page, LATER_REGISTRATION_PAGES);
  await page.getByRole('link', { name: text.createAccount }).click();
  await registerByEmailForm(
    page,
    server.baseUrl,
    text,
    { email, nickname, password: PASSWORD },
    { motherTongue: 'Deutsch' },
    // The later steps' pages download while the person waits for the code.
    () => expect.poll(laterPages).toEqual(LATER_REGISTRATION_PAGES),
  );
  await page.getByRole('button', { name: text.skip }).click();
  await expect.poll(() => heading(text.chats).count()).toBe(1);
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

  it('registers by email in Simplified Chinese, the language a first visit opens in', async () => {
    const cn = screens.zh_CN;
    await page.goto(`${server.baseUrl}/`);
    const email = uniqueEmail();
    await registerByEmail(cn, email, '小红');
    await signOut(cn);
    await signIn(cn, email, PASSWORD);
    await heading(cn.chats).waitFor();
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

  it('paints the whole sign-in page before its script, and keeps what is typed meanwhile', async () => {
    // The entry and then the page's script are held back, as on a slow network.
    const entry = await holdScript(/\/assets\/index-[\w-]+\.js$/);
    const view = await holdScript(/\/assets\/guest-[\w-]+\.js$/);
    const calls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/')) calls.push(path);
    });
    // The page's load waits for its entry script: only its start is awaited.
    await page.goto(`${server.baseUrl}/`, { waitUntil: 'commit' });
    const form = page.getByRole('form', { name: '登录' });
    const account = page.getByRole('textbox', { name: '账号' });
    const submit = page.getByRole('button', { name: '登录', exact: true });

    // Before the entry knows who is visiting: the header, a spinner, no form (someone
    // signed in is on their way to the app and must not meet a sign-in form).
    await page.getByRole('heading', { level: 1, name: '欢迎来到 Teltlk' }).waitFor();
    await page.getByRole('status', { name: '加载中' }).waitFor();
    expect(await form.isVisible()).toBe(false);

    // Signed out: the form shows at once, and takes what is typed; it cannot be sent yet.
    entry.release();
    await form.waitFor();
    await account.fill('pioneer@example.com');
    await page.getByLabel('密码', { exact: true }).fill('not sent yet');
    await page.getByLabel('密码', { exact: true }).press('Enter');
    expect(await submit.isDisabled()).toBe(true);
    expect(calls).toEqual([]);
    expect(await page.getByRole('status', { name: '加载中' }).isVisible()).toBe(false);

    // The page's script takes over the same elements: nothing typed is lost.
    view.release();
    await expect.poll(() => submit.isEnabled()).toBe(true);
    expect(await account.inputValue()).toBe('pioneer@example.com');
    expect(await page.getByLabel('密码', { exact: true }).inputValue()).toBe('not sent yet');
    expect(
      await page
        .getByLabel('密码', { exact: true })
        .evaluate((input) => input === document.activeElement),
    ).toBe(true);
    expect(await page.getByRole('combobox', { name: /语言/ }).isEnabled()).toBe(true);
    // And answers: the account that does not exist is refused in place.
    await submit.click();
    await page.getByRole('alert').first().waitFor();
    expect(calls).toEqual(['/api/v1/auth/login']);
  });

  it('runs a bar along the top while the next page downloads', async () => {
    await page.goto(`${server.baseUrl}/#/pages/register/register`);
    await heading('注册账号').waitFor();
    const bar = page.getByRole('progressbar', { name: '加载中' });
    expect(await bar.count()).toBe(0);
    const legal = await holdScript(/\/assets\/legal-page-[\w-]+\.js$/);
    await page.getByRole('link', { name: '用户协议' }).first().click();
    // The page before stays meanwhile, with the bar over it.
    await bar.waitFor();
    expect(await heading('注册账号').isVisible()).toBe(true);
    legal.release();
    await heading('用户协议').waitFor();
    await expect.poll(() => bar.count()).toBe(0);
  });

  it('puts signing in with Pi first in the Pi Browser, as its main way in', async () => {
    const pi = await browser.newContext({
      viewport: { width: 390, height: 844 },
      userAgent:
        'Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 (KHTML, like Gecko) ' +
        'Chrome/120.0 Mobile Safari/537.36 PiBrowser/2.3',
    });
    try {
      const piPage = await pi.newPage();
      const ways = piPage.locator('.tt-auth > :not(.tt-brand, nav)');
      const order = async () => ({
        first: await ways.first().textContent(),
        primary: (await ways.first().getAttribute('class'))?.includes('tt-button-primary'),
        second: await ways.nth(1).getAttribute('data-login'),
      });
      const inPiOrder = { first: '使用 Pi 登录', primary: true, second: 'form' };
      // In that order from the moment the form shows, before the page's script: nothing moves.
      const view = await holdScript(/\/assets\/guest-[\w-]+\.js$/, piPage);
      await piPage.goto(`${server.baseUrl}/`, { waitUntil: 'commit' });
      // The form shows once the entry lets it go (before that its stylesheet holds it back;
      // a look at the page before the stylesheet has come would find it laid out unstyled).
      await piPage.locator('main.tt-page:not([data-signin])').waitFor({ state: 'attached' });
      await piPage.getByRole('form', { name: '登录' }).waitFor();
      expect(await order()).toEqual(inPiOrder);
      view.release();
      await expect
        .poll(() => piPage.getByRole('button', { name: '登录', exact: true }).isEnabled())
        .toBe(true);
      expect(await order()).toEqual(inPiOrder);
    } finally {
      await pi.close();
    }
  });

  it('follows a link of the sign-in page taken before its script had started', async () => {
    const view = await holdScript(/\/assets\/guest-[\w-]+\.js$/);
    await page.goto(`${server.baseUrl}/`, { waitUntil: 'commit' });
    await page.getByRole('link', { name: '注册新账号' }).click();
    expect(new URL(page.url()).hash).toBe('#/pages/register/register');
    view.release();
    await heading('注册账号').waitFor();
  });
});

/** Holds back the scripts whose address matches until `release()`, then serves them. */
async function holdScript(address: RegExp, on: Page = page): Promise<{ release(): void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await on.route(address, async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}
