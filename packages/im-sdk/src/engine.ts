import {
  isQuoteAvailable,
  PULL_LIMIT_MAX,
  sendableContentSchema,
  TYPING_SHOW_MS,
  TYPING_THROTTLE_MS,
  type Conversation,
  type Message,
  type SendableContent,
  type ServerFrame,
  type Translation,
  type UpdateConversationBody,
  type UserEvent,
} from '@teltlk/protocol';
import type { ApiClient } from './api-client.js';
import { ApiError } from './api-error.js';
import { backoffDelay, Connection, type EndReason } from './connection.js';
import { Emitter } from './emitter.js';
import { newClientMsgId, OutboxSender } from './outbox.js';
import {
  applyMessages,
  applyRead,
  chatList,
  classifySeq,
  hideInConversation,
  isBurnt,
  isShown,
  markReadLocally,
  mergeConversation,
  sendableOf,
  shownContent,
  toLocal,
  withoutQuote,
} from './reducers.js';
import { LocalStore, type StoredConversation, type StoredMessage } from './store.js';
import { stableTranslations } from './translation.js';
import { TranslationSync } from './translation-sync.js';
import {
  pullConversations,
  pullEventPages,
  pullNewestPage,
  pullOlderPage,
  pullAfter,
  type MessagePage,
} from './sync.js';
import type {
  ConnectionState,
  ConversationHandle,
  ConversationSnapshot,
  EngineEvents,
  EngineSnapshot,
  LocalMessage,
} from './types.js';

export type {
  ConnectionState,
  ConversationHandle,
  ConversationSnapshot,
  ConversationView,
  EngineEvents,
  EngineSnapshot,
  LocalMessage,
} from './types.js';

export interface EngineOptions {
  /** Origin of the server for REST; '' for same origin. */
  baseUrl?: string;
  /** WebSocket URL, e.g. `ws://localhost:3000/ws` (the web app derives it from location). */
  wsUrl: string;
  /** The signed-in user; the local database is per user (`teltlk-<userId>`). */
  userId: string;
  getToken(): string | null;
  api: ApiClient;
  /** Node tests pass the `ws` package's WebSocket and fake-indexeddb's factory. */
  WebSocket?: typeof WebSocket;
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

/** Messages a conversation screen shows first and adds per scroll. */
export const PAGE_SIZE = 50;
/**
 * A conversation this far behind is reloaded from its newest page instead of pulled
 * message by message: the old local copy is dropped (it is a cache).
 */
export const RESET_GAP = 1000;

const END_EVENTS: Record<EndReason, keyof EngineEvents> = {
  tokenInvalid: 'tokenInvalid',
  tokenExpired: 'tokenExpired',
  kickedOffline: 'kickedOffline',
};

/** What a conversation screen shows, read from the local database. */
interface MessageWindow {
  messages: LocalMessage[];
  hasMore: boolean;
  nextBurnAt: number | null;
  translationTarget: string | null;
  translations: Translation[];
}

const NO_TRANSLATIONS: ReadonlyMap<number, Translation> = new Map();

class EngineStopped extends Error {
  constructor() {
    super('The engine has stopped');
    this.name = 'EngineStopped';
  }
}

/**
 * The client messaging engine: a local IndexedDB copy of the user's conversations and
 * messages, kept in step with the server by a resumable socket and seq-based sync.
 */
export class ImEngine {
  private readonly emitter = new Emitter<EngineEvents>();
  private readonly connection: Connection;
  private readonly outbox: OutboxSender;
  private readonly userId: string;
  private readonly api: ApiClient;
  private store: LocalStore | null = null;
  private stopped = false;

  private readonly conversations = new Map<string, StoredConversation>();
  private readonly drafts = new Map<string, string>();
  private lastEventSeq = 0;
  private syncedAt = 0;

  private ready = false;
  private connectionState: ConnectionState = 'disconnected';
  private syncing = false;
  private snapshot: EngineSnapshot = {
    ready: false,
    connection: 'disconnected',
    syncing: false,
    conversations: [],
    totalUnread: 0,
    translation: null,
  };
  private readonly listeners = new Set<() => void>();
  private readonly handles = new Map<string, Set<Handle>>();

  /** Every change of local state runs in this queue, one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  private listDirty = false;
  private readonly dirtyConversations = new Set<string>();
  private flushScheduled = false;
  private listBurnTimer: ReturnType<typeof setTimeout> | null = null;

  private syncRunning = false;
  private syncAgain = false;
  private syncAttempt = 0;
  private syncRetryTimer: ReturnType<typeof setTimeout> | null = null;
  private eventPull: Promise<void> | null = null;
  private eventPullAgain = false;
  private readonly catchUps = new Map<string, Promise<void>>();
  private readonly catchUpAgain = new Set<string>();
  private lastOrder = 0;
  private readonly translation: TranslationSync;

  constructor(private readonly options: EngineOptions) {
    this.userId = options.userId;
    this.api = options.api;
    const WebSocketImpl = options.WebSocket ?? globalThis.WebSocket;
    this.connection = new Connection({
      url: options.wsUrl,
      getToken: () => options.getToken(),
      WebSocket: WebSocketImpl,
      onState: (state) => this.onConnectionState(state),
      onFailed: () => this.emitter.emit('connectFailed'),
      onReady: () => this.onConnected(),
      onFrame: (frame) => this.onFrame(frame),
      onEnd: (reason) => this.emitter.emit(END_EVENTS[reason]),
    });
    this.translation = new TranslationSync({
      api: this.api,
      userId: this.userId,
      serial: (fn) => this.serial(fn),
      conversation: (conversationId) => this.conversations.get(conversationId),
      onChange: (conversationId) => this.touch(conversationId, false),
      onInfo: () => this.touch(undefined, true),
      onTranslation: (translation) => this.emitter.emit('translation', translation),
      onBackgroundError: ignoreFailure,
    });
    this.outbox = new OutboxSender({
      store: () => this.store,
      send: (frame) => this.connection.send(frame),
      onAck: (clientMsgId, message) => this.onAck(clientMsgId, message),
      onFailed: (clientMsgId, code) => this.onSendFailed(clientMsgId, code),
    });
  }

  // ------------------------------------------------------------------ lifecycle

  /** Opens the local database, shows the cache (ready), then connects and syncs. */
  async start(): Promise<void> {
    if (this.store) return;
    this.stopped = false;
    this.translation.start();
    const store = new LocalStore(this.userId, {
      indexedDB: this.options.indexedDB,
      IDBKeyRange: this.options.IDBKeyRange,
    });
    await store.open();
    this.store = store;
    const [conversations, drafts, lastEventSeq, syncedAt] = await Promise.all([
      store.conversations.toArray(),
      store.drafts.toArray(),
      store.getMeta('lastEventSeq'),
      store.getMeta('syncedAt'),
    ]);
    for (const conversation of conversations) this.conversations.set(conversation.id, conversation);
    for (const draft of drafts) this.drafts.set(draft.conversationId, draft.text);
    this.lastEventSeq = lastEventSeq;
    this.syncedAt = syncedAt;
    this.ready = true;
    this.rebuildList();
    this.notify();
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.onOnline);
      window.addEventListener('offline', this.onOffline);
    }
    void this.serial((s) => s.deleteBurnt(Date.now())).catch(ignoreStopped);
    this.connection.start();
  }

  /**
   * Deletes what this device keeps of a user (conversations, messages, drafts, unsent
   * messages), for signing out of a shared device. Stop that user's engine first.
   */
  static deleteLocalData(
    userId: string,
    deps: Pick<EngineOptions, 'indexedDB' | 'IDBKeyRange'> = {},
  ): Promise<void> {
    return LocalStore.remove(userId, deps);
  }

  /** Closes the socket and the database; no reconnects after. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.connection.stop();
    this.outbox.reset();
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.onOnline);
      window.removeEventListener('offline', this.onOffline);
    }
    for (const timer of [this.syncRetryTimer, this.listBurnTimer]) if (timer) clearTimeout(timer);
    this.syncRetryTimer = this.listBurnTimer = null;
    this.translation.stop();
    for (const set of this.handles.values()) for (const handle of set) handle.dispose();
    this.handles.clear();
    await this.queue.catch(() => undefined);
    this.store?.close();
    this.store = null;
    this.conversations.clear();
    this.drafts.clear();
    this.ready = false;
  }

  private readonly onOnline = () => this.connection.reconnectNow();
  private readonly onOffline = () => this.connection.dropNow();

  // ------------------------------------------------------------------ public reads

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  getSnapshot(): EngineSnapshot {
    return this.snapshot;
  }

  on<K extends keyof EngineEvents>(
    type: K,
    listener: (value: EngineEvents[K]) => void,
  ): () => void {
    return this.emitter.on(type, listener);
  }

  conversation(conversationId: string): ConversationHandle {
    const handle = new Handle(this, conversationId);
    let set = this.handles.get(conversationId);
    if (!set) {
      set = new Set();
      this.handles.set(conversationId, set);
    }
    set.add(handle);
    void handle.reload();
    if (this.connection.isReady) void this.catchUp(conversationId).catch(ignoreFailure);
    return handle;
  }

  // ------------------------------------------------------------------ public actions

  /**
   * The reader's mother tongue (from their profile), which messages are translated into
   * wherever a conversation names no language of its own. Translations wait for it.
   */
  setMotherTongue(code: string | null): void {
    if (!this.translation.setMotherTongue(code)) return;
    for (const conversationId of this.handles.keys()) this.touch(conversationId, false);
  }

  async updateConversation(conversationId: string, patch: UpdateConversationBody): Promise<void> {
    const conversation = await this.api.updateConversation(conversationId, patch);
    await this.serial((store) => this.putConversations(store, [conversation]));
  }

  async clearHistory(conversationId: string): Promise<void> {
    const conversation = await this.api.clearConversation(conversationId);
    await this.serial((store) => this.putConversations(store, [conversation]));
  }

  async setBurn(conversationId: string, seconds: number): Promise<void> {
    const notice = await this.api.setBurn(conversationId, seconds);
    await this.serial((store) => this.applyServerMessages(store, conversationId, [notice], true));
  }

  /** Sends a copy of a text message, marked forwarded, to each conversation. */
  async forward(message: LocalMessage, conversationIds: string[]): Promise<void> {
    const { content } = message;
    if (content.kind !== 'text') throw new ApiError('VALIDATION_FAILED', 400);
    for (const conversationId of conversationIds) {
      await this.send(conversationId, { kind: 'text', text: content.text, forwarded: true });
    }
  }

  // ------------------------------------------------------------------ used by handles

  /** @internal Stores a message for sending and queues it. */
  async send(conversationId: string, content: SendableContent): Promise<LocalMessage> {
    const parsed = sendableContentSchema.safeParse(content);
    if (!parsed.success) {
      const blank = parsed.error.issues.some((issue) => issue.message === 'blankMessage');
      throw new ApiError(blank ? 'BLANK_MESSAGE' : 'VALIDATION_FAILED', 400);
    }
    const sendable = parsed.data;
    const createdAt = Date.now();
    const row = await this.serial((store) =>
      store.transaction('rw', store.messages, store.outbox, async () => {
        const [quoted] = sendable.quote
          ? await store.bySeqs(conversationId, [sendable.quote.seq])
          : [];
        const stored: StoredMessage = {
          id: null,
          conversationId,
          seq: null,
          clientMsgId: newClientMsgId(),
          senderId: this.userId,
          content: shownContent(sendable, quoted, createdAt),
          createdAt,
          revokedAt: null,
          burnAt: null,
          lang: null,
          status: 'sending',
          pending: conversationId,
          order: this.nextOrder(),
        };
        await store.messages.put(stored);
        await store.outbox.add({
          clientMsgId: stored.clientMsgId,
          conversationId,
          content: sendable,
          createdAt,
        });
        return stored;
      }),
    );
    this.touch(conversationId, false);
    void this.outbox.flush().catch(ignoreFailure);
    return toLocal(row);
  }

  /** @internal Queues a failed send again, with the same clientMsgId. */
  retry(clientMsgId: string): void {
    void this.serial(async (store) => {
      const row = await store.messages.get([this.userId, clientMsgId]);
      if (!row || row.seq !== null || row.status !== 'failed') return;
      const { error: _error, ...rest } = row;
      const again: StoredMessage = { ...rest, status: 'sending' };
      await store.transaction('rw', store.messages, store.outbox, async () => {
        await store.messages.put(again);
        await store.outbox.add({
          clientMsgId,
          conversationId: row.conversationId,
          content: sendableOf(row.content),
          createdAt: row.createdAt,
        });
      });
      this.touch(row.conversationId, false);
    })
      .then(() => this.outbox.flush())
      .catch(ignoreFailure);
  }

  /** @internal */
  async revoke(conversationId: string, seq: number): Promise<void> {
    const notice = await this.api.revokeMessage(conversationId, seq);
    await this.serial((store) => this.applyServerMessages(store, conversationId, [notice], true));
  }

  /** @internal */
  async hide(conversationId: string, seq: number): Promise<void> {
    await this.api.hideMessage(conversationId, seq);
    await this.serial((store) => this.applyHidden(store, conversationId, seq));
  }

  /** @internal Marks the conversation read up to its newest seq. */
  markRead(conversationId: string): void {
    void this.serial(async (store) => {
      const conversation = this.conversations.get(conversationId);
      const none = { seq: null, previous: 0, burning: false };
      if (!conversation) return none;
      const next = markReadLocally(conversation);
      if (next === conversation) return none;
      await this.saveConversation(store, next);
      return {
        seq: next.readSeq,
        previous: conversation.readSeq,
        burning: conversation.burnSeconds > 0,
      };
    })
      .then(async ({ seq, previous, burning }) => {
        if (seq === null) return;
        // With burn after reading on, the read starts burn clocks on the server: wait for
        // it (REST) and fetch the new burn times.
        if (!burning && this.connection.send({ t: 'read', conversationId, seq })) return;
        // No socket: try REST; if that fails too the read goes on the next connect.
        await this.api.markRead(conversationId, seq);
        if (burning) await this.refreshBurn(conversationId, previous);
        await this.serial(async (store) => {
          const current = this.conversations.get(conversationId);
          if (current && current.pendingRead !== null && current.pendingRead <= seq) {
            await this.saveConversation(store, { ...current, pendingRead: null });
          }
        });
      })
      .catch(ignoreFailure);
  }

  /** @internal */
  sendTyping(conversationId: string): boolean {
    return this.connection.send({ t: 'typing', conversationId });
  }

  /** @internal */
  setDraft(conversationId: string, text: string): void {
    if ((this.drafts.get(conversationId) ?? '') === text) return;
    if (text) this.drafts.set(conversationId, text);
    else this.drafts.delete(conversationId);
    this.touch(undefined, true);
    void this.serial(async (store) => {
      if (text) await store.drafts.put({ conversationId, text });
      else await store.drafts.delete(conversationId);
    }).catch(ignoreFailure);
  }

  /** @internal */
  detach(handle: Handle): void {
    const set = this.handles.get(handle.conversationId);
    set?.delete(handle);
    if (set?.size === 0) this.handles.delete(handle.conversationId);
  }

  /** @internal Reads a handle's window from the local database. */
  async readWindow(conversationId: string, count: number): Promise<MessageWindow> {
    const store = this.store;
    const conversation = this.conversations.get(conversationId);
    const target = this.translation.targetOf(conversation);
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
      store.newest(conversationId, conversation?.minSeq ?? 0, count + 1, (row) =>
        isShown(row, now),
      ),
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
        ? await this.translation.shown(store, conversationId, target, shown)
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

  /** @internal Queues seqs to translate; the whole tick's seqs go in one request. */
  requestTranslations(conversationId: string, seqs: readonly number[]): void {
    if (this.store) this.translation.request(conversationId, seqs);
  }

  /** @internal Makes one translation again (retranslate, or retry a failed one). */
  retranslate(conversationId: string, seq: number): Promise<void> {
    return this.translation.retranslate(conversationId, seq);
  }

  /** @internal Pulls one older page from the server if the local copy is exhausted. */
  async pullOlder(conversationId: string, localCount: number, wanted: number): Promise<void> {
    const conversation = this.conversations.get(conversationId);
    if (!conversation || conversation.historyComplete || localCount >= wanted) return;
    if (conversation.coveredFrom === null) {
      await this.catchUp(conversationId);
      return;
    }
    const before = conversation.coveredFrom;
    const page = await pullOlderPage(this.api, conversationId, before, PAGE_SIZE);
    await this.serial(async (store) => {
      await this.applyServerMessages(store, conversationId, page.messages, false);
      const current = this.conversations.get(conversationId);
      if (!current || current.coveredFrom === null) return;
      let coveredFrom = Math.min(current.coveredFrom, page.minSeq ?? before);
      const historyComplete = !page.hasMore;
      if (historyComplete) coveredFrom = Math.min(coveredFrom, current.minSeq + 1);
      await this.saveConversation(store, { ...current, coveredFrom, historyComplete });
    });
  }

  // ------------------------------------------------------------------ connection

  private onConnectionState(state: ConnectionState): void {
    this.connectionState = state;
    if (state === 'connecting') this.emitter.emit('connecting');
    if (state !== 'connected') this.outbox.reset();
    this.touch(undefined, true);
  }

  private onConnected(): void {
    this.emitter.emit('connected');
    void this.sync();
    void this.outbox.flush().catch(ignoreFailure);
    this.translation.onConnected();
  }

  private onFrame(frame: ServerFrame): void {
    switch (frame.t) {
      case 'ack':
        this.outbox.handleAck(frame.rid, frame.message);
        return;
      case 'error':
        this.outbox.handleError(frame.rid, frame.error.code);
        return;
      case 'message':
        void this.onPushedMessage(frame.message).catch(ignoreFailure);
        return;
      case 'event':
        void this.onPushedEvent(frame.event).catch(ignoreFailure);
        return;
      case 'typing':
        if (frame.userId === this.userId) return;
        this.emitter.emit('typing', { conversationId: frame.conversationId, userId: frame.userId });
        for (const handle of this.handles.get(frame.conversationId) ?? []) handle.showTyping();
        return;
      case 'translation':
        void this.serial((store) => this.translation.store(store, [frame.translation])).catch(
          ignoreFailure,
        );
        return;
      case 'read':
        void this.serial(async (store) => {
          const conversation = this.conversations.get(frame.conversationId);
          if (!conversation) return null;
          const next = applyRead(conversation, this.userId, frame.userId, frame.seq);
          if (next === conversation) return null;
          await this.saveConversation(store, next);
          // The peer's read started the burn clocks of our messages it covers.
          const burning = conversation.burnSeconds > 0 && frame.userId !== this.userId;
          return burning ? conversation.peerReadSeq : null;
        })
          .then((after) => {
            if (after !== null) return this.refreshBurn(frame.conversationId, after);
          })
          .catch(ignoreFailure);
        return;
      default:
        return;
    }
  }

  private async onAck(clientMsgId: string, message: Message): Promise<void> {
    await this.serial(async (store) => {
      await this.applyServerMessages(store, message.conversationId, [message], true);
      await store.outbox.where('clientMsgId').equals(clientMsgId).delete();
    });
  }

  private async onSendFailed(clientMsgId: string, code: string): Promise<void> {
    await this.serial(async (store) => {
      const row = await store.messages.get([this.userId, clientMsgId]);
      await store.transaction('rw', store.messages, store.outbox, async () => {
        if (row && row.seq === null)
          await store.messages.put({ ...row, status: 'failed', error: code });
        await store.outbox.where('clientMsgId').equals(clientMsgId).delete();
      });
      if (row) this.touch(row.conversationId, false);
    });
  }

  private async onPushedMessage(message: Message): Promise<void> {
    await this.serial((store) =>
      this.applyServerMessages(store, message.conversationId, [message], true),
    );
  }

  private async onPushedEvent(event: UserEvent): Promise<void> {
    const outcome = await this.serial(async (store) => {
      const kind = classifySeq(this.lastEventSeq, event.seq);
      if (kind === 'apply') await this.applyEvents(store, [event]);
      return kind;
    });
    if (outcome === 'gap') await this.pullEvents();
  }

  // ------------------------------------------------------------------ sync

  /**
   * Catches up after (re)connecting: changed conversations, the user's events, and the
   * messages of the conversations open on screen. Never the full history of every
   * conversation: the list shows lastMessage, and a conversation is pulled when opened.
   */
  private async sync(): Promise<void> {
    if (this.syncRunning) {
      this.syncAgain = true;
      return;
    }
    this.syncRunning = true;
    if (this.syncRetryTimer) clearTimeout(this.syncRetryTimer);
    this.syncRetryTimer = null;
    this.setSyncing(true);
    this.emitter.emit('syncStart');
    try {
      do {
        this.syncAgain = false;
        if (this.lastEventSeq === 0 && this.syncedAt === 0) await this.skipOldEvents();
        await this.syncConversations();
        await this.pullEvents();
        await Promise.all([...this.handles.keys()].map((id) => this.catchUp(id)));
      } while (this.syncAgain && !this.stopped);
      this.syncAttempt = 0;
      this.sendPendingReads();
      this.emitter.emit('syncFinish');
    } catch (error) {
      if (this.stopped || error instanceof EngineStopped) return;
      this.emitter.emit('syncFailed');
      if (this.connection.isReady) {
        this.syncRetryTimer = setTimeout(() => {
          this.syncRetryTimer = null;
          if (this.connection.isReady) void this.sync();
        }, backoffDelay(this.syncAttempt++));
      }
    } finally {
      this.syncRunning = false;
      this.setSyncing(false);
    }
  }

  /**
   * A fresh device takes the full conversation state from the conversation sync, so the
   * older events (years of friend requests) are not replayed: start after the newest.
   */
  private async skipOldEvents(): Promise<void> {
    const page = await this.api.syncEvents({ after: 0, limit: 1 });
    await this.serial(async (store) => {
      if (this.lastEventSeq >= page.lastSeq) return;
      this.lastEventSeq = page.lastSeq;
      await store.setMeta('lastEventSeq', page.lastSeq);
    });
  }

  private async syncConversations(): Promise<void> {
    const syncedAt = await pullConversations(this.api, this.syncedAt, (conversations) =>
      this.serial((store) => this.putConversations(store, conversations)),
    );
    await this.serial(async (store) => {
      this.syncedAt = syncedAt;
      await store.setMeta('syncedAt', syncedAt);
    });
  }

  /** Pulls the user's events after the last applied one; one pull at a time. */
  private pullEvents(): Promise<void> {
    if (this.eventPull) {
      this.eventPullAgain = true;
      return this.eventPull;
    }
    const run = (async () => {
      try {
        do {
          this.eventPullAgain = false;
          await pullEventPages(
            this.api,
            () => this.lastEventSeq,
            (events) => this.serial((store) => this.applyEvents(store, events)),
          );
        } while (this.eventPullAgain);
      } finally {
        this.eventPull = null;
      }
    })();
    this.eventPull = run;
    return run;
  }

  /** Pulls what an open conversation lacks; one pull per conversation at a time. */
  private catchUp(conversationId: string): Promise<void> {
    const running = this.catchUps.get(conversationId);
    if (running) {
      this.catchUpAgain.add(conversationId);
      return running;
    }
    const run = (async () => {
      try {
        do {
          this.catchUpAgain.delete(conversationId);
          await this.catchUpOnce(conversationId);
        } while (this.catchUpAgain.has(conversationId));
      } finally {
        this.catchUps.delete(conversationId);
      }
    })();
    this.catchUps.set(conversationId, run);
    return run;
  }

  private async catchUpOnce(conversationId: string): Promise<void> {
    let conversation = this.conversations.get(conversationId);
    if (!conversation) return;
    if (
      conversation.coveredFrom !== null &&
      conversation.maxSeq - conversation.pulledSeq > RESET_GAP
    ) {
      await this.serial(async (store) => {
        const current = this.conversations.get(conversationId);
        if (!current) return;
        await store.deleteUpTo(conversationId, Number.MAX_SAFE_INTEGER);
        await this.saveConversation(store, {
          ...current,
          coveredFrom: null,
          pulledSeq: 0,
          historyComplete: false,
        });
      });
      conversation = this.conversations.get(conversationId);
      if (!conversation) return;
    }
    if (conversation.coveredFrom === null) {
      const knownMax = conversation.maxSeq;
      const page = await pullNewestPage(this.api, conversationId, PAGE_SIZE);
      await this.applyPage(conversationId, page, knownMax, (current) => ({
        coveredFrom: page.hasMore ? (page.minSeq ?? knownMax + 1) : current.minSeq + 1,
        historyComplete: !page.hasMore,
      }));
    }
    for (;;) {
      const current = this.conversations.get(conversationId);
      if (!current || current.coveredFrom === null || current.pulledSeq >= current.maxSeq) return;
      const knownMax = current.maxSeq;
      const page = await pullAfter(this.api, conversationId, current.pulledSeq, PULL_LIMIT_MAX);
      await this.applyPage(conversationId, page, knownMax, () => ({}));
    }
  }

  /** Applies a page and moves the coverage: a last page covers all the server had. */
  private applyPage(
    conversationId: string,
    page: MessagePage,
    knownMax: number,
    coverage: (current: StoredConversation) => Partial<StoredConversation>,
  ): Promise<void> {
    return this.serial(async (store) => {
      await this.applyServerMessages(store, conversationId, page.messages, false);
      const current = this.conversations.get(conversationId);
      if (!current) return;
      const patch = coverage(current);
      let pulledSeq = Math.max(current.pulledSeq, page.maxSeq ?? 0);
      if (!page.hasMore) pulledSeq = Math.max(pulledSeq, knownMax);
      await this.saveConversation(store, { ...current, ...patch, pulledSeq });
    });
  }

  /** Fetches messages after `after` again, for the burn times a read has set. */
  private async refreshBurn(conversationId: string, after: number): Promise<void> {
    let from = after;
    for (;;) {
      const page = await pullAfter(this.api, conversationId, from, PULL_LIMIT_MAX);
      await this.serial((store) =>
        this.applyServerMessages(store, conversationId, page.messages, false),
      );
      if (!page.hasMore || page.maxSeq === null) return;
      from = page.maxSeq;
    }
  }

  private sendPendingReads(): void {
    for (const conversation of this.conversations.values()) {
      if (conversation.pendingRead === null) continue;
      this.connection.send({
        t: 'read',
        conversationId: conversation.id,
        seq: conversation.pendingRead,
      });
    }
  }

  // ------------------------------------------------------------------ applying

  private serial<T>(fn: (store: LocalStore) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      const store = this.store;
      if (!store || this.stopped) throw new EngineStopped();
      return fn(store);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async saveConversation(store: LocalStore, conversation: StoredConversation) {
    await store.conversations.put(conversation);
    this.conversations.set(conversation.id, conversation);
    this.touch(conversation.id, true);
  }

  private async putConversations(store: LocalStore, incoming: readonly Conversation[]) {
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
      this.touch(after.id, true);
    }
  }

  private async applyServerMessages(
    store: LocalStore,
    conversationId: string,
    messages: readonly Message[],
    extendCoverage: boolean,
  ): Promise<void> {
    if (messages.length === 0) return;
    const seqs = new Set<number>();
    for (const message of messages) {
      seqs.add(message.seq);
      if (message.content.kind === 'revoke') seqs.add(message.content.targetSeq);
    }
    const [byKey, bySeq] = await Promise.all([
      store.messages.bulkGet(messages.map((m) => [m.senderId, m.clientMsgId] as [string, string])),
      store.bySeqs(conversationId, [...seqs]),
    ]);
    const known = [...byKey.filter((row): row is StoredMessage => !!row), ...bySeq];
    const before = this.conversations.get(conversationId);
    const batch = applyMessages(before, known, messages, { userId: this.userId, extendCoverage });
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
      },
    );
    if (batch.conversation) this.conversations.set(conversationId, batch.conversation);
    this.touch(conversationId, true);

    for (const row of batch.fresh) {
      if (row.senderId !== this.userId) {
        for (const handle of this.handles.get(conversationId) ?? []) handle.hideTyping();
      }
      if (row.content.kind !== 'revoke') this.emitter.emit('message', toLocal(row));
    }
    for (const seq of batch.revoked) this.emitter.emit('revoked', { conversationId, seq });

    if (!batch.conversation) {
      // A conversation this device has not seen yet (a first message): fetch it.
      if (this.connection.isReady) void this.sync();
    } else if (batch.gapAfter !== null && this.handles.has(conversationId)) {
      void this.catchUp(conversationId).catch(ignoreFailure);
    }
  }

  private async applyEvents(store: LocalStore, events: readonly UserEvent[]): Promise<void> {
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

  private async applyHidden(store: LocalStore, conversationId: string, seq: number) {
    const [row] = await store.bySeqs(conversationId, [seq]);
    if (row && !row.hidden) await store.messages.put({ ...row, hidden: 1 });
    this.touch(conversationId, false);
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

  // ------------------------------------------------------------------ snapshots

  private setSyncing(syncing: boolean): void {
    this.syncing = syncing;
    this.touch(undefined, true);
  }

  /** Marks state as changed; listeners hear once per batch, after the current task. */
  private touch(conversationId: string | undefined, list: boolean): void {
    if (list) this.listDirty = true;
    if (conversationId !== undefined) this.dirtyConversations.add(conversationId);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.stopped) return;
    if (this.listDirty) {
      this.listDirty = false;
      this.rebuildList();
      this.notify();
    }
    const dirty = [...this.dirtyConversations];
    this.dirtyConversations.clear();
    for (const id of dirty) for (const handle of this.handles.get(id) ?? []) void handle.reload();
  }

  private rebuildList(): void {
    const now = Date.now();
    const { conversations, totalUnread } = chatList(this.conversations.values(), this.drafts, now);
    this.snapshot = {
      ready: this.ready,
      connection: this.connectionState,
      syncing: this.syncing,
      conversations,
      totalUnread,
      translation: this.translation.info,
    };
    // A burnt last message leaves the list when its time comes.
    if (this.listBurnTimer) clearTimeout(this.listBurnTimer);
    this.listBurnTimer = null;
    let next: number | null = null;
    for (const conversation of this.conversations.values()) {
      const burnAt = conversation.lastMessage?.burnAt ?? null;
      if (burnAt !== null && burnAt > now && (next === null || burnAt < next)) next = burnAt;
    }
    if (next !== null) {
      this.listBurnTimer = setTimeout(() => this.touch(undefined, true), next - now + 1);
    }
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private nextOrder(): number {
    this.lastOrder = Math.max(Date.now(), this.lastOrder + 1);
    return this.lastOrder;
  }
}

/** A conversation screen's view of the engine. */
class Handle implements ConversationHandle {
  private readonly listeners = new Set<() => void>();
  private snapshot: ConversationSnapshot = {
    messages: [],
    hasMore: false,
    loadingOlder: false,
    peerTyping: false,
    translationTarget: null,
    translations: NO_TRANSLATIONS,
  };
  private windowSize = PAGE_SIZE;
  private localCount = 0;
  private version = 0;
  private closed = false;
  private typingTimer: ReturnType<typeof setTimeout> | null = null;
  private burnTimer: ReturnType<typeof setTimeout> | null = null;
  private lastTypingSent = 0;

  constructor(
    private readonly engine: ImEngine,
    readonly conversationId: string,
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  getSnapshot(): ConversationSnapshot {
    return this.snapshot;
  }

  /** Re-reads the window; only the newest read lands. */
  async reload(): Promise<void> {
    if (this.closed) return;
    const version = ++this.version;
    const window = await this.engine.readWindow(this.conversationId, this.windowSize);
    if (this.closed || version !== this.version) return;
    this.localCount = window.messages.filter((message) => message.seq !== null).length;
    if (this.burnTimer) clearTimeout(this.burnTimer);
    this.burnTimer = null;
    if (window.nextBurnAt !== null) {
      const delay = Math.max(0, window.nextBurnAt - Date.now()) + 1;
      this.burnTimer = setTimeout(() => void this.reload(), delay);
    }
    this.update({
      messages: window.messages,
      hasMore: window.hasMore,
      translationTarget: window.translationTarget,
      translations: stableTranslations(this.snapshot.translations, window.translations),
    });
  }

  async loadOlder(): Promise<void> {
    if (this.closed || this.snapshot.loadingOlder || !this.snapshot.hasMore) return;
    this.update({ loadingOlder: true });
    try {
      this.windowSize += PAGE_SIZE;
      await this.reload();
      await this.engine.pullOlder(this.conversationId, this.localCount, this.windowSize);
      await this.reload();
    } finally {
      this.update({ loadingOlder: false });
    }
  }

  send(content: SendableContent): Promise<LocalMessage> {
    return this.engine.send(this.conversationId, content);
  }

  retry(clientMsgId: string): void {
    this.engine.retry(clientMsgId);
  }

  revoke(seq: number): Promise<void> {
    return this.engine.revoke(this.conversationId, seq);
  }

  hide(seq: number): Promise<void> {
    return this.engine.hide(this.conversationId, seq);
  }

  markRead(): void {
    this.engine.markRead(this.conversationId);
  }

  typing(): void {
    const now = Date.now();
    if (now - this.lastTypingSent < TYPING_THROTTLE_MS) return;
    if (this.engine.sendTyping(this.conversationId)) this.lastTypingSent = now;
  }

  setDraft(text: string): void {
    this.engine.setDraft(this.conversationId, text);
  }

  translate(seqs: readonly number[]): void {
    this.engine.requestTranslations(this.conversationId, seqs);
  }

  retranslate(seq: number): Promise<void> {
    return this.engine.retranslate(this.conversationId, seq);
  }

  close(): void {
    this.dispose();
    this.engine.detach(this);
  }

  /** @internal */
  dispose(): void {
    this.closed = true;
    this.listeners.clear();
    if (this.typingTimer) clearTimeout(this.typingTimer);
    if (this.burnTimer) clearTimeout(this.burnTimer);
    this.typingTimer = this.burnTimer = null;
  }

  /** @internal */
  showTyping(): void {
    if (this.closed) return;
    if (this.typingTimer) clearTimeout(this.typingTimer);
    this.typingTimer = setTimeout(() => this.hideTyping(), TYPING_SHOW_MS);
    if (!this.snapshot.peerTyping) this.update({ peerTyping: true });
  }

  /** @internal */
  hideTyping(): void {
    if (this.typingTimer) clearTimeout(this.typingTimer);
    this.typingTimer = null;
    if (this.snapshot.peerTyping) this.update({ peerTyping: false });
  }

  private update(patch: Partial<ConversationSnapshot>): void {
    if (this.closed) return;
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of [...this.listeners]) listener();
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
  };
}

function ignoreStopped(error: unknown): void {
  if (!(error instanceof EngineStopped)) console.error(error);
}

/**
 * Background work that fails for network reasons is redone by the next sync; only
 * unexpected errors are worth a log line.
 */
function ignoreFailure(error: unknown): void {
  if (error instanceof EngineStopped || error instanceof ApiError) return;
  console.error(error);
}

/** The seq a reply quotes while its quote still shows it, as a list of zero or one. */
function quotedSeq(row: StoredMessage): number[] {
  const quote = row.content.kind === 'text' ? row.content.quote : undefined;
  return quote && isQuoteAvailable(quote) ? [quote.seq] : [];
}
