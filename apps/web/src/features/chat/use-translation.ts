import { needsTranslation, type LocalMessage, type TranslationScope } from '@teltlk/im-sdk';
import type { Translation } from '@teltlk/protocol';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { deviceTranslator, type DevicePairState, type DeviceTranslator } from './device-translator';
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

const noSubscription = () => () => undefined;
const noVersion = () => 0;

/** Renders again on every change of the device translator's language pairs. */
export function useDevicePairs(device: DeviceTranslator | null): void {
  const version = device?.version ?? noVersion;
  useSyncExternalStore(device?.subscribe ?? noSubscription, version, version);
}

interface DeviceTranslation {
  outcome: DeviceOutcome;
  /** Tries the device again after its translator failed or did not answer in time. */
  retry: () => void;
}

/**
 * The device's translation of a text, started when first shown (and its pair ready) and
 * remembered for the page's life, so scrolling back shows it at once. Every call has a
 * time limit, so it ends done or failed; a pair the device cannot do now (a pack to
 * download, a failed download) shows nothing here: the chat's banner speaks of it.
 */
function useDeviceTranslation(
  text: string,
  from: string | null,
  to: string | null,
  enabled: boolean,
): DeviceTranslation {
  const device = enabled && from !== null && to !== null ? deviceTranslator() : null;
  useDevicePairs(device);
  const pair = device && from !== null && to !== null ? device.pairState(from, to) : null;
  const cached = device && from !== null && to !== null ? device.peek(text, from, to) : undefined;
  const [attempt, setAttempt] = useState(0);
  const key = `${attempt}\u0000${from ?? ''}>${to ?? ''}\u0000${text}`;
  const [result, setResult] = useState<{ key: string; text: string | null } | null>(null);
  const ready = pair?.kind === 'ready';

  useEffect(() => {
    if (device && from !== null && to !== null) device.prepare(from, to);
  }, [device, from, to]);

  useEffect(() => {
    if (!device || !ready || from === null || to === null || cached !== undefined) return;
    let live = true;
    void device.translate(text, from, to).then((translated) => {
      if (live) setResult({ key, text: translated });
    });
    return () => {
      live = false;
    };
  }, [device, ready, from, to, text, cached, key]);

  const retry = useCallback(() => setAttempt((count) => count + 1), []);

  return {
    outcome: deviceOutcome(pair, cached, result?.key === key ? result.text : undefined),
    retry,
  };
}

/**
 * What a bubble shows of the device's work: the remembered text; pending while the pair
 * is being checked or the text translated; the text or a failure once it answered (null
 * from the translator: failed, or out of time); nothing where the pair is not ready.
 */
function deviceOutcome(
  pair: DevicePairState | null,
  cached: string | undefined,
  answered: string | null | undefined,
): DeviceOutcome {
  if (!pair) return null;
  if (cached !== undefined) return { status: 'done', text: cached };
  if (pair.kind === 'checking') return { status: 'pending' };
  if (pair.kind !== 'ready') return null;
  if (answered === undefined) return { status: 'pending' };
  return answered === null ? { status: 'failed' } : { status: 'done', text: answered };
}

/** What a bubble shows of its translation, and how to try again after a failure. */
export interface BubbleTranslationState {
  state: BubbleTranslation;
  /** Makes a failed translation again: on the device where it failed there, else on the server. */
  retry: () => void;
}

/** A bubble's translation; asks the server for it while the bubble is on screen. */
export function useBubbleTranslation(
  message: LocalMessage,
  context: TranslationRowContext,
): BubbleTranslationState {
  const needed = needsTranslation(message, context.scope);
  const { seq } = message;
  const stored = seq === null ? undefined : context.translations.get(seq);
  const device = useDeviceTranslation(
    messageText(message) ?? '',
    message.lang,
    context.scope.target,
    needed && deviceTakesOver(stored),
  );

  // None yet, or one that may have changed since (the engine asks once a session).
  const ask = needed && seq !== null && stored?.status !== 'done' && stored?.status !== 'pending';
  const { request } = context;
  const target = context.scope.target;
  useEffect(() => {
    if (ask && seq !== null) request(seq);
  }, [ask, seq, request, target]);

  const state = bubbleTranslation({ needed, stored, device: device.outcome });
  const onDevice = state.kind === 'failed' && state.onDevice;
  const retry = onDevice
    ? device.retry
    : () => {
        if (seq !== null) context.retry(seq);
      };
  return { state, retry };
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
