import {
  isQuoteAvailable,
  type Conversation,
  type MediaKind,
  type SendableContent,
  type Translation,
} from '@teltlk/protocol';
import { Dexie, type Table } from 'dexie';
import { withoutQuote } from './reducers.js';
import type { LocalMessage } from './types.js';

/**
 * A conversation as the local database keeps it: the server's view plus what this
 * device knows about its own copy of the messages.
 */
export interface StoredConversation extends Conversation {
  /**
   * Local messages are complete from `coveredFrom` up to `pulledSeq` (hidden and burnt
   * ones aside). null: nothing was pulled yet; opening the conversation loads the
   * newest page.
   */
  coveredFrom: number | null;
  pulledSeq: number;
  /** No older history on the server below `coveredFrom`. */
  historyComplete: boolean;
  /** updatedAt of the newest server copy applied: member state older than it is stale. */
  stateAt: number;
  /** Seq of the newest burn notice reflected in `burnSeconds`. */
  burnSeq: number;
  /** A read the server has not confirmed yet; sent again when the socket is back. */
  pendingRead: number | null;
}

export interface StoredMessage extends LocalMessage {
  /** The server's id; null until acknowledged. */
  id: string | null;
  /** Deleted for me (kept as a marker so a late pull does not bring it back). */
  hidden?: 1;
  /** The conversation id while unacknowledged (an index of pending sends). */
  pending?: string;
  /** Local send order of our own messages. */
  order: number;
}

export interface OutboxEntry {
  id?: number;
  clientMsgId: string;
  conversationId: string;
  content: SendableContent;
  createdAt: number;
  /**
   * Media still to upload: the bytes, and the upload's address once it began. The
   * message is sent once the upload is done (the content then names the stored media).
   */
  upload?: {
    kind: MediaKind;
    blob: Blob;
    name: string;
    url: string | null;
    /** What the server is told of it beside its bytes (a length, a waveform, a size). */
    metadata?: Record<string, string>;
    /** A video's poster photo, uploaded first; `id` once the server stored it. */
    poster?: { blob: Blob; url: string | null; id?: string };
    paused?: boolean;
    /** The server refused it for good (code); a retry starts it again. */
    failed?: string;
  };
}

export interface Draft {
  conversationId: string;
  text: string;
}

export interface MetaRow {
  key: 'lastEventSeq' | 'syncedAt';
  value: number;
}

/** A translation as the server sent it, kept so it shows again after a reload. */
export type StoredTranslation = Translation;

/** The per-user local database (`teltlk-<userId>`). */
export class LocalStore extends Dexie {
  conversations!: Table<StoredConversation, string>;
  messages!: Table<StoredMessage, [string, string]>;
  outbox!: Table<OutboxEntry, number>;
  drafts!: Table<Draft, string>;
  meta!: Table<MetaRow, string>;
  translations!: Table<StoredTranslation, [string, string]>;

  constructor(userId: string, deps: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange }) {
    super(`teltlk-${userId}`, {
      ...(deps.indexedDB ? { indexedDB: deps.indexedDB } : {}),
      ...(deps.IDBKeyRange ? { IDBKeyRange: deps.IDBKeyRange } : {}),
    });
    this.version(1).stores({
      conversations: 'id',
      // Keyed by sender and client id (unique on the server too), so a pending send and
      // its acknowledged copy are the same row.
      messages: '[senderId+clientMsgId], [conversationId+seq], clientMsgId, pending, burnAt',
      outbox: '++id, &clientMsgId',
      drafts: 'conversationId',
      meta: 'key',
    });
    // Translation: messages carry their source language, conversations the member's
    // translation choice, and translations are kept per (message, target language).
    // Rows cached before know neither: they get the server's defaults for old data.
    this.version(2)
      .stores({
        translations: '[messageId+lang], [conversationId+lang+seq], [conversationId+seq], status',
      })
      .upgrade(async (tx) => {
        await tx
          .table<StoredConversation, string>('conversations')
          .toCollection()
          .modify((conversation) => {
            conversation.translate ??= true;
            conversation.translateTo ??= null;
          });
        await tx
          .table<StoredMessage, [string, string]>('messages')
          .toCollection()
          .modify((message) => {
            message.lang ??= null;
          });
      });
  }

  /** Removes a user's local database, e.g. when they sign out of a shared device. */
  static remove(
    userId: string,
    deps: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange },
  ): Promise<void> {
    return new LocalStore(userId, deps).delete();
  }

  async getMeta(key: MetaRow['key']): Promise<number> {
    return (await this.meta.get(key))?.value ?? 0;
  }

  setMeta(key: MetaRow['key'], value: number): Promise<string> {
    return this.meta.put({ key, value });
  }

  /** The newest `count` visible messages with seq in (minSeq, beforeSeq), newest first. */
  newest(
    conversationId: string,
    minSeq: number,
    count: number,
    visible: (message: StoredMessage) => boolean,
  ): Promise<StoredMessage[]> {
    return this.messages
      .where('[conversationId+seq]')
      .between([conversationId, minSeq + 1], [conversationId, Dexie.maxKey], true, true)
      .reverse()
      .filter(visible)
      .limit(count)
      .toArray();
  }

  /** Our sends of a conversation not acknowledged yet, in send order. */
  pendingOf(conversationId: string): Promise<StoredMessage[]> {
    return this.messages.where('pending').equals(conversationId).sortBy('order');
  }

  /** Rows with these seqs in one conversation. */
  async bySeqs(conversationId: string, seqs: readonly number[]): Promise<StoredMessage[]> {
    if (seqs.length === 0) return [];
    const rows = await this.messages
      .where('[conversationId+seq]')
      .anyOf(seqs.map((seq) => [conversationId, seq]))
      .toArray();
    return rows;
  }

  /**
   * Removes burnt messages, and their translations, from the device; replies quoting them
   * show the quote as unavailable.
   */
  deleteBurnt(now: number): Promise<number> {
    return this.transaction('rw', this.messages, this.translations, async () => {
      const burnt = this.messages.where('burnAt').belowOrEqual(now);
      const rows = await burnt.toArray();
      const keys = rows.flatMap((row) =>
        row.seq === null ? [] : [[row.conversationId, row.seq] as [string, number]],
      );
      if (keys.length > 0)
        await this.translations.where('[conversationId+seq]').anyOf(keys).delete();
      const deleted = await burnt.delete();
      const byConversation = new Map<string, number[]>();
      for (const [conversationId, seq] of keys) {
        byConversation.set(conversationId, [...(byConversation.get(conversationId) ?? []), seq]);
      }
      for (const [conversationId, seqs] of byConversation) await this.unquote(conversationId, seqs);
      return deleted;
    });
  }

  /**
   * Shows as unavailable the quotes of these messages (revoked or burnt) in the replies
   * this device keeps; a reply comes after what it quotes. Answers how many changed.
   */
  unquote(conversationId: string, seqs: readonly number[]): Promise<number> {
    if (seqs.length === 0) return Promise.resolve(0);
    const gone = new Set(seqs);
    return this.messages
      .where('[conversationId+seq]')
      .between([conversationId, Math.min(...seqs) + 1], [conversationId, Dexie.maxKey], true, true)
      .filter(
        (row) =>
          row.content.kind === 'text' &&
          row.content.quote !== undefined &&
          isQuoteAvailable(row.content.quote) &&
          gone.has(row.content.quote.seq),
      )
      .modify((row) => {
        row.content = withoutQuote(row.content);
      });
  }

  /**
   * Removes a conversation's messages with seq up to `seq` (cleared history, burnt), and
   * their translations.
   */
  deleteUpTo(conversationId: string, seq: number): Promise<number> {
    return this.transaction('rw', this.messages, this.translations, async () => {
      await this.translations
        .where('[conversationId+seq]')
        .between([conversationId, Dexie.minKey], [conversationId, seq], true, true)
        .delete();
      return this.messages
        .where('[conversationId+seq]')
        .between([conversationId, Dexie.minKey], [conversationId, seq], true, true)
        .delete();
    });
  }

  /** The translations of these messages into `lang`, by seq. */
  async translationsOf(
    conversationId: string,
    lang: string,
    seqs: readonly number[],
  ): Promise<StoredTranslation[]> {
    if (seqs.length === 0) return [];
    return this.translations
      .where('[conversationId+lang+seq]')
      .anyOf(seqs.map((seq) => [conversationId, lang, seq]))
      .toArray();
  }

  /** Drops the translations of these messages (revoked: the text is gone). */
  deleteTranslations(conversationId: string, seqs: readonly number[]): Promise<number> {
    if (seqs.length === 0) return Promise.resolve(0);
    return this.translations
      .where('[conversationId+seq]')
      .anyOf(seqs.map((seq) => [conversationId, seq]))
      .delete();
  }
}
