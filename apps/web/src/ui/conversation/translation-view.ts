import { translationTarget, type ConversationView } from '@teltlk/im-sdk';
import { findLanguage, type Translation, type TranslationInfoResult } from '@teltlk/protocol';

/**
 * Who translates a draft into another language (the preview): the server's provider;
 * the browser's on-device translator when the server has none; or nobody.
 */
export type TranslationSource = 'server' | 'device' | 'none';

/** Until the server has answered, it is assumed to translate (its cached copies show). */
export function translationSource(
  info: Pick<TranslationInfoResult, 'available'> | null,
  deviceAvailable: boolean,
): TranslationSource {
  if (!info || info.available) return 'server';
  return deviceAvailable ? 'device' : 'none';
}

/**
 * What the device translator made of a message: under way (within its time limit), a
 * text, a failure (it broke or did not answer in time: a tap tries again), or nothing to
 * show (no translator, a pair it cannot do, or a language pack not downloaded yet, which
 * the chat's banner speaks of).
 */
export type DeviceOutcome =
  { status: 'pending' } | { status: 'done'; text: string } | { status: 'failed' } | null;

/** What a bubble shows besides the original. */
export type BubbleTranslation =
  /** Nothing: the message needs no translation. */
  | { kind: 'none' }
  | { kind: 'pending' }
  | { kind: 'done'; text: string }
  /**
   * `code`: why (e.g. TRANSLATION_QUOTA_EXCEEDED), when the server said; `onDevice`: the
   * device's translator failed, and a retry goes to it.
   */
  | { kind: 'failed'; code: string | null; onDevice: boolean }
  /**
   * Nothing here translates the pair now, neither the server nor the device: the bubble
   * shows the original alone, and the chat's banner says why, once.
   */
  | { kind: 'unavailable' };

export interface BubbleTranslationInput {
  /** From `needsTranslation`. */
  needed: boolean;
  /** The server's translation into the current target, if any. */
  stored: Translation | undefined;
  /** The device's result, asked for where the server calls the pair unavailable. */
  device: DeviceOutcome;
}

/**
 * The translation state of one bubble. The server is asked first for every message (it
 * converts Chinese scripts even without a provider); where it has no provider for the
 * pair, the device translator takes over, if the browser has one.
 */
export function bubbleTranslation(input: BubbleTranslationInput): BubbleTranslation {
  if (!input.needed) return { kind: 'none' };
  const { stored, device } = input;
  switch (stored?.status) {
    case 'done':
      return stored.text === null ? { kind: 'pending' } : { kind: 'done', text: stored.text };
    case 'failed':
      return { kind: 'failed', code: stored.error, onDevice: false };
    case 'unavailable':
      return deviceTranslation(device);
    case 'pending':
    case undefined:
      return { kind: 'pending' };
  }
}

/** A bubble's state where the server has no provider for its pair: the device's. */
function deviceTranslation(device: DeviceOutcome): BubbleTranslation {
  if (!device) return { kind: 'unavailable' };
  switch (device.status) {
    case 'done':
      return { kind: 'done', text: device.text };
    case 'pending':
      return { kind: 'pending' };
    case 'failed':
      return { kind: 'failed', code: null, onDevice: true };
  }
}

/**
 * The source languages of shown messages that the server has no provider for into the
 * chat's target, each once, in the order they first appear: what the chat's banner names.
 */
export function unavailableSources(
  translations: ReadonlyMap<number, Translation>,
  target: string | null,
): string[] {
  const sources = new Set<string>();
  for (const translation of translations.values()) {
    if (translation.status === 'unavailable' && translation.lang === target) {
      sources.add(translation.from);
    }
  }
  return [...sources];
}

/** Whether the device should try a message: the server has no provider for its pair. */
export function deviceTakesOver(stored: Translation | undefined): boolean {
  return stored?.status === 'unavailable';
}

/**
 * Whether the translation goes above the original: the user's "mother tongue first"
 * setting, switched for a message whose order was tapped.
 */
export function translationFirst(motherTongueFirst: boolean, switched: boolean): boolean {
  return motherTongueFirst !== switched;
}

/** The set of switched messages after a tap on one of them. */
export function toggleSwitched(switched: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(switched);
  if (!next.delete(key)) next.add(key);
  return next;
}

/**
 * The value of a chat's "Translation" settings row: "Off", or the native name of the
 * language messages are shown in (null while the mother tongue is not known yet).
 */
export function translationSummary(
  conversation: Pick<ConversationView, 'translate' | 'translateTo'> | undefined,
  motherTongue: string | null,
  offLabel: string,
): string | null {
  if (conversation && !conversation.translate) return offLabel;
  const target = translationTarget(conversation, motherTongue);
  if (target === null) return null;
  return findLanguage(target)?.native ?? target;
}
