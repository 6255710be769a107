import type { Conversation, Translation } from '@teltlk/protocol';
import type { LocalMessage } from './types.js';

/**
 * The rules of translating received messages, shared by the engine (what to ask the
 * server for) and the app (what a bubble shows), so both always agree.
 */

/** The language a conversation's messages are shown in: its override, else the mother tongue. */
export function translationTarget(
  conversation: Pick<Conversation, 'translateTo'> | null | undefined,
  motherTongue: string | null,
): string | null {
  return conversation?.translateTo ?? motherTongue;
}

export interface TranslationScope {
  selfId: string;
  /** The conversation's switch (`Conversation.translate`). */
  translate: boolean;
  /** From `translationTarget`. */
  target: string | null;
}

/**
 * A text from someone else, in a known language other than the target, in a conversation
 * with translation on. Languages compare exactly: `zh` and `zh-Hant` are different
 * languages to a reader (simplified and traditional script).
 */
export function needsTranslation(
  message: Pick<LocalMessage, 'senderId' | 'content' | 'lang' | 'revokedAt'>,
  scope: TranslationScope,
): boolean {
  return (
    scope.translate &&
    scope.target !== null &&
    message.senderId !== scope.selfId &&
    message.content.kind === 'text' &&
    message.revokedAt === null &&
    message.lang !== null &&
    message.lang !== scope.target
  );
}

/** Whether two copies of a translation say the same (a newer `at` is a change). */
function sameTranslation(a: Translation, b: Translation): boolean {
  return (
    a.messageId === b.messageId &&
    a.lang === b.lang &&
    a.status === b.status &&
    a.text === b.text &&
    a.error === b.error &&
    a.at === b.at
  );
}

/**
 * The next translations map of a conversation screen, reusing the previous Map and its
 * entries when nothing changed, so the screen re-renders only what did.
 */
export function stableTranslations(
  previous: ReadonlyMap<number, Translation>,
  next: readonly Translation[],
): ReadonlyMap<number, Translation> {
  let changed = previous.size !== next.length;
  const map = new Map<number, Translation>();
  for (const translation of next) {
    const before = previous.get(translation.seq);
    if (before && sameTranslation(before, translation)) {
      map.set(translation.seq, before);
    } else {
      map.set(translation.seq, translation);
      changed = true;
    }
  }
  return changed ? map : previous;
}

/**
 * Whether an incoming copy should replace the stored one. Copies may arrive out of order
 * (an answer that started before a socket frame): the newer wins; at the same time a
 * settled copy beats a pending one.
 */
export function isNewerTranslation(
  incoming: Translation,
  stored: Translation | undefined,
): boolean {
  if (!stored) return true;
  if (incoming.at !== stored.at) return incoming.at > stored.at;
  return stored.status === 'pending' && incoming.status !== 'pending';
}
