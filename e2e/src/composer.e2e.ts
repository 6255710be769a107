import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import { openChat, useInterface, type ChatTexts } from './harness.js';
import { browserSuite } from './suite.js';

/**
 * The chat screen's message box as Telegram's and WeChat's: on a small phone the field takes
 * the row, the microphone turns into Send once there is text, and the newest message stays
 * in view whatever opens below it; away from the end, a button says what came meanwhile.
 */

const suite = browserSuite();

/** A small phone: the width the message box is measured at. */
const PHONE = { width: 360, height: 740 };

/** The composer's texts in each interface language. */
const LANGUAGES: { language: string; ui: ChatTexts; voice: string; send: string }[] = [
  {
    language: 'en_US',
    ui: { chats: 'Chats', sendMessage: 'Send message', message: 'Message' },
    voice: 'Send a voice message',
    send: 'Send',
  },
  {
    language: 'zh_CN',
    ui: { chats: '消息', sendMessage: '发消息', message: '消息' },
    voice: '发送语音',
    send: '发送',
  },
  {
    language: 'zh_TW',
    ui: { chats: '訊息', sendMessage: '傳送訊息', message: '訊息' },
    voice: '傳送語音',
    send: '傳送',
  },
];

/** Sends a text with Enter and waits until the box has let it go. */
async function type(page: Page, text: string, message = 'Message'): Promise<void> {
  const box = page.getByRole('textbox', { name: message });
  await box.fill(text);
  await box.press('Enter');
  await expect.poll(() => box.inputValue()).toBe('');
}

/** Whether the element is whole inside the message list's visible part (rows far off are not drawn). */
async function inView(page: Page, target: Locator): Promise<boolean> {
  if ((await target.count()) === 0) return false;
  const list = await page.locator('.tt-messages').boundingBox();
  const box = await target.boundingBox({ timeout: 1000 }).catch(() => null);
  if (!list || !box) return false;
  return box.y >= list.y - 1 && box.y + box.height <= list.y + list.height + 1;
}

describe('the message box', () => {
  it('takes at least 70 % of a 360 px row, the microphone turning into Send, in each language', async () => {
    const [a] = await suite.friends('Ada', 'Bob');
    await a.setViewportSize(PHONE);
    for (const { language, ui, voice, send } of LANGUAGES) {
      await a.goto(`${suite.server.baseUrl}/#/pages/home/home`);
      await useInterface(a, language, ui);
      await openChat(a, /Bob/, ui);
      const field = a.getByRole('textbox', { name: ui.message });
      const widthShare = async () => ((await field.boundingBox())?.width ?? 0) / PHONE.width;

      // Empty: the microphone, no Send; the field has the room.
      expect(await widthShare()).toBeGreaterThanOrEqual(0.7);
      await a.getByRole('button', { name: voice, exact: true }).waitFor();
      expect(await a.getByRole('button', { name: send, exact: true }).count()).toBe(0);
      const oneLine = (await field.boundingBox())!.height;

      // Typing: Send in the microphone's place, the field as wide.
      await field.fill('Hi Li Hua! Nice to meet you');
      await a.getByRole('button', { name: send, exact: true }).waitFor();
      expect(await a.getByRole('button', { name: voice, exact: true }).count()).toBe(0);
      expect(await widthShare()).toBeGreaterThanOrEqual(0.7);
      // On the 390 px phone of the report (it took five lines there), a greeting fits one.
      await a.setViewportSize({ width: 390, height: 844 });
      // The field refits its height once it sees its new width.
      await expect.poll(async () => (await field.boundingBox())!.height).toBe(oneLine);
      await a.setViewportSize(PHONE);

      // Longer text grows the field a few lines, then it scrolls.
      await field.fill('one\ntwo\nthree');
      const three = (await field.boundingBox())!.height;
      expect(three).toBeGreaterThanOrEqual(oneLine + 39);
      await field.fill(Array.from({ length: 12 }, (_, line) => `line ${line}`).join('\n'));
      expect((await field.boundingBox())!.height).toBeLessThanOrEqual(120);

      // Sent with Send: the microphone comes back and the field keeps the focus.
      await field.fill(`Hello in ${language}`);
      await a.getByRole('button', { name: send, exact: true }).click();
      await a.getByRole('log').getByText(`Hello in ${language}`, { exact: true }).waitFor();
      await a.getByRole('button', { name: voice, exact: true }).waitFor();
      expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
      if (language === 'zh_CN') await expectAccessible(a, 'the message box at 360 px');
    }
  });
});

describe('the newest messages', () => {
  it('stay in view with the emoji panel, the "+" panel or the keyboard open, and as messages arrive', async () => {
    const [a, b] = await suite.friends('Ada', 'Bob');
    await a.setViewportSize(PHONE);
    await openChat(a, /Bob/);
    for (let index = 1; index <= 16; index += 1) await type(a, `Note ${index}`);
    const log = a.getByRole('log');
    const newest = log.getByText('Note 16', { exact: true });
    await expect.poll(() => inView(a, newest)).toBe(true);

    // The emoji panel opens below the box: the list is shorter, its end still shows.
    const emoji = a.getByRole('button', { name: 'Emoji' });
    await emoji.click();
    await a.getByRole('tab', { name: 'Emoji' }).waitFor();
    await expect.poll(() => inView(a, newest)).toBe(true);
    // Tapped again it gives the keyboard back: the field has the focus.
    await emoji.click();
    await expect
      .poll(() =>
        a
          .getByRole('textbox', { name: 'Message' })
          .evaluate((box) => box === document.activeElement),
      )
      .toBe(true);

    // The "+" panel, taller still.
    await a.getByRole('button', { name: 'More to send' }).click();
    await a.getByRole('button', { name: 'Location' }).waitFor();
    await expect.poll(() => inView(a, newest)).toBe(true);
    await a.getByRole('button', { name: 'More to send' }).click();

    // A phone's keyboard takes the lower part of the window (the page resizes to what is
    // left, as the viewport asks): the newest message moves up with the box.
    await a.setViewportSize({ width: PHONE.width, height: PHONE.height - 320 });
    await expect.poll(() => inView(a, newest)).toBe(true);

    // A message arriving while at the end comes into view, with no "new messages" button.
    await openChat(b, /Ada/);
    await type(b, 'Arrived while you were at the end');
    const arrived = log.getByText('Arrived while you were at the end', { exact: true });
    await arrived.waitFor();
    await expect.poll(() => inView(a, arrived)).toBe(true);
    expect(await a.getByRole('button', { name: /Go to the newest messages/ }).count()).toBe(0);
    await a.setViewportSize(PHONE);
    await expect.poll(() => inView(a, arrived)).toBe(true);
  });

  it('are a button away when scrolled up: it says how many came, and takes the person down', async () => {
    const [a, b] = await suite.friends('Ada', 'Bob');
    await a.setViewportSize(PHONE);
    await openChat(b, /Ada/);
    for (let index = 1; index <= 30; index += 1) await type(b, `Line ${index}`);
    await openChat(a, /Bob/);
    const log = a.getByRole('log');
    await expect.poll(() => inView(a, log.getByText('Line 30', { exact: true }))).toBe(true);

    // Scrolled up a screen or two: the way down shows, nothing new yet.
    await a.locator('.tt-messages').evaluate((list) => list.scrollBy(0, -2 * list.clientHeight));
    const down = a.getByRole('button', { name: /Go to the newest messages/ });
    await down.waitFor();
    expect(await down.textContent()).not.toMatch(/\d/);

    // Bob writes twice: the list stays where Ada reads, the button counts them.
    await type(b, 'Are you there?');
    await down.filter({ hasText: '1 new' }).waitFor();
    await type(b, 'Lunch at noon?');
    await down.filter({ hasText: '2 new' }).waitFor();
    const latest = log.getByText('Lunch at noon?', { exact: true });
    expect(await inView(a, latest)).toBe(false);
    await expectAccessible(a, 'the chat with the way down to new messages');

    // The button takes her to the newest message and goes; the focus goes to the log.
    await down.click();
    await expect.poll(() => inView(a, latest)).toBe(true);
    await down.waitFor({ state: 'detached' });
    expect(await a.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('log');

    // At the end again, the next message simply comes into view.
    await type(b, 'See you');
    const next = log.getByText('See you', { exact: true });
    await next.waitFor();
    await expect.poll(() => inView(a, next)).toBe(true);
    expect(await down.count()).toBe(0);
  });

  it('says what came in Chinese too', async () => {
    const [a, b] = await suite.friends('Ada', 'Bob');
    await a.setViewportSize(PHONE);
    const ui = { chats: '消息', sendMessage: '发消息', message: '消息' };
    await openChat(b, /Ada/);
    for (let index = 1; index <= 20; index += 1) await type(b, `第 ${index} 行`);
    await useInterface(a, 'zh_CN', ui);
    await openChat(a, /Bob/, ui);
    await expect
      .poll(() => inView(a, a.getByRole('log').getByText('第 20 行', { exact: true })))
      .toBe(true);
    await a.locator('.tt-messages').evaluate((list) => list.scrollBy(0, -2 * list.clientHeight));
    await type(b, '在吗？');
    const down = a.getByRole('button', { name: /回到最新消息/ });
    await down.filter({ hasText: '1 条新消息' }).click();
    await expect
      .poll(() => inView(a, a.getByRole('log').getByText('在吗？', { exact: true })))
      .toBe(true);
  });
});
