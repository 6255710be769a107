import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  befriend,
  launchBrowser,
  openChat,
  registerAccount,
  send,
  signIn,
  startServer,
  useInterface,
  type ApiAccount,
  type ChatTexts,
  type RunningServer,
} from './harness.js';

/**
 * An English and a Spanish speaker chat in two browsers, translated by a real Apertium
 * APY server (CI installs and starts it; TEST_APERTIUM_URL points at it): each sees the
 * other's messages translated first, can switch to the original, copy either text or
 * retranslate from the message menu, previews their own
 * words in the other's language before sending, and turns translation off for the chat
 * on the tongue page. Readers of Simplified and Traditional Chinese need no provider:
 * the server converts between the scripts itself.
 */

const APERTIUM_URL = process.env.TEST_APERTIUM_URL;

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const consoleErrors: string[][] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer(APERTIUM_URL ? { TRANSLATE_APERTIUM_URL: APERTIUM_URL } : {}),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
  expect(consoleErrors.flat()).toEqual([]);
});

async function signedIn(account: ApiAccount): Promise<Page> {
  const { context, page, errors } = await signIn(browser, server.baseUrl, account);
  contexts.push(context);
  consoleErrors.push(errors);
  return page;
}

/** The interface texts the test goes by, in one interface language. */
interface Ui extends ChatTexts {
  showOriginalFirst: string;
  showTranslationFirst: string;
  chatSettings: string;
  translation: string;
  translateMessages: string;
  confirm: string;
}

const ZH_CN: Ui = {
  chats: '消息',
  sendMessage: '发消息',
  message: '消息',
  showOriginalFirst: '原文优先显示',
  showTranslationFirst: '译文优先显示',
  chatSettings: '聊天设置',
  translation: '翻译',
  translateMessages: '翻译消息',
  confirm: '确定',
};
const ZH_TW: Ui = {
  chats: '訊息',
  sendMessage: '傳送訊息',
  message: '訊息',
  showOriginalFirst: '原文優先顯示',
  showTranslationFirst: '譯文優先顯示',
  chatSettings: '聊天設定',
  translation: '翻譯',
  translateMessages: '翻譯訊息',
  confirm: '確定',
};

/** The texts of one message bubble's paragraphs, in the order shown. */
async function paragraphs(page: Page, containing: string): Promise<string[]> {
  const bubble = page.locator('.tt-bubble').filter({ hasText: containing }).last();
  return bubble.locator('p').allInnerTexts();
}

describe.skipIf(!APERTIUM_URL)('chat translated into each reader’s mother tongue', () => {
  it('shows the translation first, switches to the original, and turns off per chat', async () => {
    const [ann, sofia] = await Promise.all([
      registerAccount(server.baseUrl, 'Ann', undefined, 'en'),
      registerAccount(server.baseUrl, 'Sofia', undefined, 'es'),
    ]);
    await befriend(server.baseUrl, ann, sofia);
    const a = await signedIn(ann);
    const s = await signedIn(sofia);
    await openChat(a, /Sofia/);
    await openChat(s, /Ann/);

    // Before sending, Ann previews her words in Sofía's mother tongue (under "+").
    await a.getByRole('button', { name: 'More to send' }).click();
    await a.getByRole('button', { name: 'Preview translation' }).click();
    await a.getByRole('textbox', { name: 'Message' }).fill('The house is very big.');
    await a.locator('.tt-composer-preview-text', { hasText: /casa/i }).waitFor({ timeout: 30_000 });

    // Ann writes English; Sofía reads it in Spanish first, the original below.
    await send(a, 'The house is very big.');
    await a.getByRole('button', { name: 'Stop previewing the translation' }).click();
    const toOriginal = s.getByRole('button', { name: 'Show original first' });
    await toOriginal.waitFor({ timeout: 30_000 });
    const spanishFirst = await paragraphs(s, 'The house is very big.');
    expect(spanishFirst[0]).toMatch(/casa/i);
    expect(spanishFirst.at(-1)).toContain('The house is very big.');

    // Tapping the translation puts the original first.
    await toOriginal.click();
    await s.getByRole('button', { name: 'Show translation first' }).waitFor();
    const originalFirst = await paragraphs(s, 'The house is very big.');
    expect(originalFirst[0]).toContain('The house is very big.');
    expect(originalFirst.at(-1)).toMatch(/casa/i);

    // Her menu copies either text, and makes the translation again.
    await s
      .locator('.tt-bubble')
      .filter({ hasText: 'The house is very big.' })
      .last()
      .click({ button: 'right' });
    await s.getByRole('menuitem', { name: 'Copy translation' }).waitFor();
    await s.getByRole('menuitem', { name: 'Copy original' }).waitFor();
    await s.getByRole('menuitem', { name: 'Retranslate' }).click();
    // The translation is briefly pending, so wait for it to come back rather than for a
    // button that may still be on screen from before.
    await expect
      .poll(async () => (await paragraphs(s, 'The house is very big.')).at(-1))
      .toMatch(/casa/i);
    await s.getByRole('button', { name: 'Show translation first' }).waitFor();

    // Sofía answers in Spanish; Ann reads it in English first.
    await send(s, 'La casa es muy grande.');
    await a.getByRole('button', { name: 'Show original first' }).waitFor({ timeout: 30_000 });
    const englishFirst = await paragraphs(a, 'La casa es muy grande.');
    expect(englishFirst[0]).toMatch(/house/i);
    expect(englishFirst.at(-1)).toContain('La casa es muy grande.');

    // Ann turns translation off for this chat on the tongue page.
    await a.getByRole('link', { name: 'Chat settings' }).click();
    await a.getByRole('link', { name: /^Translation/ }).click();
    await a.getByRole('heading', { name: 'Translation' }).waitFor();
    await a.getByRole('switch', { name: 'Translate messages' }).click();
    await a.getByRole('button', { name: 'Confirm' }).click();
    await a.getByRole('link', { name: /^Translation/ }).waitFor();
    await a.goBack();
    await a.getByRole('textbox', { name: 'Message' }).waitFor();
    await send(s, 'Hasta mañana, amiga.');
    await a.getByText('Hasta mañana, amiga.', { exact: true }).waitFor();
    expect(await paragraphs(a, 'Hasta mañana, amiga.')).toEqual(['Hasta mañana, amiga.']);
  });

  it('works alike in Simplified and Traditional Chinese', async () => {
    const [ann, sofia] = await Promise.all([
      registerAccount(server.baseUrl, 'Annie', undefined, 'en'),
      registerAccount(server.baseUrl, 'Sofi', undefined, 'es'),
    ]);
    await befriend(server.baseUrl, ann, sofia);
    const a = await signedIn(ann);
    const s = await signedIn(sofia);
    await useInterface(a, 'zh_CN', ZH_CN);
    await useInterface(s, 'zh_TW', ZH_TW);
    await openChat(a, /Sofi/, ZH_CN);
    await openChat(s, /Annie/, ZH_TW);

    // Ann (Simplified Chinese interface, English mother tongue) writes English; Sofía
    // (Traditional Chinese interface, Spanish mother tongue) reads Spanish first.
    await send(a, 'The house is very big.', ZH_CN);
    await s.getByRole('button', { name: ZH_TW.showOriginalFirst }).click({ timeout: 30_000 });
    await s.getByRole('button', { name: ZH_TW.showTranslationFirst }).waitFor();
    expect((await paragraphs(s, 'The house is very big.'))[0]).toContain('The house is very big.');

    await send(s, 'La casa es muy grande.', ZH_TW);
    await a.getByRole('button', { name: ZH_CN.showOriginalFirst }).waitFor({ timeout: 30_000 });
    expect((await paragraphs(a, 'La casa es muy grande.'))[0]).toMatch(/house/i);

    await a.getByRole('link', { name: ZH_CN.chatSettings }).click();
    await a.getByRole('link', { name: new RegExp(`^${ZH_CN.translation}`) }).click();
    await a.getByRole('heading', { name: ZH_CN.translation, exact: true }).waitFor();
    await a.getByRole('switch', { name: ZH_CN.translateMessages }).click();
    await a.getByRole('button', { name: ZH_CN.confirm }).click();
    await a.getByRole('link', { name: new RegExp(`^${ZH_CN.translation}`) }).waitFor();
  });
});

describe('Simplified and Traditional Chinese readers, with or without a provider', () => {
  it('converts between the scripts, and leaves a text in the reader’s own script alone', async () => {
    const [lin, mei] = await Promise.all([
      registerAccount(server.baseUrl, 'Lin', undefined, 'zh'),
      registerAccount(server.baseUrl, 'Mei', undefined, 'zh-Hant'),
    ]);
    await befriend(server.baseUrl, lin, mei);
    const l = await signedIn(lin);
    const m = await signedIn(mei);
    await useInterface(l, 'zh_CN', ZH_CN);
    await useInterface(m, 'zh_TW', ZH_TW);
    await openChat(l, /Mei/, ZH_CN);
    await openChat(m, /Lin/, ZH_TW);

    // Lin writes Simplified; Mei reads it in Traditional, with Taiwan's words, first.
    await send(l, '我的鼠标和软件都坏了', ZH_CN);
    await m.getByRole('button', { name: ZH_TW.showOriginalFirst }).waitFor({ timeout: 30_000 });
    const converted = await paragraphs(m, '我的鼠标和软件都坏了');
    expect(converted).toHaveLength(2);
    expect(converted[0]).toContain('我的滑鼠和軟體都壞了');
    expect(converted[1]).toContain('我的鼠标和软件都坏了');

    // Mei writes Traditional; Lin reads it in Simplified first.
    await send(m, '今天天氣很好，我們去公園散步吧', ZH_TW);
    await l.getByRole('button', { name: ZH_CN.showOriginalFirst }).waitFor({ timeout: 30_000 });
    const simplified = await paragraphs(l, '今天天氣很好，我們去公園散步吧');
    expect(simplified).toHaveLength(2);
    expect(simplified[0]).toContain('今天天气很好，我们去公园散步吧');
    expect(simplified[1]).toContain('今天天氣很好，我們去公園散步吧');

    // Lin writes Traditional, then Simplified: by the time the second is converted for
    // Mei, the first would show any translation, mark or note it was going to.
    await send(l, '謝謝你的幫忙', ZH_CN);
    await send(l, '明天见', ZH_CN);
    await expect.poll(async () => (await paragraphs(m, '明天见'))[0]).toContain('明天見');
    expect(await paragraphs(m, '謝謝你的幫忙')).toEqual(['謝謝你的幫忙']);
    const own = m.locator('.tt-bubble').filter({ hasText: '謝謝你的幫忙' }).last();
    expect(
      await own
        .locator('.tt-msg-translating, .tt-msg-translation-note, .tt-msg-translation-retry')
        .count(),
    ).toBe(0);
    // Nor does either see a translation of their own messages.
    expect(await paragraphs(m, '今天天氣很好，我們去公園散步吧')).toEqual([
      '今天天氣很好，我們去公園散步吧',
    ]);
    expect(await paragraphs(l, '我的鼠标和软件都坏了')).toEqual(['我的鼠标和软件都坏了']);
  });
});
