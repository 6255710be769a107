import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '@teltlk/test-kit';
import { expectAccessible } from './axe.js';
import {
  createGroup,
  mintNft,
  openChat,
  openFromChats,
  send,
  useInterface,
  type ApiAccount,
  type ChatTexts,
} from './harness.js';
import { browserSuite } from './suite.js';

/**
 * axe-core on every main screen, in each interface language: sign-in, registration, the
 * chat list, a chat with messages both ways, group settings, contacts, settings, account
 * security and its activity. Any serious or critical violation (contrast, names, labels,
 * landmarks, language) fails.
 */

const suite = browserSuite();
let ada: ApiAccount;
let adaPage: Page;

/** The headings and names each screen is recognised by, per interface language. */
interface Screens extends ChatTexts {
  welcome: string;
  createAccount: string;
  qrLogin: string;
  messageSettings: string;
  verification: string;
  appVersion: string;
  groupSettings: string;
  contacts: string;
  settings: string;
  wallet: string;
  accountSecurity: string;
  securityActivity: string;
}

const LANGUAGES: [string, Screens][] = [
  [
    'zh_CN',
    {
      welcome: '欢迎来到 Teltlk',
      createAccount: '注册账号',
      qrLogin: '扫码登录',
      messageSettings: '新消息通知',
      verification: '验证码登录其他设备',
      appVersion: '版本更新',
      chats: '消息',
      sendMessage: '发消息',
      message: '消息',
      groupSettings: '群设置',
      contacts: '通讯录',
      settings: '设置',
      wallet: '钱包',
      accountSecurity: '账号与安全',
      securityActivity: '安全记录',
    },
  ],
  [
    'zh_TW',
    {
      welcome: '歡迎來到 Teltlk',
      createAccount: '註冊帳號',
      qrLogin: '掃碼登入',
      messageSettings: '新訊息通知',
      verification: '驗證碼登入其他裝置',
      appVersion: '版本更新',
      chats: '訊息',
      sendMessage: '傳送訊息',
      message: '訊息',
      groupSettings: '群組設定',
      contacts: '通訊錄',
      settings: '設定',
      wallet: '錢包',
      accountSecurity: '帳號與安全',
      securityActivity: '安全紀錄',
    },
  ],
  [
    'en_US',
    {
      welcome: 'Welcome to Teltlk',
      createAccount: 'Create account',
      qrLogin: 'Sign in with a QR code',
      messageSettings: 'Message notifications',
      verification: 'Log in with a code',
      appVersion: 'App version',
      chats: 'Chats',
      sendMessage: 'Send message',
      message: 'Message',
      groupSettings: 'Group settings',
      contacts: 'Contacts',
      settings: 'Settings',
      wallet: 'Wallet',
      accountSecurity: 'Account security',
      securityActivity: 'Security activity',
    },
  ],
];

const MESSAGES = {
  fromAda: ['Hello Bob!', 'Are you coming on Friday?'],
  fromBob: ['Hi Ada', 'Yes, see you there.'],
};

beforeAll(async () => {
  const { server } = suite;
  const [first, bob] = await suite.accounts('Ada', 'Bob');
  ada = first;
  await createGroup(server.baseUrl, ada, 'Pioneers', [bob]);
  // A wallet holding a badge: the wallet page with its assets and NFTs.
  await callApi(server.baseUrl, 'POST', '/wallet', { token: ada.token });
  await callApi(server.baseUrl, 'PUT', '/wallet/password', {
    token: ada.token,
    body: { password: '135790' },
  });
  await mintNft(server, ada, {
    name: 'Early bird',
    collection: 'Pioneers',
    description: 'Day one',
  });

  const [a, b] = await Promise.all([suite.signedIn(ada), suite.signedIn(bob)]);
  adaPage = a;
  await openChat(a, /Bob/);
  await openChat(b, /Ada/);
  for (const [index, text] of MESSAGES.fromAda.entries()) {
    await send(a, text);
    await send(b, MESSAGES.fromBob[index]!);
  }
  await a.getByText(MESSAGES.fromBob.at(-1)!, { exact: true }).waitFor();
});

function heading(page: Page, name: string) {
  return page.getByRole('heading', { level: 1, name, exact: true });
}

/** axe-core finds nothing serious, and the page has exactly one main landmark. */
async function checkPage(page: Page, label: string): Promise<void> {
  await expectAccessible(page, label);
  expect(await page.getByRole('main').count(), `${label}: main landmarks`).toBe(1);
}

describe('accessibility by axe-core', () => {
  it.each(LANGUAGES)('has no serious violation on the main screens in %s', async (language, ui) => {
    const { server } = suite;
    // Signed out: the sign-in and registration pages, in a fresh browser (in Simplified
    // Chinese as the app starts, unless told otherwise).
    const page = await suite.guest(language === 'zh_CN' ? undefined : language);
    await heading(page, ui.welcome).waitFor();
    // index.html paints the same heading before the app runs: wait for the app's form.
    await page.locator('input[type="password"]').waitFor();
    await checkPage(page, `sign-in (${language})`);
    await page.goto(`${server.baseUrl}/#/pages/register/register`);
    await heading(page, ui.createAccount).waitFor();
    await checkPage(page, `register (${language})`);
    await page.goto(`${server.baseUrl}/#/pages/login/PCdevice`);
    await heading(page, ui.qrLogin).waitFor();
    await page.getByTestId('device-login-qr').waitFor();
    await checkPage(page, `QR sign-in (${language})`);

    // Signed in: Ada's page, switched to this interface language.
    const a = adaPage;
    await a.goto(`${server.baseUrl}/#/pages/home/home`);
    await useInterface(a, language, ui);
    await a.getByRole('link', { name: /Pioneers/ }).waitFor();
    await a.getByRole('link', { name: /Bob/ }).waitFor();
    await checkPage(a, `chat list (${language})`);

    await openChat(a, /Bob/, ui);
    for (const text of [...MESSAGES.fromAda, ...MESSAGES.fromBob]) {
      await a.getByText(text, { exact: true }).waitFor();
    }
    await checkPage(a, `chat (${language})`);

    await openFromChats(a, /Pioneers/);
    await a.getByRole('banner').getByRole('link').last().click();
    await heading(a, ui.groupSettings).waitFor();
    await a.getByText('Bob', { exact: true }).first().waitFor();
    await checkPage(a, `group settings (${language})`);

    await a.goto(`${server.baseUrl}/#/pages/contacts/contacts`);
    await heading(a, ui.contacts).waitFor();
    await a.getByRole('link', { name: /Bob/ }).waitFor();
    await checkPage(a, `contacts (${language})`);

    await a.goto(`${server.baseUrl}/#/pages/user/setting`);
    await heading(a, ui.settings).waitFor();
    await checkPage(a, `settings (${language})`);

    await a.goto(`${server.baseUrl}/#/pages/user/message`);
    await heading(a, ui.messageSettings).waitFor();
    await a.getByTestId('push-state').waitFor();
    await checkPage(a, `message notifications (${language})`);

    await a.goto(`${server.baseUrl}/#/pages/user/accountSecurity`);
    await heading(a, ui.accountSecurity).waitFor();
    await a.locator('.tt-session').first().waitFor();
    await checkPage(a, `account security (${language})`);

    await a.goto(`${server.baseUrl}/#/pages/user/securityActivity`);
    await heading(a, ui.securityActivity).waitFor();
    await a.getByRole('list', { name: ui.securityActivity }).waitFor();
    await checkPage(a, `security activity (${language})`);

    await a.goto(`${server.baseUrl}/#/verification`);
    await heading(a, ui.verification).waitFor();
    await checkPage(a, `login code (${language})`);

    await a.goto(`${server.baseUrl}/#/upgradation`);
    await heading(a, ui.appVersion).waitFor();
    await a.getByRole('button').last().waitFor();
    await checkPage(a, `app version (${language})`);

    await a.goto(`${server.baseUrl}/#/pages/user/wallet`);
    await heading(a, ui.wallet).waitFor();
    await a.getByTestId('nft-card').getByText('Early bird').waitFor();
    await checkPage(a, `wallet (${language})`);
    await a.getByTestId('nft-card').click();
    await a.getByTestId('nft-detail').getByText('Day one').waitFor();
    await expectAccessible(a, `NFT (${language})`);
    await a.keyboard.press('Escape');
  });
});
