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

type NamespaceLoader = (language: UiLanguage) => Promise<object>;

/**
 * Catalogs of texts only some pages show, a namespace each, registered by those pages as
 * they load (see loadNamespace): a language switched to gets them too.
 */
const namespaces = new Map<string, NamespaceLoader>();

async function ensureBundle(language: UiLanguage, ns: string, load: NamespaceLoader) {
  if (!i18n.hasResourceBundle(language, ns)) {
    i18n.addResourceBundle(language, ns, await load(language));
  }
}

async function ensureCatalog(language: UiLanguage): Promise<void> {
  // Catalogs load on demand, so a visitor downloads only the language shown.
  await Promise.all([
    ensureBundle(language, 'translation', loadCatalog),
    ...[...namespaces].map(([ns, load]) => ensureBundle(language, ns, load)),
  ]);
}

/**
 * Loads a namespace's catalog in the interface language, and in every language switched to
 * after; the pages that show its texts await it before they render. Asked for before
 * i18n has started (component tests import pages without the app), it comes with the
 * start instead.
 */
export async function loadNamespace(ns: string, load: NamespaceLoader): Promise<void> {
  namespaces.set(ns, load);
  if (i18n.isInitialized) await ensureBundle(currentUiLanguage(), ns, load);
}

/** Starts i18n in the stored language (or the default) before the first render. */
export async function initI18n(): Promise<UiLanguage> {
  const language = readStoredLanguage(globalThis.localStorage);
  await i18n.init({
    lng: language,
    fallbackLng: FALLBACK_UI_LANGUAGE,
    // A namespace's `t` also reads the main catalog: a page on the `pages` texts
    // (pages.ts) finds the shared ones (common, error, ...) with the same `t`.
    fallbackNS: 'translation',
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
