import { callApi } from '@teltlk/test-kit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  befriend,
  openChat,
  registerAccount,
  useInterface,
  type ApiAccount,
  type ChatTexts,
} from './harness.js';
import { expectAccessible } from './axe.js';
import { browserSuite } from './suite.js';

/**
 * Translation states a reader understands, on a server started without a translation
 * provider (the default): Ann reads English, Sofía writes Spanish, which nothing on the
 * server translates. Ann's browser either has no translator of its own (as most do), or
 * an on-device one that the test plays: one that does not answer, or one whose language
 * pack downloads on a tap. Each in the three interface languages.
 */

const suite = browserSuite();

interface Ui extends ChatTexts {
  /** The banner's name. */
  translation: string;
  serverCannot: string;
  close: string;
  translating: string;
  deviceFailed: string;
  showOriginalFirst: string;
  download: string;
  downloadProgress: string;
}

const UIS: [string, Ui][] = [
  [
    'en_US',
    {
      chats: 'Chats',
      sendMessage: 'Send message',
      message: 'Message',
      translation: 'Translation',
      serverCannot:
        'This server doesn’t translate Spanish into English, so those messages show as written.',
      close: 'Close',
      translating: 'Translating…',
      deviceFailed: 'Not translated on this device, tap to retry',
      showOriginalFirst: 'Show original first',
      download: 'Download language pack',
      downloadProgress: 'Language pack download',
    },
  ],
  [
    'zh_CN',
    {
      chats: '消息',
      sendMessage: '发消息',
      message: '消息',
      translation: '翻译',
      serverCannot: '本服务器暂不支持将西班牙语翻译成英语，这些消息将显示原文。',
      close: '关闭',
      translating: '正在翻译…',
      deviceFailed: '本机翻译失败，点击重试',
      showOriginalFirst: '原文优先显示',
      download: '下载语言包',
      downloadProgress: '语言包下载进度',
    },
  ],
  [
    'zh_TW',
    {
      chats: '訊息',
      sendMessage: '傳送訊息',
      message: '訊息',
      translation: '翻譯',
      serverCannot: '本伺服器暫不支援將西班牙文翻譯成英文，這些訊息將顯示原文。',
      close: '關閉',
      translating: '正在翻譯…',
      deviceFailed: '本機翻譯失敗，點擊重試',
      showOriginalFirst: '原文優先顯示',
      download: '下載語言套件',
      downloadProgress: '語言套件下載進度',
    },
  ],
];

const SPANISH = [
  'Buenos días, ¿nos vemos hoy en la estación?',
  'La casa es muy grande y tiene un jardín precioso.',
  'Mañana vamos a la playa con mis amigos de la universidad.',
];

/** Ann (English) and Sofía (Spanish), friends, and Sofía's messages in their chat. */
async function chatInSpanish(texts: readonly string[]): Promise<{ ann: ApiAccount }> {
  const { baseUrl } = suite.server;
  const [ann, sofia] = await Promise.all([
    registerAccount(baseUrl, 'Ann', undefined, 'en'),
    registerAccount(baseUrl, 'Sofía', undefined, 'es'),
  ]);
  await befriend(baseUrl, ann, sofia);
  const conversationId =
    ann.id < sofia.id ? `si_${ann.id}_${sofia.id}` : `si_${sofia.id}_${ann.id}`;
  for (const [index, text] of texts.entries()) {
    await callApi(baseUrl, 'POST', '/messages', {
      token: sofia.token,
      body: { conversationId, clientMsgId: `spanish-${index}`, content: { kind: 'text', text } },
    });
  }
  return { ann };
}

/** What the browser's Translator API does in a test: nothing, or as the test plays it. */
type DeviceMode = 'none' | 'not answering' | 'downloadable';

/** The test's hold on its on-device translator (`window.deviceTranslatorControl`). */
interface DeviceControl {
  answering: boolean;
  progress: ((loaded: number) => void) | null;
  finish: (() => void) | null;
}

/**
 * Replaces the browser's Translator API before the app loads: removed (`none`), or a
 * stand-in whose translations hang until the test lets them answer, and whose language
 * pack, where downloadable, downloads only within a tap and as the test says.
 */
function installDevice(mode: DeviceMode): void {
  const scope = globalThis as unknown as {
    Translator?: unknown;
    deviceTranslatorControl?: unknown;
  };
  delete scope.Translator;
  if (mode === 'none') return;
  const control: DeviceControl = {
    answering: mode === 'downloadable',
    progress: null,
    finish: null,
  };
  scope.deviceTranslatorControl = control;
  const translator = {
    translate: (text: string) =>
      control.answering ? Promise.resolve(`[device] ${text}`) : new Promise<string>(() => {}),
  };
  scope.Translator = {
    availability: () => Promise.resolve(mode === 'downloadable' ? 'downloadable' : 'available'),
    create: (options: { monitor?: (monitor: EventTarget) => void }) => {
      if (mode !== 'downloadable') return Promise.resolve(translator);
      if (!navigator.userActivation.isActive) {
        return Promise.reject(new DOMException('a download needs a tap', 'NotAllowedError'));
      }
      const monitor = new EventTarget();
      options.monitor?.(monitor);
      control.progress = (loaded) =>
        monitor.dispatchEvent(new ProgressEvent('downloadprogress', { loaded, total: 1 }));
      return new Promise((resolve) => {
        control.finish = () => resolve(translator);
      });
    },
  };
}

/**
 * Ann's browser in the interface `language`, with its Translator API as `mode` has it, in
 * the chat once Sofía's `texts` show.
 */
async function reader(
  ann: ApiAccount,
  language: string,
  ui: Ui,
  mode: DeviceMode,
  texts: readonly string[],
): Promise<Page> {
  const page = await suite.signedIn(ann);
  await page.context().addInitScript(installDevice, mode);
  await useInterface(page, language, ui);
  await openChat(page, /Sofía/, ui);
  for (const text of texts) await page.getByRole('log').getByText(text, { exact: true }).waitFor();
  return page;
}

/** The texts of one message bubble's paragraphs, in the order shown. */
function paragraphs(page: Page, containing: string): Promise<string[]> {
  return page
    .locator('.tt-bubble')
    .filter({ hasText: containing })
    .last()
    .locator('p')
    .allInnerTexts();
}

/** The device's translation of `text` shows first, its original below. */
async function translatedOnDevice(page: Page, text: string): Promise<boolean> {
  const [first, second, ...rest] = await paragraphs(page, text);
  return (
    rest.length === 0 &&
    first?.endsWith(`[device] ${text}`) === true &&
    second?.endsWith(text) === true &&
    !second.includes('[device]')
  );
}

/** Marks and buttons a bubble's translation may show below its text. */
const UNDER_BUBBLES = '.tt-msg-translating, .tt-msg-translation-retry, .tt-msg-translation';

describe.each(UIS)('translation states in %s', (language, ui) => {
  it('without a provider: says so once for the chat, not under each bubble, and stays closed', async () => {
    const { ann } = await chatInSpanish(SPANISH);
    const page = await reader(ann, language, ui, 'none', SPANISH);
    const banner = page.getByRole('complementary', { name: ui.translation });
    await banner.getByText(ui.serverCannot).waitFor();
    expect(await banner.count()).toBe(1);
    await expectAccessible(page, 'the chat with its translation banner');
    // Nothing under way under any bubble, nor anything else: the originals alone.
    await expect.poll(() => page.locator(UNDER_BUBBLES).count()).toBe(0);
    for (const text of SPANISH) expect(await paragraphs(page, text)).toEqual([text]);

    // Closed, it stays closed for this chat, after a reload too.
    await banner.getByRole('button', { name: ui.close }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('log').getByText(SPANISH[0]!, { exact: true }).waitFor();
    await expect.poll(() => page.locator(UNDER_BUBBLES).count()).toBe(0);
    expect(await page.getByRole('complementary', { name: ui.translation }).count()).toBe(0);
  });

  it('on the device: a translation that does not answer in time ends in a retry, which translates', async () => {
    const texts = SPANISH.slice(0, 1);
    const { ann } = await chatInSpanish(texts);
    const page = await reader(ann, language, ui, 'not answering', texts);
    const text = SPANISH[0]!;
    const bubble = page.locator('.tt-bubble').filter({ hasText: text }).last();
    await bubble.getByRole('img', { name: ui.translating }).waitFor();
    // The device translates: no banner for the pair.
    expect(await page.getByRole('complementary', { name: ui.translation }).count()).toBe(0);
    const retry = bubble.getByRole('button', { name: ui.deviceFailed });
    await retry.waitFor({ timeout: 20_000 });
    expect(await bubble.getByRole('img', { name: ui.translating }).count()).toBe(0);

    await page.evaluate(() => {
      const scope = globalThis as unknown as { deviceTranslatorControl: DeviceControl };
      scope.deviceTranslatorControl.answering = true;
    });
    await retry.click();
    await bubble.getByRole('button', { name: ui.showOriginalFirst }).waitFor();
    expect(await translatedOnDevice(page, text)).toBe(true);
  });

  it('on the device: a language pack downloads on a tap, showing its progress, then translates', async () => {
    const texts = SPANISH.slice(0, 2);
    const { ann } = await chatInSpanish(texts);
    const page = await reader(ann, language, ui, 'downloadable', texts);
    const banner = page.getByRole('complementary', { name: ui.translation });
    const download = banner.getByRole('button', { name: ui.download });
    await download.waitFor();
    expect(await page.locator(UNDER_BUBBLES).count()).toBe(0);

    await download.click();
    const progress = banner.getByRole('progressbar', { name: ui.downloadProgress });
    await progress.waitFor();
    await expectAccessible(page, 'a language pack downloading');
    await page.evaluate(() => {
      const scope = globalThis as unknown as { deviceTranslatorControl: DeviceControl };
      scope.deviceTranslatorControl.progress?.(0.4);
    });
    await banner.getByText('40%').waitFor();
    expect(await progress.evaluate((bar) => (bar as HTMLProgressElement).value)).toBeCloseTo(0.4);
    // While it downloads, the bubbles wait quietly: the banner says why.
    expect(await page.locator(UNDER_BUBBLES).count()).toBe(0);

    await page.evaluate(() => {
      const scope = globalThis as unknown as { deviceTranslatorControl: DeviceControl };
      scope.deviceTranslatorControl.finish?.();
    });
    await banner.waitFor({ state: 'detached' });
    for (const text of texts) {
      await expect.poll(() => translatedOnDevice(page, text)).toBe(true);
    }
  });
});
