import { needsTranslation, type LocalMessage, type TranslationScope } from '@teltlk/im-sdk';
import type { Translation } from '@teltlk/protocol';
import { useEffect, useState } from 'react';
import { deviceTranslator } from './device-translator';
import { messageKey, messageText } from '../../ui/conversation/messages';
import {
  bubbleTranslation,
  deviceTakesOver,
  translationFirst,
  type BubbleTranslation,
  type DeviceOutcome,
  type TranslationSource,
} from '../../ui/conversation/translation-view';

/** What message rows need to show translations. */
export interface TranslationRowContext {
  scope: TranslationScope;
  /** Who translates drafts (the preview under the message box). */
  source: TranslationSource;
  /** The server's translations of the shown messages, by seq. */
  translations: ReadonlyMap<number, Translation>;
  /** The user's "mother tongue first" setting. */
  motherTongueFirst: boolean;
  /** Keys (`messageKey`) of messages whose order was switched by a tap. */
  switched: ReadonlySet<string>;
  onSwitch: (key: string) => void;
  /** Asks the server for a message's translation (the engine batches and deduplicates). */
  request: (seq: number) => void;
  /** Makes a failed (or any) translation again. */
  retry: (seq: number) => void;
}

/**
 * The device's translation of a text, started when first shown and remembered for the
 * page's life, so scrolling back shows it at once. null: disabled or not possible.
 */
function useDeviceTranslation(
  text: string,
  from: string | null,
  to: string | null,
  enabled: boolean,
): DeviceOutcome {
  const device = enabled && from !== null && to !== null ? deviceTranslator() : null;
  const cached = device && from !== null && to !== null ? device.peek(text, from, to) : undefined;
  const key = `${from ?? ''}>${to ?? ''}\u0000${text}`;
  const [result, setResult] = useState<{ key: string; text: string | null } | null>(null);

  useEffect(() => {
    if (!device || from === null || to === null || cached !== undefined) return;
    let live = true;
    void device.translate(text, from, to).then((translated) => {
      if (live) setResult({ key, text: translated });
    });
    return () => {
      live = false;
    };
  }, [device, from, to, text, cached, key]);

  if (!device) return null;
  if (cached !== undefined) return { status: 'done', text: cached };
  if (result?.key !== key) return { status: 'pending' };
  return result.text === null ? null : { status: 'done', text: result.text };
}

/** A bubble's translation; asks the server for it while the bubble is on screen. */
export function useBubbleTranslation(
  message: LocalMessage,
  context: TranslationRowContext,
): BubbleTranslation {
  const needed = needsTranslation(message, context.scope);
  const { seq } = message;
  const stored = seq === null ? undefined : context.translations.get(seq);
  const device = useDeviceTranslation(
    messageText(message) ?? '',
    message.lang,
    context.scope.target,
    needed && deviceTakesOver(stored),
  );

  const ask = needed && stored === undefined && seq !== null;
  const { request } = context;
  const target = context.scope.target;
  useEffect(() => {
    if (ask && seq !== null) request(seq);
  }, [ask, seq, request, target]);

  return bubbleTranslation({ needed, stored, device });
}

/** The translation a bubble shows now (for "Copy translation"), or null. */
export function shownTranslation(
  message: LocalMessage,
  context: TranslationRowContext,
): string | null {
  const { lang, seq } = message;
  const target = context.scope.target;
  const stored = seq === null ? undefined : context.translations.get(seq);
  const onDevice =
    deviceTakesOver(stored) && lang !== null && target !== null
      ? deviceTranslator()?.peek(messageText(message) ?? '', lang, target)
      : undefined;
  const state = bubbleTranslation({
    needed: needsTranslation(message, context.scope),
    stored,
    device: onDevice === undefined ? null : { status: 'done', text: onDevice },
  });
  return state.kind === 'done' ? state.text : null;
}

/** Whether this message's translation goes above its original now. */
export function isTranslationFirst(message: LocalMessage, context: TranslationRowContext): boolean {
  return translationFirst(context.motherTongueFirst, context.switched.has(messageKey(message)));
}
