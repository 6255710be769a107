import { LANGUAGES } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { languageLabel, languageOptions, suggestedMotherTongue } from './languages';

describe('language names', () => {
  it('offers every protocol language with its native name', () => {
    const options = languageOptions('en-US');
    expect(options).toHaveLength(LANGUAGES.length);
    expect(options.find((option) => option.code === 'fr')).toMatchObject({
      native: 'Français',
      localized: 'French',
    });
  });

  it('lists no language twice under one name, in any interface language', () => {
    // Two codes CLDR names alike (tl/fil, ak/tw) would show as identical rows.
    for (const locale of ['en-US', 'zh-CN', 'zh-TW']) {
      const names = languageOptions(locale).map((option) => option.localized);
      expect(new Set(names).size, locale).toBe(names.length);
    }
    expect(new Set(LANGUAGES.map((language) => language.native)).size).toBe(LANGUAGES.length);
  });

  it('names languages in the interface language', () => {
    expect(languageOptions('zh-CN').find((option) => option.code === 'fr')?.localized).toBe('法语');
  });

  it('labels a language with its native and local names', () => {
    expect(languageLabel('fr', 'en-US')).toBe('Français (French)');
    expect(languageLabel('en', 'en-US')).toBe('English');
    expect(languageLabel('xx', 'en-US')).toBe('xx');
  });

  it('suggests the mother tongue of the interface language', () => {
    expect(suggestedMotherTongue('zh_TW')).toBe('zh-Hant');
    expect(suggestedMotherTongue('zh_CN')).toBe('zh');
    expect(suggestedMotherTongue('en_US')).toBe('en');
  });
});
