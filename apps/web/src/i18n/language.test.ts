import { describe, expect, it } from 'vitest';
import {
  intlLocale,
  isUiLanguage,
  LANGUAGE_STORAGE_KEY,
  readStoredLanguage,
  resolveUiLanguage,
} from './language';

describe('interface language', () => {
  it('keeps a stored language the app has', () => {
    expect(resolveUiLanguage('en_US')).toBe('en_US');
    expect(resolveUiLanguage('zh_TW')).toBe('zh_TW');
  });

  it('falls back to Simplified Chinese for anything else', () => {
    expect(resolveUiLanguage(null)).toBe('zh_CN');
    expect(resolveUiLanguage(undefined)).toBe('zh_CN');
    expect(resolveUiLanguage('fr_FR')).toBe('zh_CN');
    expect(resolveUiLanguage('en-US')).toBe('zh_CN');
    expect(resolveUiLanguage('')).toBe('zh_CN');
  });

  it('reads the spec’s storage key and survives a storage that throws', () => {
    const storage = { getItem: (key: string) => (key === LANGUAGE_STORAGE_KEY ? 'en_US' : null) };
    expect(LANGUAGE_STORAGE_KEY).toBe('currentLanguage');
    expect(readStoredLanguage(storage)).toBe('en_US');
    expect(
      readStoredLanguage({
        getItem: () => {
          throw new Error('blocked');
        },
      }),
    ).toBe('zh_CN');
    expect(readStoredLanguage(undefined)).toBe('zh_CN');
  });

  it('maps to BCP 47 tags for Intl and <html lang>', () => {
    expect(intlLocale('en_US')).toBe('en-US');
    expect(intlLocale('zh_CN')).toBe('zh-CN');
    expect(intlLocale('zh_TW')).toBe('zh-TW');
  });

  it('recognises only the three interface languages', () => {
    expect(isUiLanguage('zh_CN')).toBe(true);
    expect(isUiLanguage('zh')).toBe(false);
    expect(isUiLanguage(3)).toBe(false);
  });
});
