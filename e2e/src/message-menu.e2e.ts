import { callApi } from '@teltlk/test-kit';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openChat, photo, send, useInterface, type ApiAccount } from './harness.js';
import { expectAccessible } from './axe.js';
import { browserSuite } from './suite.js';

/**
 * The message menu: a popover beside the bubble it belongs to (the bubble ringed), inside
 * the window, for every kind a person sends; what it offers per kind (reply and forward
 * for all, save for photos, videos and files, recall for one's own), the reply it starts,
 * and the keyboard (Shift+F10 on the bubble's More button, arrow keys, Escape giving the
 * focus back). In English and in Simplified Chinese, on a phone and on a desktop.
 */

const suite = browserSuite();

function conversationOf(a: ApiAccount, b: ApiAccount): string {
  return a.id < b.id ? `si_${a.id}_${b.id}` : `si_${b.id}_${a.id}`;
}

/** Bob sends Ada a text, a place and a contact card through the API. */
async function seedReceived(ada: ApiAccount, bob: ApiAccount, text: string): Promise<void> {
  const conversationId = conversationOf(ada, bob);
  const contents = [
    { kind: 'text', text },
    { kind: 'location', latitude: 48.85837, longitude: 2.294481, name: 'Tour Eiffel' },
    {
      kind: 'card',
      user: {
        id: bob.id,
        teltlkId: bob.teltlkId,
        nickname: bob.nickname,
        avatarUrl: null,
        country: 'GB',
        motherTongue: 'en',
        official: false,
      },
    },
  ];
  for (const [index, content] of contents.entries()) {
    await callApi(suite.server.baseUrl, 'POST', '/messages', {
      token: bob.token,
      body: { conversationId, clientMsgId: `e2e-menu-${bob.id}-${index}`, content },
    });
  }
}

/** A second of a moving square, recorded by the browser as WebM. */
async function clip(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 180;
    const context = canvas.getContext('2d')!;
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    for (let frame = 0; frame < 25; frame += 1) {
      context.fillStyle = '#135';
      context.fillRect(0, 0, 320, 180);
      context.fillStyle = '#fc0';
      context.fillRect(frame * 8, 60, 60, 60);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  return Buffer.from(base64, 'base64');
}

interface MenuTexts {
  menu: string;
  more: string;
}

const ENGLISH: MenuTexts = { menu: 'Message actions', more: 'More actions' };

/**
 * Opens a bubble's menu with a right click and checks where it is: beside the bubble
 * (under, over or on it when neither has room), wholly inside the window, the bubble
 * marked. Returns the names of its entries.
 */
async function openMenu(page: Page, bubble: Locator, ui: MenuTexts = ENGLISH): Promise<string[]> {
  // The list may render its rows again while it settles (a message arriving, its bottom
  // kept): the bubble is scrolled to and clicked as it is found at that moment.
  await expect
    .poll(() =>
      bubble.scrollIntoViewIfNeeded({ timeout: 2_000 }).then(
        () => true,
        () => false,
      ),
    )
    .toBe(true);
  await bubble.click({ button: 'right' });
  const menu = page.getByRole('menu', { name: ui.menu });
  await menu.waitFor();
  await expect.poll(() => bubble.getAttribute('data-menu-open')).toBe('');
  // Placed in the frame after it is measured.
  await expect.poll(() => menu.evaluate((element) => element.dataset.side ?? '')).not.toBe('');
  const box = (await menu.boundingBox())!;
  const around = (await bubble.boundingBox())!;
  const view = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(view.width);
  expect(box.y + box.height).toBeLessThanOrEqual(view.height);
  const side = await menu.evaluate((element) => element.dataset.side);
  if (side === 'below') expect(box.y).toBeGreaterThanOrEqual(around.y + around.height);
  else if (side === 'above') expect(box.y + box.height).toBeLessThanOrEqual(around.y);
  // Beside it, not a sheet across the screen: it overlaps the bubble's column.
  expect(box.width).toBeLessThan(view.width - 16);
  expect(box.x).toBeLessThan(around.x + around.width);
  expect(box.x + box.width).toBeGreaterThan(around.x);
  return menu.getByRole('menuitem').allInnerTexts();
}

async function closeMenu(page: Page, bubble: Locator, ui: MenuTexts = ENGLISH): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByRole('menu', { name: ui.menu }).waitFor({ state: 'detached' });
  expect(await bubble.getAttribute('data-menu-open')).toBeNull();
}

describe('the message menu', () => {
  it('offers per kind what messengers do, beside the bubble, and works from the keyboard', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    await seedReceived(ada, bob, 'Hi Ada! Nice to meet you');
    const a = await suite.signedIn(ada);
    await a.context().grantPermissions(['microphone'], { origin: suite.server.baseUrl });
    await openChat(a, /Bob/);
    const log = a.getByRole('log');
    const bubble = (has: Locator) => log.locator('.tt-bubble').filter({ has }).last();

    // Ada sends a photo, a file, a video and a voice message of her own.
    await a.getByTestId('pick-image').setInputFiles(await photo(a, 400, 300, 'teal'));
    await a.getByTestId('pick-file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Ferry at nine'),
    });
    await a.getByTestId('pick-video').setInputFiles({
      name: 'clip.webm',
      mimeType: 'video/webm',
      buffer: await clip(a),
    });
    await a.getByRole('button', { name: 'Send a voice message' }).click();
    const hold = a.getByRole('button', { name: 'Hold to talk' });
    const holdBox = (await hold.boundingBox())!;
    await a.mouse.move(holdBox.x + holdBox.width / 2, holdBox.y + holdBox.height / 2);
    await a.mouse.down();
    await a
      .getByRole('status')
      .getByText(/Recording [1-9] s/)
      .waitFor();
    await a.mouse.up();
    await a.getByRole('button', { name: 'Type a message' }).click();
    await expect.poll(() => log.locator('.tt-upload').count(), { timeout: 30_000 }).toBe(0);
    await log.getByRole('button', { name: /^Play voice message/ }).waitFor();
    await a.getByRole('img', { name: 'Sending' }).first().waitFor({ state: 'detached' });

    const text = log.locator('.tt-bubble', { hasText: 'Hi Ada! Nice to meet you' });
    const place = log.locator('.tt-bubble', { hasText: 'Tour Eiffel' });
    const card = log.locator('.tt-bubble', { hasText: 'Contact card' });
    const picture = bubble(a.getByRole('button', { name: 'Open photo' }));
    const file = log.locator('.tt-bubble', { hasText: 'notes.txt' });
    const video = bubble(a.getByRole('button', { name: /^Play video/ }));
    const voice = bubble(a.getByRole('button', { name: /^Play voice message/ }));

    const received = ['Reply', 'Forward', 'Select', 'Delete'];
    expect(await openMenu(a, text)).toEqual(['Reply', 'Copy', ...received.slice(1)]);
    await expectAccessible(a, 'the message menu');
    await closeMenu(a, text);
    expect(await openMenu(a, place)).toEqual(received);
    await closeMenu(a, place);
    expect(await openMenu(a, card)).toEqual(received);
    await closeMenu(a, card);

    // Recall is offered for two minutes, which the uploads on a busy machine may use up:
    // it is checked where it is sure to be, in the Chinese test.
    const own = ['Reply', 'Forward', 'Select', 'Delete'];
    const mine = async (bubble: Locator) =>
      (await openMenu(a, bubble)).filter((entry) => entry !== 'Recall');
    expect(await mine(picture)).toEqual(['Reply', 'Save', 'Add to stickers', ...own.slice(1)]);
    // Saving is a download of the photo under its name.
    const save = a.getByRole('menuitem', { name: 'Save' });
    expect(await save.getAttribute('download')).toMatch(/^photo-\d+\.jpg$/);
    const fetched = await a.evaluate(
      async (href) => (await fetch(href)).headers.get('content-type'),
      (await save.getAttribute('href'))!,
    );
    expect(fetched).toBe('image/jpeg');
    await closeMenu(a, picture);
    expect(await mine(video)).toEqual(['Reply', 'Save', ...own.slice(1)]);
    expect(await a.getByRole('menuitem', { name: 'Save' }).getAttribute('download')).toMatch(
      /^video-\d+\.webm$/,
    );
    await closeMenu(a, video);
    expect(await mine(file)).toEqual(['Reply', 'Save', ...own.slice(1)]);
    expect(await a.getByRole('menuitem', { name: 'Save' }).getAttribute('download')).toBe(
      'notes.txt',
    );
    await closeMenu(a, file);
    expect(await mine(voice)).toEqual(own);

    // Replying to the voice message: the reply quotes it by its kind.
    await a.getByRole('menuitem', { name: 'Reply' }).click();
    await a.getByText('Replying to You').waitFor();
    await send(a, 'Listen to this');
    await log.locator('.tt-msg-quote', { hasText: '[Voice]' }).waitFor();

    // Forwarding a photo opens the chats to forward it to.
    await openMenu(a, picture);
    await a.getByRole('menuitem', { name: 'Forward' }).click();
    const picker = a.getByRole('dialog', { name: 'Forward to' });
    await picker.waitFor();
    await picker.getByRole('button', { name: 'Cancel' }).first().click();
    await picker.waitFor({ state: 'hidden' });

    // The keyboard: Shift+F10 on the More button opens the menu on its first entry, the
    // arrow keys move (round the ends), Escape closes it and gives the focus back.
    const more = log
      .locator('.tt-msg', { hasText: 'Hi Ada! Nice to meet you' })
      .getByRole('button', { name: 'More actions' });
    await more.focus();
    await a.keyboard.press('Shift+F10');
    const menu = a.getByRole('menu', { name: 'Message actions' });
    await menu.waitFor();
    const focused = () => a.evaluate(() => document.activeElement?.textContent ?? '');
    await expect.poll(focused).toBe('Reply');
    await a.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Copy');
    await a.keyboard.press('ArrowUp');
    await a.keyboard.press('ArrowUp');
    expect(await focused()).toBe('Delete');
    await a.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await more.evaluate((element) => element === document.activeElement)).toBe(true);
    // Enter on the button opens it too; an entry runs with Enter.
    await a.keyboard.press('Enter');
    await menu.waitFor();
    await a.keyboard.press('Enter');
    await a.getByText('Replying to Bob').waitFor();
    await menu.waitFor({ state: 'detached' });

    // On a desktop the menu still sits by the bubble, inside the window.
    await a.setViewportSize({ width: 1440, height: 900 });
    expect(await openMenu(a, place)).toEqual(received);
    await closeMenu(a, place);
  });

  it('speaks Chinese, with "撤回" for recalling one\'s own message', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    await seedReceived(ada, bob, 'See you at the pier');
    const a = await suite.signedIn(ada);
    const ui = { chats: '消息', sendMessage: '发消息', message: '消息' };
    await useInterface(a, 'zh_CN', ui);
    await openChat(a, /Bob/, ui);
    const log = a.getByRole('log');
    const chinese = { menu: '消息操作', more: '更多操作' };

    const text = log.locator('.tt-bubble', { hasText: 'See you at the pier' });
    expect(await openMenu(a, text, chinese)).toEqual(['回复', '复制', '转发', '多选', '删除']);
    await closeMenu(a, text, chinese);

    await a.getByTestId('pick-image').setInputFiles(await photo(a, 300, 400, 'orange'));
    await expect.poll(() => log.locator('.tt-upload').count(), { timeout: 30_000 }).toBe(0);
    await a.getByRole('img', { name: '发送中' }).first().waitFor({ state: 'detached' });
    const picture = log
      .locator('.tt-bubble')
      .filter({ has: a.getByRole('button', { name: '查看图片' }) });
    expect(await openMenu(a, picture, chinese)).toEqual([
      '回复',
      '保存',
      '添加到表情',
      '转发',
      '多选',
      '撤回',
      '删除',
    ]);
    await a.getByRole('menuitem', { name: '回复' }).click();
    await send(a, '看这张', ui);
    await log.locator('.tt-msg-quote', { hasText: '[图片]' }).waitFor();

    const place = log.locator('.tt-bubble', { hasText: 'Tour Eiffel' });
    expect(await openMenu(a, place, chinese)).toEqual(['回复', '转发', '多选', '删除']);
    await closeMenu(a, place, chinese);
  });
});
