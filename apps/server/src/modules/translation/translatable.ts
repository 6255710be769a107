import type { Message, Translation } from '@teltlk/protocol';
import type { TranslationRow } from '../../db/schema.js';
import { isChineseScript, languageOfScript, type ChineseScripts } from './chinese.js';

/** A text message with its source language: what can be translated. */
export type Translatable = Message & { content: { kind: 'text'; text: string }; lang: string };

/** Whether a message is a live text whose language is known. */
export function isTranslatable(message: Message): message is Translatable {
  return message.content.kind === 'text' && message.lang !== null && message.revokedAt === null;
}

/**
 * Texts that may share a language model's prompt: one sender's in one conversation. A
 * crafted text can make a model copy its neighbours into its own translation, which goes
 * to its sender; sharing prompts only with the sender's own texts means there is nothing
 * to copy that the sender may not read (a late joiner never shares a prompt with history
 * from before they joined).
 */
export function messageScope(message: Translatable): string {
  return `${message.conversationId}\n${message.senderId}`;
}

/** A user's drafts share a language model's call with nobody else's texts. */
export function draftScope(userId: string): string {
  return `draft:${userId}`;
}

/** The UTC day of a time, as the quota counts. */
export function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

export function pendingOf(message: Translatable, lang: string, at: number): Translation {
  return {
    conversationId: message.conversationId,
    seq: message.seq,
    messageId: message.id,
    lang,
    from: message.lang,
    status: 'pending',
    text: null,
    error: null,
    at,
  };
}

/** What a reader is told of a pair no provider translates, when nothing is stored of it. */
export function unavailableOf(message: Translatable, lang: string, at: number): Translation {
  return {
    ...pendingOf(message, lang, at),
    status: 'unavailable',
    error: 'TRANSLATION_UNAVAILABLE',
  };
}

export function toTranslation(row: TranslationRow): Translation {
  return {
    conversationId: row.conversation_id,
    seq: Number(row.seq),
    messageId: row.message_id,
    lang: row.lang,
    from: row.source_lang,
    // Stored as a failure, since that is what a retry takes up again.
    status:
      row.status === 'failed' && row.error === 'TRANSLATION_UNAVAILABLE'
        ? 'unavailable'
        : row.status,
    text: row.text,
    error: row.error,
    at: Number(row.updated_at),
  };
}

/** Whether a reader of `lang` needs a message translated. */
export async function needsTranslation(
  scripts: ChineseScripts,
  message: Message,
  lang: string,
): Promise<boolean> {
  return (
    isTranslatable(message) &&
    textNeedsTranslation(scripts, message.content.text, message.lang, lang)
  );
}

/**
 * Whether a text in `from` needs translating for a reader of `to`. A Chinese text whose
 * characters are common to both scripts reads as it is in either; one in a script is
 * named by it already (`languageOf`), but the script is read again since the text's
 * language may have been its sender's guess.
 */
export async function textNeedsTranslation(
  scripts: ChineseScripts,
  text: string,
  from: string,
  to: string,
): Promise<boolean> {
  if (from === to) return false;
  if (!isChineseScript(from) || !isChineseScript(to)) return true;
  const script = await scripts.scriptOf(text);
  return script !== 'either' && languageOfScript(script) !== to;
}
