import type { UiLanguage } from '@teltlk/protocol';
import { useTranslation } from 'react-i18next';
import { loadNamespace } from './index';
import type { SecurityCatalog } from './security-en_US';

const loaders: Record<UiLanguage, () => Promise<SecurityCatalog>> = {
  en_US: () => import('./security-en_US').then((module) => module.security_en_US),
  zh_CN: () => import('./security-zh_CN').then((module) => module.security_zh_CN),
  zh_TW: () => import('./security-zh_TW').then((module) => module.security_zh_TW),
};

// The pages that import this module (lazy chunks all) wait for the texts before they show.
await loadNamespace('security', (language) => loaders[language]());

/** The security texts (step-up, addresses, activity, address undo, device approval). */
export function useSecurityTexts() {
  return useTranslation('security');
}
