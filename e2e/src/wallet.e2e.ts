import { startPiSandbox, type RunningPiSandbox } from '@teltlk/pi-sandbox';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import { callApi } from '@teltlk/test-kit';
import {
  befriend,
  codeFor,
  createGroup,
  launchBrowser,
  mintNft,
  newPhoneContext,
  registerAccount,
  startServer,
  watchConsole,
  type RunningServer,
} from './harness.js';

/**
 * The wallet in the browser, through the local Pi sandbox: its page frames the built app
 * and plays the Pi Browser and the person's Pi wallet (consent, confirming a payment); its
 * emulator plays Pi's Platform API and the chain (a Horizon that checks signatures).
 */

const API_KEY = 'e2e-wallet-key';
const PI = 10_000_000;

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

/** The sandbox's page, signed in to Pi as `user`, framing the app. */
async function inPiBrowser(user: string): Promise<{ page: Page; app: FrameLocator }> {
  const context = await newPhoneContext(browser);
  contexts.push(context);
  const page = await context.newPage();
  consoleErrors.push(watchConsole(page));
  const appUrl = encodeURIComponent(`${server.baseUrl}/`);
  await page.goto(`${sandbox.url}/?app=${appUrl}&user=${user}`);
  const app = page.frameLocator('#app');
  await app.getByRole('combobox', { name: /Language/ }).selectOption({ label: 'English' });
  return { page, app };
}

function appFrame(page: Page) {
  const frame = page.frames().find((f) => f.url().startsWith(server.baseUrl));
  if (!frame) throw new Error('the app is not framed');
  return frame;
}

const heading = (app: FrameLocator, name: string) =>
  app.getByRole('heading', { level: 1, name, exact: true });

/** Types six digits on the passcode pad's own keys. */
async function tapPasscode(app: FrameLocator, digits: string): Promise<void> {
  for (const digit of digits) {
    await app.getByRole('button', { name: `Digit ${digit}`, exact: true }).click();
  }
}

async function balances(token: string) {
  const response = await fetch(`${server.baseUrl}/api/v1/wallet`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { balances: { available: number; held: number }[] };
  return body.balances[0]!;
}

describe('the wallet in the browser', () => {
  it('creates a wallet, sets its password, recharges, withdraws, resets a forgotten password, transfers, sends a red envelope and gives an NFT', async () => {
    // A person with an email address who binds their Pi account.
    const account = await registerAccount(server.baseUrl, 'Wallace');
    const user = `wallet_${Date.now().toString(36)}`;
    const { page, app } = await inPiBrowser(user);
    await app.getByRole('link', { name: 'Sign in with Pi' }).click();
    const consent = page.getByRole('dialog', { name: 'Share your Pi account with this app?' });
    await consent.getByRole('button', { name: 'Allow' }).click();
    await app.getByRole('button', { name: 'Bind my Teltlk account' }).click();
    await app.getByRole('textbox', { name: 'Account' }).fill(account.email);
    await app.getByLabel('Password', { exact: true }).fill(account.password);
    await app.getByRole('button', { name: 'Bind and sign in' }).click();
    await expect.poll(() => heading(app, 'Chats').count()).toBe(1);

    // Me → Wallet: no wallet yet, so the page to create one.
    await app.getByRole('link', { name: 'Me', exact: true }).click();
    await app.getByRole('link', { name: 'Wallet' }).click();
    await heading(app, 'Create wallet').waitFor();
    await app.getByRole('button', { name: 'Create wallet' }).click();

    // The payment password, twice; a mismatch first.
    await heading(app, 'Set payment password').waitFor();
    await tapPasscode(app, '246810');
    await app.getByText('Enter it again').waitFor();
    await tapPasscode(app, '135790');
    await app
      .getByRole('alert')
      .getByText('The passwords entered twice are inconsistent')
      .waitFor();
    await expectAccessible(appFrame(page), 'creatPassword');
    await tapPasscode(app, '246810');
    await app.getByText('Enter it again').waitFor();
    await tapPasscode(app, '246810');
    await heading(app, 'Wallet').waitFor();

    // Recharge 3.5 Pi: Pi's payment flow, confirmed in the sandbox's wallet.
    await app.getByRole('link', { name: /Pi/ }).first().click();
    await heading(app, 'Pi').waitFor();
    await app.getByRole('button', { name: 'Recharge' }).click();
    await app.getByRole('textbox', { name: 'Amount (Pi)' }).fill('3.5');
    await app
      .getByRole('dialog', { name: 'Recharge' })
      .getByRole('button', { name: 'Recharge' })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Confirm payment' });
    await confirm.waitFor({ timeout: 20_000 });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    // Credited once Pi's completion callback reached the server: the balance and the record.
    await expect.poll(() => app.getByTestId('pi-available').textContent()).toBe('3.5');
    await app.getByTestId('wallet-record').getByText('Completed').waitFor();
    expect(await balances(account.token)).toMatchObject({ available: 3.5 * PI, held: 0 });

    // Withdraw 1 Pi with the payment password: a wrong one first.
    await app.getByRole('button', { name: 'Withdraw' }).click();
    const withdraw = app.getByRole('dialog', { name: 'Withdraw' });
    await withdraw.getByRole('textbox', { name: 'Amount (Pi)' }).fill('1');
    await withdraw.getByRole('button', { name: 'Next' }).click();
    await withdraw.getByText('You pay 1.01 Pi including the fee').waitFor();
    await tapPasscode(app, '111111');
    await withdraw.getByRole('alert').getByText('The payment password is incorrect').waitFor();
    await tapPasscode(app, '246810');
    await expect.poll(() => app.getByTestId('pi-available').textContent()).toBe('2.49');
    expect(await balances(account.token)).toMatchObject({ available: 24_900_000, held: 0 });
    const sent = sandbox.emulator.horizon.transactions;
    expect([...sent.values()].some((tx) => tx.amount === '1.0000000')).toBe(true);

    // The history: both records, and the count of withdrawals.
    await app.getByRole('link', { name: 'All records' }).click();
    await heading(app, 'All records').waitFor();
    await expect.poll(() => app.getByTestId('wallet-record').count()).toBe(2);
    await app.getByText('1 withdrawals').waitFor();
    await app.getByRole('button', { name: 'Withdrawal', exact: true }).click();
    await expect.poll(() => app.getByTestId('wallet-record').count()).toBe(1);
    await expectAccessible(appFrame(page), 'balance');

    // Forgot the payment password: a code to the account's email, then a new one, twice.
    await app.getByRole('button', { name: 'Back' }).click();
    await app.getByRole('button', { name: 'Back' }).click();
    await heading(app, 'Wallet').waitFor();
    await app.getByRole('link', { name: 'Forgot payment password' }).click();
    await app.getByRole('button', { name: 'Send code' }).click();
    await app.getByText(/Code sent to .*, valid for 5 minutes/).waitFor();
    const code = await codeFor(server.baseUrl, account.email, 'wallet');
    await app.getByRole('textbox', { name: 'Verification code' }).fill(code);
    await app.getByText('Enter a new six-digit payment password').waitFor();
    await tapPasscode(app, '975310');
    // Axe reads a half-faded toast as low contrast: the page is checked once the toast
    // 'Payment password changed' (1.5 s) has gone. Its wait starts before the password is
    // confirmed, so the toast is seen however soon it goes.
    const changed = app.getByText('Payment password changed', { exact: true });
    const shown = changed.waitFor();
    await tapPasscode(app, '975310');
    await heading(app, 'Wallet').waitFor();
    await app.getByRole('link', { name: 'Change payment password' }).waitFor();
    await shown;
    await changed.waitFor({ state: 'detached' });
    await expect.poll(() => app.getByRole('status').count()).toBe(0);
    await expectAccessible(appFrame(page), 'wallet');
    const check = await fetch(`${server.baseUrl}/api/v1/wallet/password/verify`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ password: '975310' }),
    });
    expect(check.status).toBe(204);

    // Money in chats. A friend gets a transfer of 1 Pi in their chat.
    const [friend, ...others] = await Promise.all(
      ['Frida', 'Gus', 'Hana', 'Ivo', 'Jade', 'Kai'].map((name) =>
        registerAccount(server.baseUrl, name),
      ),
    );
    for (const person of [friend!, ...others]) await befriend(server.baseUrl, account, person);
    const frame = appFrame(page);
    const openConversation = async (conversationId: string) => {
      await frame.evaluate(
        (hash) => (window.location.hash = hash),
        `#/pages/home/chat?conversationId=${conversationId}`,
      );
      await app.getByRole('button', { name: 'More to send' }).waitFor();
    };
    const pair = [account.id, friend!.id].sort();
    await openConversation(`si_${pair[0]}_${pair[1]}`);
    await app.getByRole('button', { name: 'More to send' }).click();
    await app.getByRole('button', { name: 'Transfer', exact: true }).click();
    const transfer = app.getByRole('dialog', { name: 'Transfer' });
    await transfer.getByRole('textbox', { name: 'Amount (Pi)' }).fill('1');
    await transfer.getByRole('textbox', { name: 'Note (optional)' }).fill('For lunch');
    await transfer.getByRole('button', { name: 'Next' }).click();
    await tapPasscode(app, '975310');
    await app.getByTestId('transfer-bubble').getByText('For lunch').waitFor({ timeout: 15_000 });
    expect(await balances(friend!.token)).toMatchObject({ available: PI });

    // A red envelope of 5 shares in a group of six; three members open it.
    await createGroup(server.baseUrl, account, 'Envelope club', others);
    const groups = await callApi<{ groups: { id: string }[] }>(server.baseUrl, 'GET', '/groups', {
      token: account.token,
    });
    const groupId = groups.groups[0]!.id;
    await openConversation(`sg_${groupId}`);
    await app.getByRole('button', { name: 'More to send' }).click();
    await app.getByRole('button', { name: 'Red envelope', exact: true }).click();
    const envelope = app.getByRole('dialog', { name: 'Red envelope' });
    await envelope.getByRole('textbox', { name: 'Total (Pi)' }).fill('0.5');
    await envelope.getByRole('textbox', { name: 'Number of shares' }).fill('5');
    await envelope.getByRole('textbox', { name: 'Greeting (optional)' }).fill('Happy days');
    await envelope.getByRole('button', { name: 'Next' }).click();
    await tapPasscode(app, '975310');
    await app.getByTestId('envelope-bubble').getByText('Happy days').waitFor({ timeout: 15_000 });
    const history = await callApi<{
      messages: { content: { kind: string; envelopeId?: string } }[];
    }>(server.baseUrl, 'GET', `/conversations/sg_${groupId}/messages`, { token: account.token });
    const envelopeId = history.messages.find((m) => m.content.kind === 'envelope')!.content
      .envelopeId!;
    let opened = 0;
    for (const member of others.slice(0, 3)) {
      const view = await callApi<{ mine: number | null }>(
        server.baseUrl,
        'POST',
        `/wallet/envelopes/${envelopeId}/open`,
        { token: member.token },
      );
      opened += view.mine === null ? 0 : view.mine;
    }
    expect(opened).toBeGreaterThan(0);
    expect(opened).toBeLessThan(0.5 * PI);
    await app.getByTestId('envelope-bubble').click();
    await app.getByText('3 of 5 opened').waitFor();
    expect(await balances(account.token)).toMatchObject({ available: 9_900_000 });

    // An NFT: the operator mints a badge to the person, who gives it to the friend.
    await mintNft(server, account, {
      name: 'Early bird',
      collection: 'Pioneers',
      description: 'Joined in the first week',
    });
    await frame.evaluate((hash) => (window.location.hash = hash), '#/pages/user/wallet');
    await heading(app, 'Wallet').waitFor();
    await app.getByRole('heading', { name: 'NFT assets' }).waitFor();
    await app.getByTestId('nft-card').getByText('Early bird').click();
    const detail = app.getByRole('dialog', { name: 'Early bird' });
    await detail.getByText('Pioneers #1').waitFor();
    await detail.getByText('Joined in the first week').waitFor();
    await expectAccessible(appFrame(page), 'nft');
    await detail.getByRole('button', { name: 'Give to a friend' }).click();
    await app.getByRole('dialog', { name: 'Choose a friend' }).getByText('Frida').click();
    await app.getByText('Give Early bird to Frida?').waitFor();
    await tapPasscode(app, '975310');
    await app.getByText('No NFT assets yet', { exact: false }).waitFor({ timeout: 15_000 });
    const friendsNfts = await callApi<{ items: { name: string }[] }>(
      server.baseUrl,
      'GET',
      '/wallet/nfts',
      { token: friend!.token },
    );
    expect(friendsNfts.items.map((item) => item.name)).toEqual(['Early bird']);
    // The gift is a message in their chat.
    await openConversation(`si_${pair[0]}_${pair[1]}`);
    await app.getByTestId('nft-bubble').getByText('Early bird').waitFor({ timeout: 15_000 });
    await app.getByTestId('nft-bubble').getByText('NFT · Given').waitFor();
  });
});
