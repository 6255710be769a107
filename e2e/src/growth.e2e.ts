import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import {
  type EmailRegistrationTexts,
  launchBrowser,
  newPhoneContext,
  operator,
  registerAccount,
  signIn,
  startServer,
  watchConsole,
  registerByEmailForm,
  type RunningServer,
} from './harness.js';

/**
 * Discover in the browser: a person checks in and sees the timer and rate, invites a
 * friend by link, who registers through it and checks in; the first then sees the
 * booster and the new team member, and both stand on the rankings. One screen each in
 * Simplified Chinese, Traditional Chinese and English, checked by axe.
 */

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const consoleErrors: string[][] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

afterEach(() => {
  expect(consoleErrors.flat()).toEqual([]);
});

const heading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true });

/** Goes to a page of the signed-in app in another interface language. */
async function inLanguage(page: Page, language: string, path: string): Promise<void> {
  await page.evaluate((code) => localStorage.setItem('currentLanguage', code), language);
  await page.goto(`${page.url().split('#')[0]}#${path}`);
  await page.reload();
}

const ENGLISH_REGISTRATION: EmailRegistrationTexts = {
  email: 'Email',
  emailAddress: 'Email address',
  agree: 'I agree',
  getCode: 'Get verification code',
  code: 'Verification code',
  nickname: 'Nickname',
  password: 'Password',
  confirmPassword: 'Confirm password',
  next: 'Next',
  region: 'Country or region',
  motherTongue: 'Mother tongue',
  invitation: 'Invitation code',
};

/** Registration through the invitation link, by email, in English; ends on the chat list. */
async function registerByLink(link: string, email: string, nickname: string): Promise<Page> {
  const context = await newPhoneContext(browser);
  contexts.push(context);
  await context.addInitScript(() => {
    if (!localStorage.getItem('currentLanguage')) localStorage.setItem('currentLanguage', 'en_US');
  });
  const page = await context.newPage();
  consoleErrors.push(watchConsole(page));
  await page.goto(link);
  await page.getByText(/You were invited with the code [A-Z0-9]+/).waitFor();
  await registerByEmailForm(
    page,
    server.baseUrl,
    ENGLISH_REGISTRATION,
    { email, nickname, password: 'Passw0rdE2E' },
    { region: 'Nigeria' },
  );
  // The code from the link is filled in already.
  const field = page.getByRole('textbox', { name: /Invitation code/ });
  await expect.poll(() => field.inputValue()).toMatch(/^[A-Z][A-Z0-9]{5,15}$/);
  await page.getByRole('button', { name: 'Finish' }).click();
  await heading(page, 'Chats').waitFor({ timeout: 15_000 });
  return page;
}

async function checkIn(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Discover', exact: true }).click();
  await heading(page, 'Discover').waitFor();
  await page.getByRole('button', { name: 'Check in' }).click();
  await page.getByText('Mining', { exact: true }).waitFor();
}

describe('Discover in the browser', () => {
  it('checks in, invites a friend by link who joins the team, boosts mining, and ranks both', async () => {
    const ada = await registerAccount(server.baseUrl, 'Ada');
    const signedIn = await signIn(browser, server.baseUrl, ada);
    contexts.push(signedIn.context);
    consoleErrors.push(signedIn.errors);
    const { page } = signedIn;

    // Check in: the timer counts down from 24 hours, the rate is the basic one.
    await checkIn(page);
    const timer = page.getByRole('timer');
    await expect.poll(() => timer.textContent()).toMatch(/^2[34]:\d\d:\d\d$/);
    const first = await timer.textContent();
    await expect.poll(() => timer.textContent()).not.toBe(first);
    await page.getByText('Rate now').waitFor();
    await expect
      .poll(() => page.locator('.tt-mining-rate-total strong').textContent())
      .toBe('0.25 / h');
    // Checking in twice is one session.
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Check in' }).count()).toBe(0);

    // The invitation link and its QR code.
    await page.getByRole('link', { name: 'Invite friends' }).click();
    await heading(page, 'Invite friends').waitFor();
    await page.getByRole('img', { name: 'QR code of my invitation link' }).waitFor();
    const link = (await page.getByTestId('invite-link').textContent())!;
    expect(link).toMatch(/#\/pages\/register\/register\?invite=[A-Z0-9]+$/);
    await expectAccessible(page, 'invite page (en_US)');

    // Bea registers through the link (in Nigeria: another region than Ada's) and checks in.
    const beaEmail = `bea.${Date.now().toString(36)}@example.com`;
    const bea = await registerByLink(link, beaEmail, 'Bea');
    await checkIn(bea);

    // Ada sees the booster of a member mining elsewhere, and Bea in her team.
    await page.goBack();
    await heading(page, 'Discover').waitFor();
    await page.reload();
    await page.getByText('Other-region booster × 1').waitFor();
    await expect
      .poll(() => page.locator('.tt-mining-rate-total strong').textContent())
      .toBe('0.275 / h');
    await page.getByRole('link', { name: 'My team' }).click();
    await heading(page, 'My team').waitFor();
    const member = page.getByRole('listitem').filter({ hasText: 'Bea' });
    await member.getByText(/Nigeria · Mining/).waitFor();
    await expectAccessible(page, 'team page (en_US)');

    // Both on the rankings: Ada leads today's invites; an ecological reward puts both on
    // the points ranking.
    for (const [who, points] of [
      [ada.teltlkId, '3'],
      [(await operatorTeltlkId(beaEmail))!, '2'],
    ] as const) {
      await operator(
        server,
        'growth:reward',
        '--to',
        who,
        '--points',
        points,
        '--note',
        'Launch week',
        '--key',
        `launch-${who}`,
      );
    }
    await inLanguage(page, 'zh_TW', '/pages/find/rank?board=points');
    await heading(page, '排行榜').waitFor();
    const rows = page.locator('.tt-rank-row');
    await expect.poll(() => rows.filter({ hasText: 'Ada' }).count()).toBe(1);
    await expect.poll(() => rows.filter({ hasText: 'Bea' }).count()).toBe(1);
    await page.getByText('第 1 名').waitFor();
    await expectAccessible(page, 'rankings (zh_TW)');
    await page.getByRole('tab', { name: '每日邀請' }).click();
    await rows.filter({ hasText: 'Ada' }).filter({ hasText: '邀請 1 人' }).waitFor();

    // Discover itself in Simplified Chinese.
    await inLanguage(page, 'zh_CN', '/pages/find/find');
    await heading(page, '发现').waitFor();
    await page.getByText('挖矿中', { exact: true }).waitFor();
    await page.getByText('其他地区加速 × 1').waitFor();
    await expectAccessible(page, 'Discover (zh_CN)');

    // Points: the reward in the history.
    await page.getByRole('link', { name: '我的积分' }).click();
    await heading(page, '我的积分').waitFor();
    await page.getByText('生态奖励 · Launch week').waitFor();
  });
});

/** Bea's Teltlk ID, through the operator's view of the API (her e-mail). */
async function operatorTeltlkId(email: string): Promise<string | undefined> {
  const response = await fetch(`${server.baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: email, password: 'Passw0rdE2E' }),
  });
  const body = (await response.json()) as { user?: { teltlkId?: string } };
  return body.user?.teltlkId;
}
