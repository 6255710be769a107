import { DEFAULT_UI_LANGUAGE, UI_LANGUAGES, type UiLanguage } from '@teltlk/protocol';

/** localStorage key of the interface language; the spec names it `currentLanguage`. */
export const LANGUAGE_STORAGE_KEY = 'currentLanguage';

export function isUiLanguage(value: unknown): value is UiLanguage {
  return typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);
}

/** The stored language when it is one we have, otherwise the product default (zh_CN). */
export function resolveUiLanguage(stored: string | null | undefined): UiLanguage {
  return isUiLanguage(stored) ? stored : DEFAULT_UI_LANGUAGE;
}

/** BCP 47 tag of a UI language, for Intl and the document's lang attribute. */
export function intlLocale(language: UiLanguage): string {
  return language.replace('_', '-');
}

export function readStoredLanguage(storage: Pick<Storage, 'getItem'> | undefined): UiLanguage {
  try {
    return resolveUiLanguage(storage?.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    // Storage can throw when disabled (private modes, blocked cookies).
    return resolveUiLanguage(null);
  }
}

export function applyDocumentLanguage(language: UiLanguage): void {
  document.documentElement.lang = intlLocale(language);
}

/** Keeps the interface language on this device and gives the document its tag. */
export function rememberUiLanguage(language: UiLanguage): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // The choice still applies to this visit.
  }
  applyDocumentLanguage(language);
}
