import { callApi } from '@teltlk/test-kit';
import { describe, expect, it } from 'vitest';
import { openChat, photo, send, useInterface, type ApiAccount } from './harness.js';
import { expectAccessible } from './axe.js';
import { browserSuite } from './suite.js';

/**
 * Editing, search and stickers in two browsers: Ada edits a text and Bob sees the new
 * words marked "edited"; Bob searches all his chats for words of an old message, more
 * than a page of history back, and the hit opens the chat at that message. Stickers: one
 * of the pack, and a photo Bob received kept as a favourite and sent back.
 */

const suite = browserSuite();
const signedIn = (account: ApiAccount) => suite.signedIn(account);

describe('edit and search', () => {
  it('edits a text for both, then finds an old message and jumps to it', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const conversationId = ada.id < bob.id ? `si_${ada.id}_${bob.id}` : `si_${bob.id}_${ada.id}`;
    // History first: the message to find, then more than a page of others after it.
    const say = (text: string, index: number) =>
      callApi(suite.server.baseUrl, 'POST', '/messages', {
        token: ada.token,
        body: {
          conversationId,
          clientMsgId: `e2e-history-${index}`,
          content: { kind: 'text', text },
        },
      });
    await say('The ferry to Lantau leaves from pier 6', 0);
    for (let index = 1; index <= 70; index += 1) await say(`Filler message ${index}`, index);

    const a = await signedIn(ada);
    const b = await signedIn(bob);
    await openChat(a, /Bob/);
    await send(a, 'Lunch at noon?');
    // Editing is offered once the message is acknowledged (its tick).
    await a.getByRole('img', { name: 'Sending' }).first().waitFor({ state: 'detached' });
    await a.getByText('Lunch at noon?', { exact: true }).last().click({ button: 'right' });
    await a.getByRole('menuitem', { name: 'Edit' }).click();
    await a.getByText('Edit message').waitFor();
    await a.getByRole('menu').waitFor({ state: 'detached' });
    await expectAccessible(a, 'editing a message');
    const box = a.getByRole('textbox', { name: 'Message' });
    expect(await box.inputValue()).toBe('Lunch at noon?');
    await box.fill('Lunch at one?');
    await box.press('Enter');
    await a.getByText('Lunch at one?', { exact: true }).waitFor();
    await a.getByText('Edit message').waitFor({ state: 'detached' });

    await openChat(b, /Ada/);
    const log = b.getByRole('log');
    await log.getByText('Lunch at one?', { exact: true }).waitFor();
    await log.locator('.tt-msg', { hasText: 'Lunch at one?' }).getByText('edited').waitFor();
    expect(await log.getByText('Lunch at noon?', { exact: true }).count()).toBe(0);

    // Bob searches all his chats from the chat list.
    await b.goto(`${suite.server.baseUrl}/#/pages/home/home`);
    await b.getByRole('link', { name: 'Search messages' }).click();
    await b.getByRole('searchbox', { name: 'Search messages' }).fill('lantau');
    const hit = b.getByRole('link', { name: /The ferry to Lantau/ });
    await hit.waitFor();
    expect(await hit.locator('mark').textContent()).toBe('Lantau');
    await expectAccessible(b, 'search results');
    await hit.click();
    // The chat opens at the hit, loading older history until it is there.
    const found = b.locator('.tt-msg-found', { hasText: 'The ferry to Lantau' });
    await found.waitFor({ timeout: 20_000 });
    await expect.poll(() => found.isVisible()).toBe(true);

    // Within one chat, from its settings.
    await b.goto(
      `${suite.server.baseUrl}/#/pages/home/search?conversationId=${encodeURIComponent(conversationId)}`,
    );
    await b.getByRole('searchbox', { name: 'Search this chat' }).fill('nothing like this');
    await b.getByText('No messages found').waitFor();
  });

  it('sends a sticker of the pack, and keeps a photo received as a favourite to send', async () => {
    const [a, b] = await suite.friends('Ada', 'Bob');
    await openChat(a, /Bob/);

    // The pack: the emoji button's panel has a tab of stickers.
    await a.getByRole('button', { name: 'Emoji' }).click();
    await a.getByRole('tab', { name: 'Stickers' }).click();
    await a.getByRole('button', { name: 'Party' }).click();
    await a.getByRole('log').getByRole('img', { name: 'Party' }).waitFor();

    // A photo for Bob, drawn by the browser.
    await a.getByTestId('pick-image').setInputFiles(await photo(a, 300, 300, 'teal'));

    await openChat(b, /Ada/);
    const log = b.getByRole('log');
    const sticker = log.getByRole('img', { name: 'Party' });
    await sticker.waitFor();
    await expect
      .poll(() => sticker.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    const received = log.getByRole('button', { name: 'Open photo' });
    await received.waitFor();
    await received.click({ button: 'right' });
    await b.getByRole('menuitem', { name: 'Add to stickers' }).click();
    await b.getByText('Added to your stickers').waitFor();
    await b.getByRole('menu').waitFor({ state: 'detached' });

    await b.getByRole('button', { name: 'Emoji' }).click();
    await b.getByRole('tab', { name: 'Favourites' }).click();
    const favourite = b.getByRole('button', { name: 'Favourite sticker 1', exact: true });
    await favourite.waitFor();
    await expectAccessible(b, 'the sticker panel');
    await favourite.click();
    const sent = log.getByRole('img', { name: 'Favourite sticker' });
    await sent.waitFor();
    await a.getByRole('log').getByRole('img', { name: 'Favourite sticker' }).waitFor();
  });

  it('forwards several messages as one chat history record, which opens as a list', async () => {
    const [a, , c] = await suite.friends('Ada', 'Bob', 'Cat');
    // Cat's chat with Ada exists, so it is among the chats to forward to.
    await openChat(c, /Ada/);
    await send(c, 'Hi Ada');

    await openChat(a, /Bob/);
    await send(a, 'The ferry leaves at nine');
    await send(a, 'Bring the tickets');
    await send(a, 'Not this one');
    await a.getByRole('img', { name: 'Sending' }).first().waitFor({ state: 'detached' });
    await a.getByText('The ferry leaves at nine', { exact: true }).click({ button: 'right' });
    await a.getByRole('menuitem', { name: 'Select', exact: true }).click();
    await a.getByRole('menu').waitFor({ state: 'detached' });
    const boxes = a.getByRole('checkbox', { name: 'Select this message' });
    await expect.poll(() => boxes.count()).toBe(3);
    await boxes.nth(1).check();
    await a.getByText('2 selected').waitFor();
    await expectAccessible(a, 'picking messages');
    await a.getByRole('button', { name: 'Forward as chat history' }).click();
    await a.getByRole('dialog', { name: 'Forward to' }).getByText('Cat').click();
    await a.getByRole('button', { name: 'Send (1)' }).click();
    await a.getByText('Forwarded', { exact: true }).first().waitFor();

    const log = c.getByRole('log');
    const record = log.getByRole('button', { name: /Chat history of Ada/ });
    await record.waitFor();
    await record.click();
    const list = c.getByRole('dialog', { name: 'Chat history of Ada' });
    await list.getByText('The ferry leaves at nine').waitFor();
    await list.getByText('Bring the tickets').waitFor();
    expect(await list.getByText('Not this one').count()).toBe(0);
    await expectAccessible(c, 'a chat history record');
  });

  /** The texts the Chinese test goes by, in each script. */
  const CHINESE = [
    {
      language: 'zh_CN',
      ui: { chats: '消息', sendMessage: '发消息', message: '消息' },
      edit: '编辑',
      edited: '已编辑',
      emoji: '表情',
      stickers: '表情包',
      party: '庆祝',
      search: '搜索聊天记录',
    },
    {
      language: 'zh_TW',
      ui: { chats: '訊息', sendMessage: '傳送訊息', message: '訊息' },
      edit: '編輯',
      edited: '已編輯',
      emoji: '表情符號',
      stickers: '貼圖',
      party: '慶祝',
      search: '搜尋聊天記錄',
    },
  ];

  it.each(CHINESE)(
    'edits, sends a sticker and searches in the $language interface',
    async ({ language, ui, edit, edited, emoji, stickers, party, search }) => {
      const [a, b] = await suite.friends('Ada', 'Bob');
      await useInterface(a, language, ui);
      await useInterface(b, language, ui);
      await openChat(a, /Bob/, ui);
      await send(a, '我们明天去北京', ui);
      await openChat(b, /Ada/, ui);
      const log = b.getByRole('log');
      await log.getByText('我们明天去北京', { exact: true }).waitFor();

      await a.getByText('我们明天去北京', { exact: true }).click({ button: 'right' });
      await a.getByRole('menuitem', { name: edit, exact: true }).click();
      const box = a.getByRole('textbox', { name: ui.message });
      await box.fill('我们后天去北京');
      await box.press('Enter');
      await log.getByText('我们后天去北京', { exact: true }).waitFor();
      await log.locator('.tt-msg', { hasText: '我们后天去北京' }).getByText(edited).waitFor();

      await a.getByRole('button', { name: emoji, exact: true }).click();
      await a.getByRole('tab', { name: stickers }).click();
      await a.getByRole('button', { name: party }).click();
      await log.getByRole('img', { name: party }).waitFor();

      // A word of two characters, found by its grams.
      await b.goto(`${suite.server.baseUrl}/#/pages/home/home`);
      await b.getByRole('link', { name: search }).click();
      await b.getByRole('searchbox', { name: search }).fill('北京');
      const hit = b.getByRole('link', { name: /我们后天去北京/ });
      await hit.waitFor();
      expect(await hit.locator('mark').textContent()).toBe('北京');
      await expectAccessible(b, `search in ${language}`);
    },
  );
});
