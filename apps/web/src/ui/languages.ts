import { LANGUAGES } from '@teltlk/protocol';

export interface LanguageOption {
  code: string;
  /** The language's name for itself. */
  native: string;
  /** The language's name in the interface language. */
  localized: string;
  english: string;
}

function languageNames(locale: string): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' });
  } catch {
    return null;
  }
}

function capitalise(text: string, locale: string): string {
  const first = Array.from(text)[0];
  return first ? first.toLocaleUpperCase(locale) + text.slice(first.length) : text;
}

/** Every mother tongue with its native name and its name in the interface language. */
export function languageOptions(locale: string): LanguageOption[] {
  const names = languageNames(locale);
  const collator = new Intl.Collator(locale);
  return LANGUAGES.map((language) => {
    const localized = names?.of(language.code);
    return {
      code: language.code,
      native: language.native,
      localized: localized ? capitalise(localized, locale) : language.english,
      english: language.english,
    };
  }).sort((a, b) => collator.compare(a.localized, b.localized));
}

/** "Français (French)"; just the name when both are the same. */
export function optionLabel(option: Pick<LanguageOption, 'native' | 'localized'>): string {
  return option.localized === option.native
    ? option.native
    : `${option.native} (${option.localized})`;
}

/** A language's `optionLabel` by its code; the code itself for one not in the list. */
export function languageLabel(code: string, locale: string): string {
  const language = LANGUAGES.find((item) => item.code === code);
  if (!language) return code;
  const localized = languageNames(locale)?.of(code);
  const local = localized ? capitalise(localized, locale) : language.english;
  return optionLabel({ native: language.native, localized: local });
}

/** A language's name in the interface language ("Traditional Chinese", "繁体中文"). */
export function languageName(code: string, locale: string): string {
  const localized = languageNames(locale)?.of(code);
  if (localized) return capitalise(localized, locale);
  return LANGUAGES.find((item) => item.code === code)?.english ?? code;
}

/** The mother tongue to suggest first: the interface language's. */
export function suggestedMotherTongue(uiLanguage: string): string {
  return uiLanguage === 'zh_TW' ? 'zh-Hant' : uiLanguage === 'zh_CN' ? 'zh' : 'en';
}
