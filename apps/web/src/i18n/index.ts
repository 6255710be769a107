import { FALLBACK_UI_LANGUAGE, type UiLanguage } from '@teltlk/protocol';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Catalog } from './en_US';
import { LANGUAGE_STORAGE_KEY, intlLocale, isUiLanguage, readStoredLanguage } from './language';

/** Catalogs load on demand, so a visitor downloads only the language shown. */
const loaders: Record<UiLanguage, () => Promise<Catalog>> = {
  en_US: () => import('./en_US').then((module) => module.en_US),
  zh_CN: () => import('./zh_CN').then((module) => module.zh_CN),
  zh_TW: () => import('./zh_TW').then((module) => module.zh_TW),
};

export const i18n = i18next.createInstance();
i18n.use(initReactI18next);

async function ensureCatalog(language: UiLanguage): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  i18n.addResourceBundle(language, 'translation', await loaders[language]());
}

function applyDocumentLanguage(language: UiLanguage): void {
  document.documentElement.lang = intlLocale(language);
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
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // The choice still applies to this visit.
  }
  applyDocumentLanguage(language);
}
