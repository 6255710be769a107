import { startPiSandbox, type RunningPiSandbox } from '@teltlk/pi-sandbox';
import { callApi } from '@teltlk/test-kit';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import {
  codeFor,
  launchBrowser,
  registerAccount,
  signIn,
  startServer,
  watchConsole,
  type ApiAccount,
  type RunningServer,
} from './harness.js';

/**
 * Sensitive actions in the browser. Two desktops signed in by QR code are on hold: one
 * (Simplified Chinese) changes the account's email, the other (Traditional Chinese)
 * withdraws Pi; each is asked to confirm it is the person first, and goes on once it has.
 * The phone (English) is told of both; the old address gets a link that puts it back and
 * signs every device out.
 */

const API_KEY = 'e2e-security-key';
const PI = 10_000_000;
const PAYMENT_PASSWORD = '246810';

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
      PI_HORIZON_URL: `${sandbox.url}/horizon`,
      PI_WALLET_SECRET: sandbox.emulator.appWallet.secret(),
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

const heading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true });

async function balance(token: string): Promise<number> {
  const wallet = await callApi<{ balances: { available: number }[] }>(
    server.baseUrl,
    'GET',
    '/wallet',
    { token },
  );
  return wallet.balances[0]!.available;
}

/**
 * An account with a bound Pi account, a wallet with a payment password and 3 Pi in it,
 * all through the API: a recharge Pi's way (an order, a payment the server approves, the
 * person's signature on the sandbox chain, the completion).
 */
async function accountWithPi(): Promise<ApiAccount> {
  const account = await registerAccount(server.baseUrl, 'Quinn');
  const pi = sandbox.emulator.signIn(`quinn_${Date.now().toString(36)}`);
  const asQuinn = { token: account.token };
  await callApi(server.baseUrl, 'POST', '/me/pi', {
    ...asQuinn,
    body: { accessToken: pi.accessToken },
  });
  await callApi(server.baseUrl, 'POST', '/wallet', asQuinn);
  await callApi(server.baseUrl, 'PUT', '/wallet/password', {
    ...asQuinn,
    body: { password: PAYMENT_PASSWORD },
  });
  const order = await callApi<{ payment: unknown }>(server.baseUrl, 'POST', '/wallet/recharge', {
    ...asQuinn,
    body: { amount: '3' },
  });
  const created = sandbox.emulator.handle(
    'POST',
    '/v2/payments/user_to_app',
    `Bearer ${pi.accessToken}`,
    { payment: order.payment },
  );
  const paymentId = (created.body as { identifier: string }).identifier;
  await callApi(server.baseUrl, 'POST', '/wallet/recharge/approve', {
    ...asQuinn,
    body: { paymentId },
  });
  const signed = sandbox.emulator.handle(
    'POST',
    `/sandbox/payments/${paymentId}/sign`,
    undefined,
    null,
  );
  const txid = (signed.body as { transaction: { txid: string } }).transaction.txid;
  await callApi(server.baseUrl, 'POST', '/wallet/recharge/complete', {
    ...asQuinn,
    body: { paymentId, txid },
  });
  expect(await balance(account.token)).toBe(3 * PI);
  return account;
}

/** A browser in an interface language, its console watched. */
async function browserIn(language: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  contexts.push(context);
  await context.addInitScript((code) => {
    if (!localStorage.getItem('currentLanguage')) localStorage.setItem('currentLanguage', code);
  }, language);
  const page = await context.newPage();
  consoleErrors.push(watchConsole(page));
  return page;
}

/** A desktop signed in by the phone: QR sign-in page, the code typed on the phone, approved. */
async function desktopByQr(
  mobile: Page,
  account: ApiAccount,
  language: string,
  home: string,
): Promise<Page> {
  const pc = await browserIn(language);
  await pc.goto(`${server.baseUrl}/#/pages/login/PCdevice`);
  const code = (await pc.getByTestId('device-login-code').textContent())!.trim();
  const number = (await pc.getByTestId('device-login-match').textContent())!.trim();
  await mobile.goto(`${server.baseUrl}/#/verification`);
  await mobile.getByRole('textbox', { name: 'Login code' }).fill(code);
  await mobile.getByRole('button', { name: 'Next' }).click();
  await mobile.getByRole('radio', { name: number, exact: true }).check();
  await mobile.getByLabel('Your account password', { exact: true }).fill(account.password);
  await mobile.getByRole('button', { name: 'Log in', exact: true }).click();
  await mobile.getByText('Approved: Teltlk is now signed in on that device.').waitFor();
  await mobile.getByRole('button', { name: 'Done' }).click();
  // Signed in, the app takes the account's interface language (English); this desktop's
  // person switches to theirs.
  await heading(pc, 'Chats').waitFor();
  await pc.evaluate((code) => localStorage.setItem('currentLanguage', code), language);
  await pc.reload();
  await heading(pc, home).waitFor();
  return pc;
}

/** Answers of the API to `method path`, in order, as the page saw them. */
function answersTo(page: Page, method: string, path: string): number[] {
  const statuses: number[] = [];
  page.on('response', (response: Response) => {
    const request = response.request();
    if (request.method() === method && new URL(response.url()).pathname === `/api/v1${path}`) {
      statuses.push(response.status());
    }
  });
  return statuses;
}

describe('sensitive actions on a device signed in by QR code', () => {
  it('asks the desktops on hold to confirm, tells the phone, and undoes the email change', async () => {
    const account = await accountWithPi();
    const oldEmail = account.email;
    const newEmail = `rae.${Date.now().toString(36)}@example.com`;
    const mobile = await signIn(browser, server.baseUrl, account).then(
      ({ context, page, errors }) => {
        contexts.push(context);
        consoleErrors.push(errors);
        return page;
      },
    );
    const hans = await desktopByQr(mobile, account, 'zh_CN', '消息');
    const hant = await desktopByQr(mobile, account, 'zh_TW', '訊息');

    // Traditional Chinese: a withdrawal on hold asks first; closing the sheet says nothing.
    const withdrawals = answersTo(hant, 'POST', '/wallet/withdraw');
    await hant.goto(`${server.baseUrl}/#/pages/user/walletPi`);
    await expect.poll(() => hant.getByTestId('pi-available').textContent()).toBe('3');
    await hant.getByRole('button', { name: '提領', exact: true }).click();
    const withdraw = hant.getByRole('dialog', { name: '提領' });
    await withdraw.getByRole('textbox', { name: '金額（Pi）' }).fill('1');
    await withdraw.getByRole('button', { name: '下一步' }).click();
    await withdraw.getByLabel('支付密碼，6 位數字').fill(PAYMENT_PASSWORD);
    const hantSheet = hant.getByRole('dialog', { name: '確認本人身分' });
    await hantSheet.getByText('此裝置透過掃碼登入還不到 24 小時', { exact: false }).waitFor();
    // The payment password does not lift a hold: the password and a code are offered.
    await hantSheet.getByRole('radio', { name: '密碼' }).waitFor();
    expect(await hantSheet.getByRole('radio', { name: '支付密碼' }).count()).toBe(0);
    expect(withdrawals).toEqual([403]);
    await hantSheet.getByRole('button', { name: '取消' }).click();
    await hantSheet.waitFor({ state: 'detached' });
    expect(await withdraw.getByRole('alert').count()).toBe(0);
    expect(withdrawals).toEqual([403]);

    // Again, confirmed with a code to the account's email this time: the withdrawal goes on.
    await withdraw.getByLabel('支付密碼，6 位數字').fill(PAYMENT_PASSWORD);
    await hantSheet.getByRole('radio', { name: '驗證碼' }).check();
    await hantSheet.getByRole('button', { name: '取得驗證碼' }).click();
    const stepUpCode = await codeFor(server.baseUrl, oldEmail, 'stepUp');
    await hantSheet.getByRole('textbox', { name: '驗證碼' }).fill(stepUpCode);
    await hantSheet.waitFor({ state: 'detached' });
    await expect.poll(() => withdrawals).toEqual([403, 403, 200]);
    await expect.poll(() => balance(account.token)).toBe(3 * PI - 1.01 * PI);

    // Simplified Chinese: the account page says this device is on hold.
    await hans.goto(`${server.baseUrl}/#/pages/user/accountSecurity`);
    await heading(hans, '账号与安全').waitFor();
    await hans.getByText('此设备通过扫码登录还不到 24 小时', { exact: false }).waitFor();
    // A new email: its code, then the step-up (on hold), with the password.
    const changes = answersTo(hans, 'POST', '/me/phone');
    await hans.getByRole('link', { name: '更换邮箱' }).click();
    await heading(hans, '更换邮箱').waitFor();
    await hans.getByRole('textbox', { name: '邮箱地址' }).fill(newEmail);
    await hans.getByRole('button', { name: '获取验证码' }).click();
    await hans
      .getByRole('textbox', { name: '验证码' })
      .fill(await codeFor(server.baseUrl, newEmail, 'register'));
    const hansSheet = hans.getByRole('dialog', { name: '确认本人身份' });
    await hansSheet.getByText('此设备通过扫码登录还不到 24 小时', { exact: false }).waitFor();
    await expectAccessible(hans, 'step-up sheet (zh_CN)');
    await hansSheet.getByLabel('你的账号密码', { exact: true }).fill('Wr0ngPassw0rd');
    await hansSheet.getByRole('button', { name: '确定' }).click();
    await hansSheet.getByText('您输入的密码有误', { exact: false }).waitFor();
    await hansSheet.getByLabel('你的账号密码', { exact: true }).fill(account.password);
    await hansSheet.getByRole('button', { name: '确定' }).click();
    await heading(hans, '账号与安全').waitFor();
    expect(changes).toEqual([403, 200]);
    // The phone (English) is told at once, for a while.
    const banner = mobile.getByRole('alert', { name: 'Security notice' });
    await banner.getByText('Email changed on Headless Chrome · Linux').waitFor();
    await banner.getByRole('link', { name: 'View' }).click();
    await heading(mobile, 'Security activity').waitFor();
    await hans.getByText(newEmail).waitFor();
    // Confirmed with the password, this device is no longer on hold.
    await expect.poll(() => hans.getByText('此设备通过扫码登录', { exact: false }).count()).toBe(0);

    // The old address is told, with a link that puts it back.
    const outbox = await callApi<{
      messages: { kind: string; destination: string; subject?: string; text?: string }[];
    }>(server.baseUrl, 'GET', '/dev/outbox');
    const notice = outbox.messages.find((m) => m.kind === 'notice' && m.destination === oldEmail);
    expect(notice?.text).toBeDefined();
    const link = /https?:\/\/\S+\/#\/security\/undo\?token=[\w-]+/.exec(notice!.text!)?.[0];
    expect(link).toBeDefined();

    // The phone lists what the desktops did.
    const phoneList = mobile.getByRole('list', { name: 'Security activity' });
    await phoneList.getByText('Email changed', { exact: true }).waitFor();
    await phoneList.getByText('Withdrawal', { exact: true }).waitFor();
    await phoneList.getByText('1 Pi', { exact: true }).waitFor();
    await expectAccessible(mobile, 'security activity (en_US)');

    // Each desktop lists the change too, in its language, its own entries marked.
    await hans.getByRole('link', { name: '安全记录' }).click();
    await heading(hans, '安全记录').waitFor();
    const hansChange = hans.getByRole('listitem', { name: '更换了邮箱' });
    await hansChange.getByText('本机').waitFor();
    await hansChange.getByText('r***@example.com').waitFor();
    await hant.goto(`${server.baseUrl}/#/pages/user/securityActivity`);
    await heading(hant, '安全紀錄').waitFor();
    await hant.getByRole('listitem', { name: '更換了電子郵件' }).waitFor();
    await hant.getByRole('listitem', { name: '提領' }).getByText('本機').waitFor();

    // Whoever reads the old address opens the link, signed out, and puts it back.
    const reader = await browserIn('en_US', { width: 390, height: 844 });
    await reader.goto(`${server.baseUrl}/${link!.slice(link!.indexOf('#'))}`);
    await heading(reader, 'Undo a change').waitFor();
    await reader
      .getByText(/the email address of your Teltlk account was changed to r\*\*\*@example\.com/)
      .waitFor();
    await expectAccessible(reader, 'address undo (en_US)');
    await reader.getByRole('button', { name: /^Put q\*\*\*@example\.com back$/ }).click();
    await reader.getByText(/is back on your account, and every device was signed out/).waitFor();

    // Every device was signed out; the old email signs in again.
    for (const page of [mobile, hans, hant]) {
      await page.getByRole('button', { name: /^(Sign in|登录|登入)$/ }).waitFor();
    }
    const again = await callApi<{ user: { email: string } }>(
      server.baseUrl,
      'POST',
      '/auth/login',
      {
        body: { account: oldEmail, password: account.password },
      },
    );
    expect(again.user.email).toBe(oldEmail);

    // The link is spent.
    await reader.reload();
    await reader.getByText('This link has expired or has already been used').waitFor();
  });
});
