import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../i18n/index';
import type { Message } from './error-message';

/** Translates a message descriptor outside React (toasts after a call). */
export function messageText(message: Message): string {
  return i18n.t(message.key, message.params ?? {});
}

/** Translates message descriptors in the current UI language, re-rendering on change. */
export function useMessageText(): (message: Message | null | undefined) => string | undefined {
  const { t } = useTranslation();
  return useCallback(
    (message) => (message ? t(message.key, message.params ?? {}) : undefined),
    [t],
  );
}
