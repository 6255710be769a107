import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openChat, type ApiAccount } from './harness.js';
import { browserSuite } from './suite.js';

/**
 * Text as people write it, in two browsers: Arabic reads right to left, a few emoji show
 * large, a long message folds, a message over the limit stays in the box with the
 * reason, and the sender's mark turns to "Read" once the other person has seen it.
 */

const suite = browserSuite();
const signedIn = (account: ApiAccount) => suite.signedIn(account);

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await expect.poll(() => box.inputValue()).toBe('');
}

describe('text in a one-to-one chat', () => {
  it('shows right-to-left text, large emoji, folded long messages, the limit and the read mark', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const a = await signedIn(ada);
    const b = await signedIn(bob);

    await openChat(a, /Bob/);

    const arabic = 'مرحبا يا بوب';
    const long = Array.from({ length: 30 }, (_, line) => `Line ${line + 1} of the story`).join(
      '\n',
    );
    await send(a, arabic);
    await send(a, '👍🏽🎉');
    await send(a, long);

    // A message over the limit is refused with the reason, and the text stays in the box.
    const box = a.getByRole('textbox', { name: 'Message' });
    const tooLong = 'a'.repeat(5231);
    await box.fill(tooLong);
    await a.getByText('5,231 / 5,000').waitFor();
    await box.press('Enter');
    await a.getByText('Messages can be at most 5,000 characters. This one has 5,231.').waitFor();
    expect(await box.inputValue()).toBe(tooLong);
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    await box.fill('');

    // Bob reads: Arabic sets its own direction, the emoji show large, the long text folds.
    await b.goto(`${suite.server.baseUrl}/#/pages/home/home`);
    await b.getByRole('link', { name: /Ada/ }).first().click();
    // Looked up inside the conversation's log: until the list has synced all three, the
    // chat list's preview can show the same words.
    const arabicText = b.getByRole('log').getByText(arabic, { exact: true });
    await arabicText.waitFor();
    expect(await arabicText.getAttribute('dir')).toBe('auto');
    expect(await arabicText.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    await b.locator('.tt-msg-large', { hasText: '👍🏽🎉' }).waitFor();

    const more = b.getByRole('button', { name: 'Show more' });
    await more.waitFor();
    const lastLine = b.getByText(/Line 30 of the story/);
    const lastLineShown = () =>
      lastLine.evaluate((element) => {
        const fold = element.closest('.tt-msg-fold')!.getBoundingClientRect();
        return element.getBoundingClientRect().bottom <= fold.bottom;
      });
    expect(await lastLineShown()).toBe(false);
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.focus();
    await more.press('Enter');
    const less = b.getByRole('button', { name: 'Show less' });
    expect(await less.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(lastLineShown).toBe(true);

    // Ada's newest message now carries the read mark.
    await a.getByRole('img', { name: 'Read' }).last().waitFor({ timeout: 30_000 });

    // Bob's chat list: the row's menu (a right click here, a long press on a phone) loads
    // with its first use and pins the chat; opened again, it offers to unpin.
    await b.goto(`${suite.server.baseUrl}/#/pages/home/home`);
    const row = b.getByRole('link', { name: /Ada/ }).first();
    await row.click({ button: 'right' });
    await b.getByText('Actions for Ada').waitFor();
    // The sheet, not the row's swipe buttons, which carry the same words.
    const sheet = b.locator('.adm-action-sheet');
    await sheet.getByText('Pin', { exact: true }).click();
    await b.getByText('Actions for Ada').waitFor({ state: 'hidden' });
    await row.click({ button: 'right' });
    await sheet.getByText('Unpin', { exact: true }).waitFor();
    await sheet.getByText('Cancel', { exact: true }).click();
    await sheet.waitFor({ state: 'hidden' });

    // Swiping the row left (its swipe code arrives after the list shows) offers the same
    // actions: mute.
    const bounds = (await row.boundingBox())!;
    const y = bounds.y + bounds.height / 2;
    await b.mouse.move(bounds.x + bounds.width - 20, y);
    await b.mouse.down();
    await b.mouse.move(bounds.x + bounds.width - 120, y, { steps: 8 });
    await b.mouse.move(bounds.x + 40, y, { steps: 8 });
    await b.mouse.up();
    await b.locator('.adm-swipe-action-actions-right').getByText('Mute', { exact: true }).click();
    await row.getByText('Notifications muted').waitFor();
  });

  it('shares the current position as a named place, which opens in a map site', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const a = await signedIn(ada);
    const b = await signedIn(bob);
    await a.context().grantPermissions(['geolocation'], { origin: suite.server.baseUrl });
    await a.context().setGeolocation({ latitude: 48.85837, longitude: 2.294481 });

    await openChat(a, /Bob/);
    await a.getByRole('button', { name: 'More to send' }).click();
    await a.getByRole('button', { name: 'Location', exact: true }).click();
    const sheet = a.getByRole('dialog', { name: 'Share a location' });
    // Without a point, nothing goes: the fields say why.
    await sheet.getByRole('button', { name: 'Send' }).click();
    await sheet
      .getByText('Enter a latitude from −90 to 90 and a longitude from −180 to 180')
      .first()
      .waitFor();
    await sheet.getByRole('button', { name: 'Use my current position' }).click();
    await expect
      .poll(() => sheet.getByRole('textbox', { name: 'Latitude' }).inputValue())
      .toBe('48.858370');
    expect(await sheet.getByRole('textbox', { name: 'Longitude' }).inputValue()).toBe('2.294481');
    const name = sheet.getByRole('textbox', { name: 'Place name' });
    expect(await name.inputValue()).toBe('My location');
    await name.fill('Tour Eiffel');
    await sheet.getByRole('button', { name: 'Send' }).click();
    await sheet.waitFor({ state: 'hidden' });
    await a.getByRole('log').getByText('Tour Eiffel', { exact: true }).waitFor();

    // Bob sees it in his list and in the chat, with the point and a link to a map site.
    await b.goto(`${suite.server.baseUrl}/#/pages/home/home`);
    await b.getByText('[Location] Tour Eiffel').waitFor();
    await b.getByRole('link', { name: /Ada/ }).first().click();
    const log = b.getByRole('log');
    await log.getByText('Tour Eiffel', { exact: true }).waitFor();
    await log.getByText('48.85837, 2.294481').waitFor();
    const map = log.getByRole('link', { name: 'Open in map' });
    expect(await map.getAttribute('href')).toBe(
      'https://www.openstreetmap.org/?mlat=48.858370&mlon=2.294481#map=16/48.858370/2.294481',
    );
    expect(await map.getAttribute('target')).toBe('_blank');
  });

  it("shares a contact's card, which opens their profile to add them", async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob', 'Cat');
    const a = await signedIn(ada);
    const b = await signedIn(bob);

    await openChat(a, /Bob/);
    await a.getByRole('button', { name: 'More to send' }).click();
    await a.getByRole('button', { name: 'Contact card', exact: true }).click();
    const sheet = a.getByRole('dialog', { name: 'Share a contact' });
    await sheet.getByRole('button', { name: /Cat/ }).click();
    await sheet.waitFor({ state: 'hidden' });
    await a.getByRole('log').getByText('Contact card').waitFor();

    await b.goto(`${suite.server.baseUrl}/#/pages/home/home`);
    await b.getByText(/\[Card\] Cat/).waitFor();
    await b.getByRole('link', { name: /Ada/ }).first().click();
    const card = b.getByRole('log').getByRole('link', { name: /Cat/ });
    await card.getByText('Contact card').waitFor();
    await card.click();
    await b.getByRole('button', { name: 'Add to contacts' }).waitFor();
  });
});
