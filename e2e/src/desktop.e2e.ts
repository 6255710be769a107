import { callApi } from '@teltlk/test-kit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import { createGroup, useInterface, type ChatTexts } from './harness.js';
import { browserSuite } from './suite.js';

/**
 * The layouts a person moves between: on a 1440×900 desktop a navigation rail, the chat
 * list and the open chat side by side across the window, and the keyboard; on a 390×844
 * phone the tab bar; on both, pages that open at their top and a list that is where it was
 * when one comes back to it. In each interface language.
 */

const suite = browserSuite();

interface Texts extends ChatTexts {
  nav: string;
  tabs: [chats: string, contacts: string, discover: string, me: string];
  pickChat: string;
  back: string;
  chatSettings: string;
  groupSettings: string;
  editing: string;
  search: string;
}

const LANGUAGES: [string, Texts][] = [
  [
    'en_US',
    {
      chats: 'Chats',
      sendMessage: 'Send message',
      message: 'Message',
      nav: 'Main',
      tabs: ['Chats', 'Contacts', 'Discover', 'Me'],
      pickChat: 'Select a chat to start messaging',
      back: 'Back',
      chatSettings: 'Chat settings',
      groupSettings: 'Group settings',
      editing: 'Edit message',
      search: 'Search',
    },
  ],
  [
    'zh_CN',
    {
      chats: '消息',
      sendMessage: '发消息',
      message: '消息',
      nav: '主导航',
      tabs: ['消息', '通讯录', '发现', '我的'],
      pickChat: '选择一个聊天，开始发消息',
      back: '返回',
      chatSettings: '聊天设置',
      groupSettings: '群设置',
      editing: '编辑消息',
      search: '搜索',
    },
  ],
  [
    'zh_TW',
    {
      chats: '訊息',
      sendMessage: '傳送訊息',
      message: '訊息',
      nav: '主選單',
      tabs: ['訊息', '通訊錄', '探索', '我的'],
      pickChat: '選擇一個聊天，開始傳訊息',
      back: '返回',
      chatSettings: '聊天設定',
      groupSettings: '群組設定',
      editing: '編輯訊息',
      search: '搜尋',
    },
  ],
];

/** More chats than a phone's or a desktop's screen shows at once. */
const GROUPS = 16;
const LAST_WORDS = 'See you at nine';

const windowScroll = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
const paneScroll = (page: Page, selector: string) =>
  page.locator(selector).evaluate((pane) => Math.round(pane.scrollTop));

/** Ada, friends with Bob, in GROUPS groups with him ("Crew 01" the oldest) and a chat. */
async function adaWithManyChats(language: string, ui: Texts): Promise<Page> {
  const { baseUrl } = suite.server;
  const [ada, bob] = await suite.accounts('Ada', 'Bob');
  for (let index = 1; index <= GROUPS; index += 1) {
    await createGroup(baseUrl, ada, `Crew ${String(index).padStart(2, '0')}`, [bob]);
  }
  await callApi(baseUrl, 'POST', '/messages', {
    token: ada.token,
    body: {
      conversationId: ada.id < bob.id ? `si_${ada.id}_${bob.id}` : `si_${bob.id}_${ada.id}`,
      clientMsgId: 'desktop-1',
      content: { kind: 'text', text: LAST_WORDS },
    },
  });
  const page = await suite.signedIn(ada);
  await useInterface(page, language, ui);
  await page.getByRole('link', { name: /Crew 01/ }).waitFor();
  return page;
}

/** The header's settings link (a chat's or a group's), as the chat shows it. */
async function openSettings(page: Page, heading: string): Promise<void> {
  await page.getByRole('banner').getByRole('link').last().click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  // Its choices (join mode, burn time) are the last to come: the page is whole then.
  await page.getByRole('radio').first().waitFor();
}

describe('layouts', () => {
  it.each(LANGUAGES)(
    'a phone opens each page at its top and comes back to the list where it was, in %s',
    async (language, ui) => {
      const page = await adaWithManyChats(language, ui);
      const nav = page.getByRole('navigation', { name: ui.nav });
      // The bottom tab bar, and no rail.
      expect(await nav.count()).toBe(1);
      expect((await nav.boundingBox())!.y).toBeGreaterThan(700);

      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const listAt = await windowScroll(page);
      expect(listAt).toBeGreaterThan(200);

      await page.getByRole('link', { name: /Crew 01/ }).click();
      await page.getByRole('log').waitFor();
      await openSettings(page, ui.groupSettings);
      expect(await windowScroll(page)).toBe(0);
      await page.goBack();
      await page.getByRole('log').waitFor();
      await page.goBack();
      await page.getByRole('link', { name: /Crew 01/ }).waitFor();
      await expect.poll(() => windowScroll(page)).toBe(listAt);

      await page.getByRole('link', { name: /Bob/ }).click();
      await page.getByRole('log').waitFor();
      await openSettings(page, ui.chatSettings);
      expect(await windowScroll(page)).toBe(0);
    },
  );

  it.each(LANGUAGES)(
    'a desktop has a rail, the list beside the open chat, and the keyboard, in %s',
    async (language, ui) => {
      const page = await adaWithManyChats(language, ui);
      await page.setViewportSize({ width: 1440, height: 900 });

      // The rail down the left edge in place of the tab bar, the list beside a pane that
      // asks for a chat, across the window.
      const nav = page.getByRole('navigation', { name: ui.nav });
      await page.getByText(ui.pickChat).waitFor();
      await nav.waitFor();
      expect(await nav.count()).toBe(1);
      const railBox = (await nav.boundingBox())!;
      expect(railBox).toMatchObject({ x: 0, y: 0, height: 900 });
      const tabs = nav.getByRole('link');
      expect(await tabs.allInnerTexts()).toEqual(ui.tabs);
      const [chatsTab, contactsTab] = [tabs.nth(0), tabs.nth(1)];
      expect((await contactsTab.boundingBox())!.y).toBeGreaterThan(
        (await chatsTab.boundingBox())!.y,
      );
      expect(await chatsTab.getAttribute('aria-current')).toBe('page');
      const list = page.getByRole('complementary', { name: ui.chats });
      const listBox = (await list.boundingBox())!;
      expect(listBox.x).toBeGreaterThanOrEqual(railBox.width);
      const frame = await page.locator('.tt-app').boundingBox();
      expect(frame).toMatchObject({ x: 0, width: 1440 });
      await expectAccessible(page, `desktop chat list (${language})`);

      // A chat opens beside the list, marked in it, with no back arrow.
      await list.getByRole('link', { name: /Bob/ }).click();
      await page.getByRole('log').getByText(LAST_WORDS).waitFor();
      const main = page.getByRole('main');
      expect(await main.count()).toBe(1);
      const mainBox = (await main.boundingBox())!;
      expect(mainBox.x).toBeGreaterThanOrEqual(listBox.x + listBox.width - 1);
      expect(mainBox.x + mainBox.width).toBe(1440);
      expect(await list.getByRole('link', { name: /Bob/ }).getAttribute('aria-current')).toBe(
        'page',
      );
      expect(await list.locator('[aria-current]').count()).toBe(1);
      expect(await chatsTab.getAttribute('aria-current')).toBe('true');
      expect(await page.getByRole('button', { name: ui.back, exact: true }).count()).toBe(0);
      await expectAccessible(page, `desktop chat (${language})`);

      // ↑ in the empty box edits the last message; Escape ends the edit, then the chat.
      const box = page.getByRole('textbox', { name: ui.message });
      await box.click();
      await box.press('ArrowUp');
      await expect.poll(() => box.inputValue()).toBe(LAST_WORDS);
      await page.getByText(ui.editing, { exact: true }).waitFor();
      await box.press('Escape');
      await expect.poll(() => box.inputValue()).toBe('');
      expect(await page.getByText(ui.editing, { exact: true }).count()).toBe(0);
      await box.press('Escape');
      await page.getByText(ui.pickChat).waitFor();
      expect(new URL(page.url()).hash).toBe('#/pages/home/home');
      expect(await list.locator('[aria-current]').count()).toBe(0);

      // Ctrl+K searches, wherever one is.
      await page.keyboard.press('Control+k');
      await page.getByRole('heading', { level: 1, name: ui.search }).waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
      await page.goBack();
      await page.getByText(ui.pickChat).waitFor();

      // The list scrolls by itself and stays where it was while pages open beside it,
      // each at its top; away in another tab and back, it is where it was.
      await list.evaluate((pane) => pane.scrollTo(0, pane.scrollHeight));
      const listAt = await paneScroll(page, '.tt-split-list');
      expect(listAt).toBeGreaterThan(100);
      await list.getByRole('link', { name: /Crew 01/ }).click();
      await page.getByRole('log').waitFor();
      await openSettings(page, ui.groupSettings);
      expect(await paneScroll(page, '.tt-split-main')).toBe(0);
      expect(await paneScroll(page, '.tt-split-list')).toBe(listAt);
      expect(await windowScroll(page)).toBe(0);
      expect(await list.getByRole('link', { name: /Crew 01/ }).getAttribute('aria-current')).toBe(
        'true',
      );
      // The pane beside the list keeps each page's scroll for coming back to it.
      const pane = page.locator('.tt-split-main');
      await pane.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      const settingsAt = await paneScroll(page, '.tt-split-main');
      expect(settingsAt).toBeGreaterThan(100);
      await page.goBack();
      await page.getByRole('log').waitFor();
      expect(await paneScroll(page, '.tt-split-main')).toBe(0);
      await page.goForward();
      await page.getByRole('heading', { level: 1, name: ui.groupSettings }).waitFor();
      await expect.poll(() => paneScroll(page, '.tt-split-main')).toBe(settingsAt);
      await contactsTab.click();
      await page.getByRole('heading', { level: 1, name: ui.tabs[1] }).waitFor();
      expect(await contactsTab.getAttribute('aria-current')).toBe('page');
      expect(await list.count()).toBe(0);
      await page.goBack();
      await page.getByRole('log').waitFor();
      await expect.poll(() => paneScroll(page, '.tt-split-list')).toBe(listAt);

      // Back on a phone: no rail, the chat alone with its back arrow.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: ui.back, exact: true }).waitFor();
      expect(await list.count()).toBe(0);
      expect(await nav.count()).toBe(0);
    },
  );
});
