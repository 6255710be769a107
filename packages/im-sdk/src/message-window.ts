import { isQuoteAvailable } from '@teltlk/protocol';
import type { MessageWindow } from './handle.js';
import type { LocalWriter } from './local-writer.js';
import { isBurnt, isShown, toLocal, withoutQuote } from './reducers.js';
import type { StoredMessage } from './store.js';
import type { TranslationSync } from './translation-sync.js';

/**
 * A conversation screen's window, read from the local database: its newest `count`
 * shown messages and ours on their way, quotes of burnt messages shown unavailable, when
 * the next one burns, and the translations of what shows.
 */
export async function readWindow(
  writer: Pick<LocalWriter, 'store' | 'conversations'>,
  translation: Pick<TranslationSync, 'targetOf' | 'shown'>,
  conversationId: string,
  count: number,
): Promise<MessageWindow> {
  const store = writer.store;
  const conversation = writer.conversations.get(conversationId);
  const target = translation.targetOf(conversation);
  if (!store) {
    return {
      messages: [],
      hasMore: false,
      nextBurnAt: null,
      translationTarget: target,
      translations: [],
    };
  }
  const now = Date.now();
  const [newest, pending] = await Promise.all([
    store.newest(conversationId, conversation?.minSeq ?? 0, count + 1, (row) => isShown(row, now)),
    store.pendingOf(conversationId),
  ]);
  const shown = newest.slice(0, count).reverse();
  // Quotes of messages burnt since show as unavailable (they leave the device later).
  const quoted = await store.bySeqs(conversationId, shown.flatMap(quotedSeq));
  const burntQuoted = new Set(quoted.filter((row) => isBurnt(row, now)).map((row) => row.seq));
  let nextBurnAt: number | null = null;
  for (const row of [...shown, ...quoted]) {
    if (
      row.burnAt !== null &&
      row.burnAt > now &&
      (nextBurnAt === null || row.burnAt < nextBurnAt)
    ) {
      nextBurnAt = row.burnAt;
    }
  }
  const olderOnServer = conversation ? !conversation.historyComplete : false;
  const translations =
    conversation?.translate && target !== null
      ? await translation.shown(store, conversationId, target, shown)
      : [];
  return {
    messages: [...shown, ...pending].map((row) =>
      quotedSeq(row).some((seq) => burntQuoted.has(seq))
        ? toLocal({ ...row, content: withoutQuote(row.content) })
        : toLocal(row),
    ),
    hasMore: newest.length > count || olderOnServer,
    nextBurnAt,
    translationTarget: target,
    translations,
  };
}

/** The seq a reply quotes while its quote still shows it, as a list of zero or one. */
function quotedSeq(row: StoredMessage): number[] {
  const quote = row.content.kind === 'text' ? row.content.quote : undefined;
  return quote && isQuoteAvailable(quote) ? [quote.seq] : [];
}
