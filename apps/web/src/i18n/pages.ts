import type { UiLanguage } from '@teltlk/protocol';
import { useTranslation } from 'react-i18next';
import { loadNamespace } from './index';
import type { PagesCatalog } from './pages-en_US';

const loaders: Record<UiLanguage, () => Promise<PagesCatalog>> = {
  en_US: () => import('./pages-en_US').then((module) => module.pages_en_US),
  zh_CN: () => import('./pages-zh_CN').then((module) => module.pages_zh_CN),
  zh_TW: () => import('./pages-zh_TW').then((module) => module.pages_zh_TW),
};

// The pages that import this module (lazy chunks all) wait for the texts before they show.
await loadNamespace('pages', (language) => loaders[language]());

/**
 * The texts of the pages beyond the first screen; the main catalog's keys read through
 * it too (i18next's fallback namespace), so a page needs no other.
 */
export function usePageTexts() {
  return useTranslation('pages');
}
