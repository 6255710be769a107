import { FALLBACK_UI_LANGUAGE, type UiLanguage } from '@teltlk/protocol';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadCatalog } from './catalogs';
import {
  applyDocumentLanguage,
  isUiLanguage,
  readStoredLanguage,
  rememberUiLanguage,
} from './language';

export const i18n = i18next.createInstance();
i18n.use(initReactI18next);

async function ensureCatalog(language: UiLanguage): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  // Catalogs load on demand, so a visitor downloads only the language shown.
  i18n.addResourceBundle(language, 'translation', await loadCatalog(language));
}

/** Starts i18n in the stored language (or the default) before the first render. */
export async function initI18n(): Promise<UiLanguage> {
  const language = readStoredLanguage(globalThis.localStorage);
  await i18n.init({
    lng: language,
    fallbackLng: FALLBACK_UI_LANGUAGE,
    resources: {},
    interpolation: { prefix: '{', suffix: '}', escapeValue: false },
    react: { useSuspense: false },
    // Keeps the library's advertisement out of users' consoles.
    showSupportNotice: false,
  });
  await ensureCatalog(language);
  await i18n.changeLanguage(language);
  applyDocumentLanguage(language);
  return language;
}

export function currentUiLanguage(): UiLanguage {
  const language = i18n.language;
  return isUiLanguage(language) ? language : readStoredLanguage(globalThis.localStorage);
}

/** Switches the interface language at once and remembers it on this device. */
export async function setUiLanguage(language: UiLanguage): Promise<void> {
  await ensureCatalog(language);
  await i18n.changeLanguage(language);
  rememberUiLanguage(language);
}
