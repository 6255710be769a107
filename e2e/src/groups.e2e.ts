import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { openFromChats } from './harness.js';
import { browserSuite } from './suite.js';

/**
 * A group in four browsers: A creates it with B and C, sets a notice, B @-mentions A,
 * C is muted and cannot send, D joins by group ID after approval, B quits.
 */

const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const suite = browserSuite();

async function openGroupSettings(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('link').last().click();
  await page.getByRole('heading', { level: 1, name: 'Group settings' }).waitFor();
}

describe('a group in four browsers', () => {
  it('creates, notices, mentions, mutes, approves a join by ID, and lets a member quit', async () => {
    onTestFailed(async () => {
      for (const context of suite.browser.contexts()) {
        for (const page of context.pages()) {
          console.log(`DUMP ${page.url()}\n${await page.locator('body').ariaSnapshot()}`);
        }
      }
    });
    const [[ada, bob, cat], [dan]] = await Promise.all([
      suite.accounts('Ada', 'Bob', 'Cat'),
      suite.strangers('Dan'),
    ]);
    const a = await suite.signedIn(ada);

    // A creates the group from two friends.
    await a.getByRole('link', { name: 'Contacts', exact: true }).click();
    await a.getByRole('link', { name: /Group chats/ }).click();
    await a.getByRole('link', { name: 'Create group' }).click();
    await a.getByRole('checkbox', { name: /Bob/ }).check();
    await a.getByRole('checkbox', { name: /Cat/ }).check();
    await a.getByRole('textbox', { name: /Group name/ }).fill('Pioneers');
    await a.getByRole('button', { name: 'Create (2)' }).click();
    await a.getByText('You created the group').waitFor();

    // A sets the notice.
    await openGroupSettings(a);
    await a.getByRole('link', { name: /Group notice/ }).click();
    await a.getByRole('textbox').fill('Meet-up on Friday at 10');
    await a.getByRole('banner').getByRole('button', { name: 'Confirm' }).click();
    await a.getByRole('heading', { level: 1, name: 'Group settings' }).waitFor();

    // A gives the group an avatar and shows its QR code.
    await a.getByLabel('Change group avatar').setInputFiles({
      name: 'avatar.png',
      mimeType: 'image/png',
      buffer: Buffer.from(ONE_PIXEL_PNG, 'base64'),
    });
    await a.getByText('Group avatar updated').first().waitFor();
    await a.getByRole('button', { name: /^Group ID and QR code/ }).click();
    await a.getByRole('img', { name: 'QR code to join Pioneers' }).waitFor();
    await a.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // B mentions A.
    const b = await suite.signedIn(bob);
    await openFromChats(b, /Pioneers/);
    await b
      .getByText(/Meet-up on Friday at 10/)
      .first()
      .waitFor();
    const box = b.getByRole('textbox', { name: 'Message' });
    await box.fill('@Ad');
    await b
      .getByRole('list', { name: 'Choose who to mention' })
      .getByRole('button', { name: 'Ada' })
      .click();
    await box.pressSequentially('see you there');
    await box.press('Enter');
    await a.goto(`${suite.server.baseUrl}/#/pages/home/home`);
    await a.getByText('[You were mentioned]').waitFor();

    // A mutes C; C cannot send.
    await openFromChats(a, /Pioneers/);
    await openGroupSettings(a);
    await a.getByRole('button', { name: /Cat/ }).first().click();
    await a.getByRole('option', { name: 'Mute', exact: true }).click();
    await a.getByRole('option', { name: '10 minutes' }).click();
    const c = await suite.signedIn(cat);
    await openFromChats(c, /Pioneers/);
    await c.getByText(/You are muted until/).waitFor();
    expect(await c.getByRole('textbox', { name: 'Message' }).count()).toBe(0);

    // D finds the group by its ID and applies; A approves.
    const groups = (await (
      await fetch(`${suite.server.baseUrl}/api/v1/groups`, {
        headers: { authorization: `Bearer ${ada.token}` },
      })
    ).json()) as { groups: { groupNo: string }[] };
    const groupNo = groups.groups[0]!.groupNo;
    const d = await suite.signedIn(dan);
    await d.goto(`${suite.server.baseUrl}/#/pages/contacts/addGroup`);
    await d.getByRole('textbox', { name: 'Group ID' }).fill(groupNo);
    await d.getByRole('button', { name: 'Search' }).click();
    await d.getByRole('button', { name: 'Apply to join' }).click();
    await d.getByText('Application sent').first().waitFor();
    await a.goto(`${suite.server.baseUrl}/#/pages/contacts/groupApplication`);
    await a
      .getByRole('button', { name: /Accept/ })
      .first()
      .click();
    await openFromChats(d, /Pioneers/);
    await d.getByText('You joined the group').waitFor();

    // B quits; A sees it.
    await openGroupSettings(b);
    await b.getByRole('button', { name: 'Quit group' }).click();
    await b.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await openFromChats(a, /Pioneers/);
    await a.getByText('Dan joined the group').waitFor();
    await a.getByText('Bob left the group').waitFor();
  });
});
