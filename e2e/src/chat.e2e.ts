import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openChat, openFromChats, send } from './harness.js';
import { browserSuite } from './suite.js';

/**
 * Two people in two browsers: A finds B by Teltlk ID, B accepts from the badge, they chat
 * both ways in real time, A replies to and revokes a message, B goes offline and comes
 * back to find what A sent meanwhile.
 */

const suite = browserSuite();

function bubble(page: Page, text: string) {
  return page.getByText(text, { exact: true });
}

async function messageAction(page: Page, text: string, action: string | RegExp): Promise<void> {
  await bubble(page, text).last().click({ button: 'right' });
  await page.getByRole('menuitem', { name: action }).click();
}

describe('one-to-one chat in two browsers', () => {
  it('adds a friend, chats both ways, replies, revokes, catches up after being offline, signs out clean', async () => {
    const [ada, bob] = await suite.strangers('Ada', 'Bob');
    const a = await suite.signedIn(ada);
    const b = await suite.signedIn(bob);

    // A finds B by Teltlk ID and sends a friend request.
    await a.getByRole('link', { name: 'Contacts', exact: true }).click();
    await a.getByRole('link', { name: 'Add friend' }).first().click();
    const search = a.getByRole('searchbox', { name: 'Phone, Teltlk ID or email' });
    await search.fill(bob.teltlkId);
    await search.press('Enter');
    await a.getByRole('button', { name: 'Add to contacts' }).click();
    await a.getByText('Friend request sent').first().waitFor();

    // B sees the badge arrive live and accepts.
    await b.getByRole('link', { name: 'Contacts', exact: true }).click();
    await b.locator('#tab-badge-contacts').getByText('1 new').waitFor();
    await b.getByRole('link', { name: /New friends/ }).click();
    await b.getByRole('button', { name: 'Accept Ada' }).click();
    await b.getByText('Accepted').first().waitFor();

    // A opens the chat from B's profile and they talk both ways.
    await openChat(a, /Bob/);
    await send(a, 'Hello Bob 👋');

    await openFromChats(b, /Ada/);
    await bubble(b, 'Hello Bob 👋').waitFor();
    await send(b, 'Hi Ada, nice to meet you');
    await bubble(a, 'Hi Ada, nice to meet you').waitFor();

    // A replies to B's message: B sees the quote above the reply.
    await messageAction(a, 'Hi Ada, nice to meet you', 'Reply');
    await send(a, 'Likewise!');
    await bubble(b, 'Likewise!').waitFor();
    expect(await b.getByText('Hi Ada, nice to meet you').count()).toBeGreaterThanOrEqual(2);

    // A revokes a message: both see the notice instead of the text.
    await send(a, 'Oops, wrong chat');
    await bubble(b, 'Oops, wrong chat').waitFor();
    // Recall is offered once A's own copy is acknowledged (its tick), which may come a
    // moment after B already shows the message.
    await a.getByRole('img', { name: 'Sending' }).first().waitFor({ state: 'detached' });
    await messageAction(a, 'Oops, wrong chat', 'Recall');
    await a.getByText('You recalled a message').waitFor();
    await b.getByText('Ada recalled a message').waitFor();
    expect(await bubble(b, 'Oops, wrong chat').count()).toBe(0);

    // B goes offline; A sends meanwhile; B comes back and finds it.
    await b.context().setOffline(true);
    await b.getByText('The current network connection is poor').first().waitFor();
    await send(a, 'Are you there?');
    await send(a, 'Call me when you are back');
    await b.context().setOffline(false);
    await bubble(b, 'Call me when you are back').waitFor();
    await bubble(b, 'Are you there?').waitFor();
    expect(await bubble(b, 'Are you there?').count()).toBe(1);

    // Signing out on purpose leaves none of B's chats on this device.
    const databases = () =>
      b.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
    expect(await databases()).toContain(`teltlk-${bob.id}`);
    await b.goto(`${suite.server.baseUrl}/#/pages/user/setting`);
    await b.getByRole('button', { name: 'Log out' }).click();
    await b.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await b.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // Deleting waits for the engine's connection to close; give it time on a busy machine.
    await expect.poll(databases).not.toContain(`teltlk-${bob.id}`);
  });
});
