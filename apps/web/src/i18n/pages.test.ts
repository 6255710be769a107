import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { en_US } from './en_US';
import { pages_en_US } from './pages-en_US';
import { pages_zh_CN } from './pages-zh_CN';
import { zh_CN } from './zh_CN';

/** The app's i18n module as a page finds it, new for each test. */
async function freshI18n() {
  vi.resetModules();
  return import('./index');
}

describe('the pages namespace in the app’s i18n', () => {
  beforeAll(() => {
    // The little of a browser the app's i18n touches: the document's language, storage.
    vi.stubGlobal('document', { documentElement: { lang: '' } });
    vi.stubGlobal('localStorage', { getItem: () => 'zh_CN', setItem: () => {} });
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it('is not there before a page asks for it, and is once its module has loaded', async () => {
    const { i18n, initI18n } = await freshI18n();
    await initI18n();
    expect(i18n.hasResourceBundle('zh_CN', 'pages')).toBe(false);
    await import('./pages');
    expect(i18n.hasResourceBundle('zh_CN', 'pages')).toBe(true);
    const t = i18n.getFixedT(null, 'pages');
    expect(t('wallet.title')).toBe(pages_zh_CN.wallet.title);
    // The main catalog's texts read through the same `t`, split sections included.
    expect(t('common.back')).toBe(zh_CN.common.back);
    expect(t('chat.title')).toBe(zh_CN.chat.title);
    expect(t('chat.send')).toBe(pages_zh_CN.chat.send);
  });

  it('asked for before i18n starts, comes with the start', async () => {
    const { i18n, initI18n } = await freshI18n();
    await import('./pages');
    expect(i18n.isInitialized).toBeFalsy();
    await initI18n();
    expect(i18n.getFixedT(null, 'pages')('wallet.title')).toBe(pages_zh_CN.wallet.title);
  });

  it('comes in the language switched to, beside the main catalog', async () => {
    const { i18n, initI18n, setUiLanguage } = await freshI18n();
    await initI18n();
    await import('./pages');
    await setUiLanguage('en_US');
    const t = i18n.getFixedT(null, 'pages');
    expect(t('wallet.title')).toBe(pages_en_US.wallet.title);
    expect(t('common.back')).toBe(en_US.common.back);
  });
});
