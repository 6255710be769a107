import {
  needsTranslation,
  type ConversationHandle,
  type ConversationSnapshot,
  type ConversationView,
  type LocalMessage,
} from '@teltlk/im-sdk';
import { useCallback, useMemo, useState } from 'react';
import { useEngineSnapshot } from '../../app/engine';
import { toastFailure } from '../../ui/failure-toast';
import { toggleSwitched, translationSource } from '../../ui/conversation/translation-view';
import { deviceTranslator } from './device-translator';
import type { TranslationRowContext } from './use-translation';

/**
 * What message rows need for translation: the conversation's target and switch, the
 * engine's translations, where translations come from, and the order chosen per message.
 */
export function useTranslationRows(
  selfId: string,
  view: ConversationView | undefined,
  handle: ConversationHandle | undefined,
  snapshot: ConversationSnapshot | undefined,
  motherTongueFirst: boolean,
): TranslationRowContext | undefined {
  const engineSnapshot = useEngineSnapshot();
  const [switched, setSwitched] = useState<ReadonlySet<string>>(() => new Set());
  const source = translationSource(
    engineSnapshot?.translation ?? null,
    deviceTranslator() !== null,
  );
  const target = snapshot?.translationTarget ?? null;
  const translations = snapshot?.translations;
  const translate = view?.translate ?? true;
  const request = useCallback((seq: number) => handle?.translate([seq]), [handle]);
  const retry = useCallback(
    (seq: number) => void handle?.retranslate(seq).catch(toastFailure),
    [handle],
  );
  const onSwitch = useCallback(
    (key: string) => setSwitched((current) => toggleSwitched(current, key)),
    [],
  );
  return useMemo(
    () =>
      translations
        ? {
            scope: { selfId, translate, target },
            source,
            translations,
            motherTongueFirst,
            switched,
            onSwitch,
            request,
            retry,
          }
        : undefined,
    [
      selfId,
      translate,
      target,
      source,
      translations,
      motherTongueFirst,
      switched,
      onSwitch,
      request,
      retry,
    ],
  );
}

/** "Retranslate" is offered where the server translates and the message needs it. */
export function canRetranslate(message: LocalMessage, context: TranslationRowContext): boolean {
  return context.source === 'server' && needsTranslation(message, context.scope);
}
