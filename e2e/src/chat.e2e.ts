import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openChat,
  registerAccount,
  signIn,
  startServer,
  type ApiAccount,
  type RunningServer,
} from './harness.js';

/**
 * Two people in two browsers: A finds B by Teltlk ID, B accepts from the badge, they chat
 * both ways in real time, A replies to and revokes a message, B goes offline and comes
 * back to find what A sent meanwhile.
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
  expect(consoleErrors.flat()).toEqual([]);
});

/** A phone-sized browser of one person, signed in, its context and console watched. */
async function signedIn(account: ApiAccount): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page, errors } = await signIn(browser, server.baseUrl, account);
  contexts.push(context);
  consoleErrors.push(errors);
  return { context, page };
}

function bubble(page: Page, text: string) {
  return page.getByText(text, { exact: true });
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await bubble(page, text).last().waitFor();
}

async function messageAction(page: Page, text: string, action: string | RegExp): Promise<void> {
  await bubble(page, text).last().click({ button: 'right' });
  await page.getByRole('option', { name: action }).click();
}

describe('one-to-one chat in two browsers', () => {
  it('adds a friend, chats both ways, replies, revokes, catches up after being offline, signs out clean', async () => {
    const [ada, bob] = await Promise.all([
      registerAccount(server.baseUrl, 'Ada'),
      registerAccount(server.baseUrl, 'Bob'),
    ]);
    const a = await signedIn(ada);
    const b = await signedIn(bob);

    // A finds B by Teltlk ID and sends a friend request.
    await a.page.getByRole('link', { name: 'Contacts', exact: true }).click();
    await a.page.getByRole('link', { name: 'Add friend' }).first().click();
    const search = a.page.getByRole('searchbox', { name: 'Phone, Teltlk ID or email' });
    await search.fill(bob.teltlkId);
    await search.press('Enter');
    await a.page.getByRole('button', { name: 'Add to contacts' }).click();
    await a.page.getByText('Friend request sent').first().waitFor();

    // B sees the badge arrive live and accepts.
    await b.page.getByRole('link', { name: 'Contacts', exact: true }).click();
    await b.page.locator('#tab-badge-contacts').getByText('1 new').waitFor();
    await b.page.getByRole('link', { name: /New friends/ }).click();
    await b.page.getByRole('button', { name: 'Accept Ada' }).click();
    await b.page.getByText('Accepted').first().waitFor();

    // A opens the chat from B's profile and they talk both ways.
    await openChat(a.page, /Bob/);
    await send(a.page, 'Hello Bob 👋');

    await b.page.goto(`${server.baseUrl}/#/pages/home/home`);
    await b.page.getByRole('link', { name: /Ada/ }).first().click();
    await bubble(b.page, 'Hello Bob 👋').waitFor();
    await send(b.page, 'Hi Ada, nice to meet you');
    await bubble(a.page, 'Hi Ada, nice to meet you').waitFor();

    // A replies to B's message: B sees the quote above the reply.
    await messageAction(a.page, 'Hi Ada, nice to meet you', 'Reply');
    await send(a.page, 'Likewise!');
    await bubble(b.page, 'Likewise!').waitFor();
    expect(await b.page.getByText('Hi Ada, nice to meet you').count()).toBeGreaterThanOrEqual(2);

    // A revokes a message: both see the notice instead of the text.
    await send(a.page, 'Oops, wrong chat');
    await bubble(b.page, 'Oops, wrong chat').waitFor();
    // Revoke is offered once A's own copy is acknowledged (its tick), which may come a
    // moment after B already shows the message.
    await a.page.getByRole('img', { name: 'Sending' }).first().waitFor({ state: 'detached' });
    await messageAction(a.page, 'Oops, wrong chat', /^Revoke/);
    await a.page.getByText('You revoked a message').waitFor();
    await b.page.getByText('Ada revoked a message').waitFor();
    expect(await bubble(b.page, 'Oops, wrong chat').count()).toBe(0);

    // B goes offline; A sends meanwhile; B comes back and finds it.
    await b.context.setOffline(true);
    await b.page.getByText('The current network connection is poor').first().waitFor();
    await send(a.page, 'Are you there?');
    await send(a.page, 'Call me when you are back');
    await b.context.setOffline(false);
    await bubble(b.page, 'Call me when you are back').waitFor({ timeout: 30_000 });
    await bubble(b.page, 'Are you there?').waitFor();
    expect(await bubble(b.page, 'Are you there?').count()).toBe(1);

    // Signing out on purpose leaves none of B's chats on this device.
    const databases = () =>
      b.page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
    expect(await databases()).toContain(`teltlk-${bob.id}`);
    await b.page.goto(`${server.baseUrl}/#/pages/user/setting`);
    await b.page.getByRole('button', { name: 'Log out' }).click();
    await b.page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await b.page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // Deleting waits for the engine's connection to close; give it time on a busy machine.
    await expect.poll(databases).not.toContain(`teltlk-${bob.id}`);
  });
});
