import type { UiLanguage } from '@teltlk/protocol';
import { useTranslation } from 'react-i18next';
import { loadNamespace } from './index';
import type { CallsCatalog } from './calls-en_US';

const loaders: Record<UiLanguage, () => Promise<CallsCatalog>> = {
  en_US: () => import('./calls-en_US').then((module) => module.calls_en_US),
  zh_CN: () => import('./calls-zh_CN').then((module) => module.calls_zh_CN),
  zh_TW: () => import('./calls-zh_TW').then((module) => module.calls_zh_TW),
};

// The call screens (a lazy chunk) wait for their texts before they show.
await loadNamespace('calls', (language) => loaders[language]());

/** The call screens' texts. */
export function useCallTexts() {
  return useTranslation('calls');
}
