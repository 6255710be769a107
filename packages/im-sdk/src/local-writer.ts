import type { Conversation, Message, UserEvent } from '@teltlk/protocol';
import { Emitter } from './emitter.js';
import {
  applyMessages,
  hideInConversation,
  isNotice,
  isShown,
  mergeConversation,
  toLocal,
} from './reducers.js';
import { LocalStore, type StoredConversation, type StoredMessage } from './store.js';
import type { EngineEvents } from './types.js';

/** The engine has stopped: work queued for the local database is dropped. */
export class EngineStopped extends Error {
  constructor() {
    super('The engine has stopped');
    this.name = 'EngineStopped';
  }
}

/**
 * What the writer tells whoever listens, as it writes: the engine's parts built after it
 * (the snapshots, the sync, the screens) subscribe when they are built.
 */
export interface WriterSignals {
  /** Local state changed: a conversation's screen, and the chat list too if `list`. */
  changed: { conversationId: string | undefined; list: boolean };
  /** Someone else's message arrived in a conversation (their typing hint ends). */
  peerWrote: string;
  /** A message of a conversation this device does not know yet arrived. */
  unknownConversation: void;
  /** Messages arrived past a gap in this conversation's seqs. */
  gap: string;
}

/**
 * Every write to the local database, one at a time in one queue, with the in-memory copy
 * of the conversations and the sync marks kept in step with it.
 */
export class LocalWriter {
  private current: LocalStore | null = null;
  private stopped = false;
  /** Every change of local state runs in this queue, one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  readonly conversations = new Map<string, StoredConversation>();
  lastEventSeq = 0;
  syncedAt = 0;

  readonly signals = new Emitter<WriterSignals>();

  constructor(
    private readonly userId: string,
    private readonly emitter: Emitter<EngineEvents>,
  ) {}

  get store(): LocalStore | null {
    return this.current;
  }

  /** Opens the user's local database and reads what it keeps; answers the drafts. */
  async open(
    deps: ConstructorParameters<typeof LocalStore>[1],
  ): Promise<{ conversationId: string; text: string }[]> {
    this.stopped = false;
    const store = new LocalStore(this.userId, deps);
    await store.open();
    this.current = store;
    const [conversations, drafts, lastEventSeq, syncedAt] = await Promise.all([
      store.conversations.toArray(),
      store.drafts.toArray(),
      store.getMeta('lastEventSeq'),
      store.getMeta('syncedAt'),
    ]);
    for (const conversation of conversations) this.conversations.set(conversation.id, conversation);
    this.lastEventSeq = lastEventSeq;
    this.syncedAt = syncedAt;
    return drafts;
  }

  /** Drops what is queued, waits for what runs, and closes the database. */
  async close(): Promise<void> {
    this.stopped = true;
    await this.queue.catch(() => undefined);
    this.current?.close();
    this.current = null;
    this.conversations.clear();
  }

  serial<T>(fn: (store: LocalStore) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      const store = this.store;
      if (!store || this.stopped) throw new EngineStopped();
      return fn(store);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async saveConversation(store: LocalStore, conversation: StoredConversation) {
    await store.conversations.put(conversation);
    this.conversations.set(conversation.id, conversation);
    this.signals.emit('changed', { conversationId: conversation.id, list: true });
  }

  async putConversations(store: LocalStore, incoming: readonly Conversation[]) {
    const merged = incoming.map((conversation) => ({
      before: this.conversations.get(conversation.id),
      after: mergeConversation(this.conversations.get(conversation.id), conversation, this.userId),
    }));
    await store.transaction(
      'rw',
      store.conversations,
      store.messages,
      store.translations,
      async () => {
        await store.conversations.bulkPut(merged.map(({ after }) => after));
        for (const { before, after } of merged) {
          // History cleared (on this device or another): the rows leave the device.
          if (after.minSeq > (before?.minSeq ?? 0)) await store.deleteUpTo(after.id, after.minSeq);
        }
      },
    );
    for (const { after } of merged) {
      this.conversations.set(after.id, after);
      this.signals.emit('changed', { conversationId: after.id, list: true });
    }
  }

  async applyServerMessages(
    store: LocalStore,
    conversationId: string,
    messages: readonly Message[],
    extendCoverage: boolean,
  ): Promise<void> {
    if (messages.length === 0) return;
    const seqs = new Set<number>();
    for (const message of messages) {
      seqs.add(message.seq);
      const { content } = message;
      if (content.kind === 'revoke' || content.kind === 'edit') seqs.add(content.targetSeq);
    }
    const [byKey, bySeq] = await Promise.all([
      store.messages.bulkGet(messages.map((m) => [m.senderId, m.clientMsgId] as [string, string])),
      store.bySeqs(conversationId, [...seqs]),
    ]);
    const known = [...byKey.filter((row): row is StoredMessage => !!row), ...bySeq];
    const before = this.conversations.get(conversationId);
    const batch = applyMessages(before, known, messages, {
      userId: this.userId,
      extendCoverage,
    });
    await store.transaction(
      'rw',
      store.messages,
      store.conversations,
      store.translations,
      async () => {
        await store.messages.bulkPut(batch.puts);
        if (batch.conversation) await store.conversations.put(batch.conversation);
        // A revoked message's text is gone, and so is its translation, and what replies
        // quoted of it.
        await store.deleteTranslations(conversationId, batch.revoked);
        await store.unquote(conversationId, batch.revoked);
        // An edited text is translated again from its new words.
        await store.deleteTranslations(conversationId, batch.edited);
      },
    );
    if (batch.conversation) this.conversations.set(conversationId, batch.conversation);
    this.signals.emit('changed', { conversationId, list: true });

    for (const row of batch.fresh) {
      if (row.senderId !== this.userId) {
        this.signals.emit('peerWrote', conversationId);
      }
      if (!isNotice(row.content)) this.emitter.emit('message', toLocal(row));
    }
    for (const seq of batch.revoked) this.emitter.emit('revoked', { conversationId, seq });
    for (const seq of batch.edited) this.emitter.emit('edited', { conversationId, seq });

    // A conversation this device has not seen yet (a first message): fetch it.
    if (!batch.conversation) this.signals.emit('unknownConversation');
    else if (batch.gapAfter !== null) this.signals.emit('gap', conversationId);
  }

  async applyEvents(store: LocalStore, events: readonly UserEvent[]): Promise<void> {
    for (const event of events) {
      if (event.seq <= this.lastEventSeq) continue;
      const { data } = event;
      if (data.type === 'conversation') {
        await this.putConversations(store, [data.conversation]);
      } else if (data.type === 'messageHidden') {
        await this.applyHidden(store, data.conversationId, data.seq);
      }
      this.lastEventSeq = event.seq;
      await store.setMeta('lastEventSeq', event.seq);
      this.emitter.emit('userEvent', event);
    }
  }

  async applyHidden(store: LocalStore, conversationId: string, seq: number) {
    const [row] = await store.bySeqs(conversationId, [seq]);
    if (row && !row.hidden) await store.messages.put({ ...row, hidden: 1 });
    this.signals.emit('changed', { conversationId, list: false });
    const conversation = this.conversations.get(conversationId);
    if (!conversation || conversation.lastMessage?.seq !== seq) return;
    const now = Date.now();
    const [newest] = await store.newest(
      conversationId,
      conversation.minSeq,
      1,
      (r) => isShown(r, now) && r.seq !== seq,
    );
    const next = hideInConversation(conversation, seq, newest ? toServerMessage(newest) : null);
    await this.saveConversation(store, next);
  }
}

function toServerMessage(row: StoredMessage): Message | null {
  if (row.id === null || row.seq === null) return null;
  return {
    id: row.id,
    conversationId: row.conversationId,
    seq: row.seq,
    senderId: row.senderId,
    clientMsgId: row.clientMsgId,
    content: row.content,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    burnAt: row.burnAt,
    lang: row.lang,
    editedAt: row.editedAt ?? null,
  };
}
