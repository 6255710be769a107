import type { LocalMessage } from '@teltlk/im-sdk';
import type { ReactNode } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { messageKey } from '../../ui/conversation/messages';
import {
  isTranslationFirst,
  useBubbleTranslation,
  type TranslationRowContext,
} from './use-translation';

/**
 * A received text with its translation: both, separated by a thin rule, the first in
 * normal text and the second smaller and muted; tapping the translation switches which
 * comes first. While the translation is on its way the original shows with a mark (the
 * server's answer, or the device's within its time limit); after a failure, with a retry
 * button. A pair nothing here translates shows the original alone: the chat's banner
 * says so once, not every bubble.
 */
export function TranslatedText({
  message,
  original,
  context,
}: {
  message: LocalMessage;
  /** The original text as the bubble renders it (mentions highlighted). */
  original: ReactNode;
  context: TranslationRowContext;
}) {
  const { t } = usePageTexts();
  const { state, retry } = useBubbleTranslation(message, context);
  const lang = message.lang ?? undefined;
  const originalText = (
    <p className="tt-msg-text" dir="auto" lang={lang}>
      {original}
    </p>
  );

  switch (state.kind) {
    case 'none':
    case 'unavailable':
      return originalText;
    case 'pending':
      return (
        <>
          {originalText}
          <span className="tt-msg-translating" role="img" aria-label={t('translation.pending')} />
        </>
      );
    case 'failed':
      return (
        <>
          {originalText}
          <button type="button" className="tt-msg-translation-retry" onClick={retry}>
            {state.onDevice
              ? t('translation.deviceFailed')
              : state.code === 'TRANSLATION_QUOTA_EXCEEDED'
                ? t('error.TRANSLATION_QUOTA_EXCEEDED')
                : t('translation.failed')}
          </button>
        </>
      );
    case 'done':
      break;
  }

  const first = isTranslationFirst(message, context);
  const translation = (
    <div className={first ? 'tt-msg-translation' : 'tt-msg-translation tt-msg-second'}>
      <p className="tt-msg-text" dir="auto" lang={context.scope.target ?? undefined}>
        <span className="tt-visually-hidden">{t('translation.translated')}: </span>
        {state.text}
      </p>
      {/* Covers the translation: the tap that switches the order, named for what it does. */}
      <button
        type="button"
        className="tt-msg-swap"
        aria-label={
          first ? t('translation.showOriginalFirst') : t('translation.showTranslationFirst')
        }
        onClick={() => context.onSwitch(messageKey(message))}
      />
    </div>
  );
  const source = (
    <div className={first ? 'tt-msg-original tt-msg-second' : 'tt-msg-original'}>
      <p className="tt-msg-text" dir="auto" lang={lang}>
        <span className="tt-visually-hidden">{t('translation.original')}: </span>
        {original}
      </p>
    </div>
  );
  return (
    <>
      {first ? translation : source}
      <hr className="tt-msg-rule" />
      {first ? source : translation}
    </>
  );
}
