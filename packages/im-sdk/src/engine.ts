import {
  cleanFileName,
  isQuoteAvailable,
  isSentContent,
  type MessageContent,
  type UploadedMedia,
  type Message,
  type SearchMessagesResult,
  type SendableContent,
  type ServerFrame,
  type UpdateConversationBody,
  type UserEvent,
} from '@teltlk/protocol';
import type { ApiClient } from './api-client.js';
import type * as ContentCheckModule from './content-check.js';
import { ApiError } from './api-error.js';
import { Connection, type EndReason } from './connection.js';
import { Emitter } from './emitter.js';
import { newClientMsgId, OutboxSender } from './outbox.js';
import {
  applyRead,
  classifySeq,
  isBurnt,
  isShown,
  markReadLocally,
  sendableOf,
  shownContent,
  toLocal,
  withoutQuote,
} from './reducers.js';
import { EngineStopped, LocalWriter } from './local-writer.js';
import { LocalStore, type OutboxEntry, type StoredMessage } from './store.js';
import { Snapshots } from './snapshots.js';
import { SyncController } from './sync-controller.js';
import { Handle, type HandleHost, type MessageWindow } from './handle.js';
import { TranslationSync } from './translation-sync.js';
import { UploadQueue, type MediaUploader, type UploadProgress } from './uploads.js';
import type {
  ConnectionState,
  ConversationHandle,
  EngineEvents,
  EngineSnapshot,
  LocalMessage,
  OutgoingMedia,
} from './types.js';

export { PAGE_SIZE } from './handle.js';
export type { MediaUploader, UploadEvents, UploadJob, UploadProgress } from './uploads.js';

/** The media id a photo or file carries on this device until the server stored it. */
export const PENDING_MEDIA_ID = '0'.repeat(20);

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
  /** Sends the bytes of photos and files (the web app's is resumable); none: media cannot be sent. */
  uploader?: MediaUploader;
  /** Node tests pass the `ws` package's WebSocket and fake-indexeddb's factory. */
  WebSocket?: typeof WebSocket;
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

const END_EVENTS: Record<EndReason, keyof EngineEvents> = {
  tokenInvalid: 'tokenInvalid',
  tokenExpired: 'tokenExpired',
  kickedOffline: 'kickedOffline',
};

type ContentCheck = typeof ContentCheckModule;
let contentCheck: Promise<ContentCheck> | null = null;

/** The send check, fetched once; a fetch that failed (offline) is tried again next time. */
function loadContentCheck(): Promise<ContentCheck> {
  contentCheck ??= import('./content-check.js').catch((error: unknown) => {
    contentCheck = null;
    throw error;
  });
  return contentCheck;
}

/**
 * The client messaging engine: a local IndexedDB copy of the user's conversations and
 * messages, kept in step with the server by a resumable socket and seq-based sync.
 */
export class ImEngine implements HandleHost {
  private readonly emitter = new Emitter<EngineEvents>();
  private readonly connection: Connection;
  private readonly outbox: OutboxSender;
  private readonly uploads: UploadQueue;
  private readonly userId: string;
  private readonly api: ApiClient;
  private stopped = false;

  private readonly drafts = new Map<string, string>();

  private readonly handles = new Map<string, Set<Handle>>();

  private lastOrder = 0;
  private readonly translation: TranslationSync;
  private readonly writer: LocalWriter;
  private readonly snapshots: Snapshots;
  private readonly syncer: SyncController;

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
      serial: (fn) => this.writer.serial(fn),
      conversation: (conversationId) => this.writer.conversations.get(conversationId),
      onChange: (conversationId) => this.snapshots.changed(conversationId, false),
      onInfo: () => this.snapshots.changed(undefined, true),
      onTranslation: (translation) => this.emitter.emit('translation', translation),
      onBackgroundError: (error) => this.backgroundFailed(error),
    });
    this.snapshots = new Snapshots({
      conversations: () => this.writer.conversations.values(),
      drafts: this.drafts,
      translation: () => this.translation.info,
      reloadScreens: (conversationId) => {
        for (const handle of this.handles.get(conversationId) ?? []) void handle.reload();
      },
      stopped: () => this.stopped,
    });
    this.writer = new LocalWriter({
      userId: this.userId,
      emitter: this.emitter,
      changed: (conversationId, list) => this.snapshots.changed(conversationId, list),
      peerWrote: (conversationId) => {
        for (const handle of this.handles.get(conversationId) ?? []) handle.hideTyping();
      },
      unknownConversation: () => {
        if (this.connection.isReady) void this.syncer.sync();
      },
      gapIn: (conversationId) => {
        if (this.handles.has(conversationId)) {
          void this.syncer.catchUp(conversationId).catch(this.backgroundFailed);
        }
      },
    });
    this.syncer = new SyncController({
      api: this.api,
      writer: this.writer,
      emitter: this.emitter,
      connected: () => this.connection.isReady,
      send: (frame) => this.connection.send(frame),
      openConversations: () => this.handles.keys(),
      stopped: () => this.stopped,
      onSyncing: (syncing) => this.snapshots.dispatch({ type: 'syncing', syncing }),
      onSynced: () => {
        this.snapshots.dispatch({ type: 'recovered', kind: 'sync' });
        this.snapshots.dispatch({ type: 'recovered', kind: 'store' });
      },
      onFailed: (error) =>
        this.snapshots.dispatch({
          type: 'failed',
          error: {
            kind: 'sync',
            code: error instanceof ApiError ? error.code : 'UNKNOWN',
            retry: () => void this.syncer.sync(),
          },
        }),
    });
    this.outbox = new OutboxSender({
      store: () => this.writer.store,
      send: (frame) => this.connection.send(frame),
      onAck: (clientMsgId, message) => this.onAck(clientMsgId, message),
      onFailed: (clientMsgId, code) => this.onSendFailed(clientMsgId, code),
    });
    this.uploads = new UploadQueue({
      store: () => this.writer.store,
      uploader: options.uploader ?? null,
      online: () => this.connection.isReady,
      onUploaded: (clientMsgId, media) => this.onUploaded(clientMsgId, media),
      onFailed: (clientMsgId, code) => this.onUploadFailed(clientMsgId, code),
      onBackgroundError: (error) => this.backgroundFailed(error),
    });
  }

  // ------------------------------------------------------------------ lifecycle

  /** Opens the local database, shows the cache (ready), then connects and syncs. */
  async start(): Promise<void> {
    if (this.writer.store) return;
    this.stopped = false;
    this.translation.start();
    const drafts = await this.writer.open({
      indexedDB: this.options.indexedDB,
      IDBKeyRange: this.options.IDBKeyRange,
    });
    for (const draft of drafts) this.drafts.set(draft.conversationId, draft.text);
    this.uploads.start();
    await this.uploads.load();
    this.snapshots.dispatch({ type: 'opened' });
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.onOnline);
      window.addEventListener('offline', this.onOffline);
    }
    void this.writer.serial((s) => s.deleteBurnt(Date.now())).catch(this.backgroundFailed);
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
    await this.uploads.stop();
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.onOnline);
      window.removeEventListener('offline', this.onOffline);
    }
    this.syncer.stopRetry();
    this.translation.stop();
    for (const set of this.handles.values()) for (const handle of set) handle.dispose();
    this.handles.clear();
    await this.writer.close();
    this.drafts.clear();
    this.snapshots.dispatch({ type: 'closed' });
  }

  /**
   * Background work that failed. Network and server refusals are redone by the next sync
   * (whose own failure is shown); anything else is a failure of this device's copy (the
   * database refused a write), logged and shown until a retry's sync succeeds.
   */
  private readonly backgroundFailed = (error: unknown): void => {
    if (error instanceof EngineStopped || error instanceof ApiError) return;
    console.error(error);
    this.snapshots.dispatch({
      type: 'failed',
      error: { kind: 'store', code: 'UNKNOWN', retry: () => void this.syncer.sync() },
    });
  };

  private readonly onOnline = () => this.connection.reconnectNow();

  /** Tries the socket again at once instead of waiting out the backoff (a tap on "retry"). */
  reconnectNow(): void {
    this.connection.reconnectNow();
  }
  private readonly onOffline = () => this.connection.dropNow();

  // ------------------------------------------------------------------ public reads

  subscribe(listener: () => void): () => void {
    return this.snapshots.subscribe(listener);
  }

  getSnapshot(): EngineSnapshot {
    return this.snapshots.current;
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
    // A conversation on screen is where sending starts: its check is fetched now, in the
    // background, so the first send does not wait for it.
    loadContentCheck().catch(() => {});
    if (this.connection.isReady)
      void this.syncer.catchUp(conversationId).catch(this.backgroundFailed);
    return handle;
  }

  // ------------------------------------------------------------------ public actions

  /**
   * The reader's mother tongue (from their profile), which messages are translated into
   * wherever a conversation names no language of its own. Translations wait for it.
   */
  setMotherTongue(code: string | null): void {
    if (!this.translation.setMotherTongue(code)) return;
    for (const conversationId of this.handles.keys()) this.snapshots.changed(conversationId, false);
  }

  async updateConversation(conversationId: string, patch: UpdateConversationBody): Promise<void> {
    const conversation = await this.api.updateConversation(conversationId, patch);
    await this.writer.serial((store) => this.writer.putConversations(store, [conversation]));
  }

  async clearHistory(conversationId: string): Promise<void> {
    const conversation = await this.api.clearConversation(conversationId);
    await this.writer.serial((store) => this.writer.putConversations(store, [conversation]));
  }

  async setBurn(conversationId: string, seconds: number): Promise<void> {
    const notice = await this.api.setBurn(conversationId, seconds);
    await this.applyAnswer(conversationId, notice);
  }

  /**
   * Sends a copy of a message, marked forwarded, to each conversation. A chat history
   * record goes on as it is (forwardMerged of it alone).
   */
  async forward(message: LocalMessage, conversationIds: string[]): Promise<void> {
    const { content } = message;
    if (content.kind === 'merged' && message.seq !== null) {
      await this.forwardMerged(message.conversationId, [message.seq], conversationIds);
      return;
    }
    let forwarded: SendableContent;
    if (content.kind === 'text') forwarded = { kind: 'text', text: content.text, forwarded: true };
    else if (isSentContent(content) && content.kind !== 'merged') {
      forwarded = { ...content, forwarded: true };
    } else throw new ApiError('VALIDATION_FAILED', 400);
    for (const conversationId of conversationIds) {
      await this.send(conversationId, forwarded);
    }
  }

  /**
   * Forwards messages of a conversation (their seqs) as one chat history record to each
   * of these conversations. The server writes the record from its stored copies, so it
   * is sent at once, not queued: offline, it fails with the reason and nothing is sent.
   */
  async forwardMerged(
    conversationId: string,
    seqs: readonly number[],
    conversationIds: readonly string[],
  ): Promise<void> {
    for (const target of conversationIds) {
      const message = await this.api.sendMessage({
        conversationId: target,
        clientMsgId: newClientMsgId(),
        content: { kind: 'merged', source: { conversationId, seqs: [...seqs] } },
      });
      await this.applyAnswer(target, message);
    }
  }

  // ------------------------------------------------------------------ used by handles

  /** @internal Stores a message for sending and queues it. */
  async send(conversationId: string, content: SendableContent): Promise<LocalMessage> {
    let sendable: SendableContent;
    try {
      sendable = (await loadContentCheck()).checkSendable(content);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // The check could not be fetched (offline before it ever loaded): the message is
      // kept and sent all the same, and the server, which checks every send, refuses it
      // with its reason if it breaks a rule.
      sendable = content;
    }
    const row = await this.queue(conversationId, sendable, async (store, createdAt) => {
      const quote = sendable.kind === 'text' ? sendable.quote : undefined;
      const [quoted] = quote ? await store.bySeqs(conversationId, [quote.seq]) : [];
      return shownContent(sendable, quoted, createdAt);
    });
    void this.outbox.flush().catch(this.backgroundFailed);
    return toLocal(row);
  }

  /**
   * Stores one of our messages, shown at once as sending (`shown`: its content as this
   * device shows it), with its outbox entry, in one transaction.
   */
  private async queue(
    conversationId: string,
    content: SendableContent,
    shown: (store: LocalStore, createdAt: number) => Promise<MessageContent>,
    upload?: OutboxEntry['upload'],
  ): Promise<StoredMessage> {
    const createdAt = Date.now();
    const row = await this.writer.serial((store) =>
      store.transaction('rw', store.messages, store.outbox, async () => {
        const stored: StoredMessage = {
          id: null,
          conversationId,
          seq: null,
          clientMsgId: newClientMsgId(),
          senderId: this.userId,
          content: await shown(store, createdAt),
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
          content,
          createdAt,
          ...(upload ? { upload } : {}),
        });
        return stored;
      }),
    );
    this.snapshots.changed(conversationId, false);
    return row;
  }

  /**
   * @internal Stores a photo or file message and queues its upload; it is sent once the
   * server has stored the media. Shown at once, with the upload's progress.
   */
  async sendMedia(conversationId: string, media: OutgoingMedia): Promise<LocalMessage> {
    if (!this.options.uploader) throw new ApiError('FEATURE_UNAVAILABLE', 503);
    const content = pendingContent(media);
    const row = await this.queue(conversationId, content, () => Promise.resolve(content), {
      kind: media.kind,
      blob: media.blob,
      name: media.name,
      url: null,
      metadata: uploadMetadata(media),
      ...(media.kind === 'video' ? { poster: { blob: media.poster.blob, url: null } } : {}),
    });
    this.uploads.queued(
      row.clientMsgId,
      media.blob.size + (media.kind === 'video' ? media.poster.blob.size : 0),
    );
    this.uploads.flush();
    return toLocal(row);
  }

  /** Where a photo or file of ours stands in its upload; null once uploaded (or not ours). */
  uploadProgress(clientMsgId: string): UploadProgress | null {
    return this.uploads.get(clientMsgId);
  }

  /** Called on every change of any upload's progress. */
  subscribeUploads(listener: () => void): () => void {
    return this.uploads.subscribe(listener);
  }

  pauseUpload(clientMsgId: string): Promise<void> {
    return this.uploads.pause(clientMsgId);
  }

  resumeUpload(clientMsgId: string): Promise<void> {
    return this.uploads.resume(clientMsgId);
  }

  /** Gives up a photo or file not sent yet: its upload stops and its message goes. */
  async cancelUpload(clientMsgId: string): Promise<void> {
    this.uploads.cancel(clientMsgId);
    await this.writer.serial(async (store) => {
      const row = await store.messages.get([this.userId, clientMsgId]);
      if (!row || row.seq !== null) return;
      await store.transaction('rw', store.messages, store.outbox, async () => {
        await store.messages.delete([this.userId, clientMsgId]);
        await store.outbox.where('clientMsgId').equals(clientMsgId).delete();
      });
      this.snapshots.changed(row.conversationId, false);
    });
  }

  /** The bytes of a photo or file of ours still waiting to be sent (shown from the device). */
  async pendingMedia(clientMsgId: string): Promise<Blob | null> {
    const store = this.writer.store;
    if (!store) return null;
    const entry = await store.outbox.where('clientMsgId').equals(clientMsgId).first();
    return entry?.upload?.blob ?? null;
  }

  /** @internal Queues a failed send again, with the same clientMsgId. */
  retry(clientMsgId: string): void {
    void this.writer
      .serial(async (store) => {
        const row = await store.messages.get([this.userId, clientMsgId]);
        if (!row || row.seq !== null || row.status !== 'failed') return;
        const { error: _error, ...rest } = row;
        const again: StoredMessage = { ...rest, status: 'sending' };
        await store.transaction('rw', store.messages, store.outbox, async () => {
          await store.messages.put(again);
          // Media whose upload was refused keeps its bytes in the outbox: it starts again.
          const waiting = await store.outbox.where('clientMsgId').equals(clientMsgId).first();
          if (waiting?.upload) {
            const { failed: _failed, ...upload } = waiting.upload;
            const poster = upload.poster && { ...upload.poster, url: null };
            await store.outbox.update(waiting.id!, {
              upload: { ...upload, url: null, ...(poster ? { poster } : {}) },
            });
            return;
          }
          await store.outbox.add({
            clientMsgId,
            conversationId: row.conversationId,
            content: sendableOf(row.content),
            createdAt: row.createdAt,
          });
        });
        this.snapshots.changed(row.conversationId, false);
      })
      .then(() => {
        this.uploads.flush();
        return this.outbox.flush();
      })
      .catch(this.backgroundFailed);
  }

  /** @internal */
  async revoke(conversationId: string, seq: number): Promise<void> {
    const notice = await this.api.revokeMessage(conversationId, seq);
    await this.applyAnswer(conversationId, notice);
  }

  /** @internal Gives our own text new words; the notice applies here at once. */
  async edit(conversationId: string, seq: number, text: string): Promise<void> {
    const notice = await this.api.editMessage(conversationId, seq, text);
    await this.applyAnswer(conversationId, notice);
  }

  /**
   * Searches the messages this user can see on the server (texts, file names, place
   * names), newest first: in one conversation, or in all. The server holds the whole
   * history; this device may hold only part of it.
   */
  searchMessages(query: {
    q: string;
    conversationId?: string;
    cursor?: string;
    limit?: number;
  }): Promise<SearchMessagesResult> {
    return this.api.searchMessages(query);
  }

  /** @internal */
  async hide(conversationId: string, seq: number): Promise<void> {
    await this.api.hideMessage(conversationId, seq);
    await this.writer.serial((store) => this.writer.applyHidden(store, conversationId, seq));
  }

  /** @internal Marks the conversation read up to its newest seq. */
  markRead(conversationId: string): void {
    void this.writer
      .serial(async (store) => {
        const conversation = this.writer.conversations.get(conversationId);
        const none = { seq: null, previous: 0, burning: false };
        if (!conversation) return none;
        const next = markReadLocally(conversation);
        if (next === conversation) return none;
        await this.writer.saveConversation(store, next);
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
        if (burning) await this.syncer.refreshBurn(conversationId, previous);
        await this.writer.serial(async (store) => {
          const current = this.writer.conversations.get(conversationId);
          if (current && current.pendingRead !== null && current.pendingRead <= seq) {
            await this.writer.saveConversation(store, { ...current, pendingRead: null });
          }
        });
      })
      .catch(this.backgroundFailed);
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
    this.snapshots.changed(undefined, true);
    void this.writer
      .serial(async (store) => {
        if (text) await store.drafts.put({ conversationId, text });
        else await store.drafts.delete(conversationId);
      })
      .catch(this.backgroundFailed);
  }

  /** @internal */
  detach(handle: Handle): void {
    const set = this.handles.get(handle.conversationId);
    set?.delete(handle);
    if (set?.size === 0) this.handles.delete(handle.conversationId);
  }

  /** @internal Reads a handle's window from the local database. */
  async readWindow(conversationId: string, count: number): Promise<MessageWindow> {
    const store = this.writer.store;
    const conversation = this.writer.conversations.get(conversationId);
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
    if (this.writer.store) this.translation.request(conversationId, seqs);
  }

  /** @internal Makes one translation again (retranslate, or retry a failed one). */
  retranslate(conversationId: string, seq: number): Promise<void> {
    return this.translation.retranslate(conversationId, seq);
  }

  /** @internal Pulls one older page from the server if the local copy is exhausted. */
  pullOlder(conversationId: string, localCount: number, wanted: number): Promise<void> {
    return this.syncer.pullOlder(conversationId, localCount, wanted);
  }

  // ------------------------------------------------------------------ connection

  private onConnectionState(state: ConnectionState): void {
    this.snapshots.dispatch({ type: 'connection', state });
    if (state === 'connecting') this.emitter.emit('connecting');
    if (state !== 'connected') this.outbox.reset();
    this.snapshots.changed(undefined, true);
  }

  private onConnected(): void {
    this.emitter.emit('connected');
    void this.syncer.sync();
    void this.outbox.flush().catch(this.backgroundFailed);
    this.uploads.flush();
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
        void this.onPushedMessage(frame.message).catch(this.backgroundFailed);
        return;
      case 'event':
        void this.onPushedEvent(frame.event).catch(this.backgroundFailed);
        return;
      case 'typing':
        if (frame.userId === this.userId) return;
        this.emitter.emit('typing', { conversationId: frame.conversationId, userId: frame.userId });
        for (const handle of this.handles.get(frame.conversationId) ?? []) handle.showTyping();
        return;
      case 'translation':
        void this.writer
          .serial((store) => this.translation.store(store, [frame.translation]))
          .catch(this.backgroundFailed);
        return;
      case 'read':
        void this.writer
          .serial(async (store) => {
            const conversation = this.writer.conversations.get(frame.conversationId);
            if (!conversation) return null;
            const next = applyRead(conversation, this.userId, frame.userId, frame.seq);
            if (next === conversation) return null;
            await this.writer.saveConversation(store, next);
            // The peer's read started the burn clocks of our messages it covers.
            const burning = conversation.burnSeconds > 0 && frame.userId !== this.userId;
            return burning ? conversation.peerReadSeq : null;
          })
          .then((after) => {
            if (after !== null) return this.syncer.refreshBurn(frame.conversationId, after);
          })
          .catch(this.backgroundFailed);
        return;
      default:
        return;
    }
  }

  private async onAck(clientMsgId: string, message: Message): Promise<void> {
    await this.writer.serial(async (store) => {
      await this.writer.applyServerMessages(store, message.conversationId, [message], true);
      await store.outbox.where('clientMsgId').equals(clientMsgId).delete();
    });
  }

  private async onSendFailed(clientMsgId: string, code: string): Promise<void> {
    await this.writer.serial(async (store) => {
      const row = await store.messages.get([this.userId, clientMsgId]);
      await store.transaction('rw', store.messages, store.outbox, async () => {
        if (row && row.seq === null)
          await store.messages.put({ ...row, status: 'failed', error: code });
        await store.outbox.where('clientMsgId').equals(clientMsgId).delete();
      });
      if (row) this.snapshots.changed(row.conversationId, false);
    });
  }

  private async onUploaded(clientMsgId: string, media: UploadedMedia): Promise<void> {
    const conversationId = await this.writer.serial(async (store) => {
      const entry = await store.outbox.where('clientMsgId').equals(clientMsgId).first();
      const row = await store.messages.get([this.userId, clientMsgId]);
      if (!entry || !row) return null;
      const forwarded = 'forwarded' in entry.content ? entry.content.forwarded : undefined;
      const content = { ...media, ...(forwarded ? { forwarded } : {}) } as SendableContent;
      await store.transaction('rw', store.messages, store.outbox, async () => {
        await store.outbox.update(entry.id!, { content, upload: undefined });
        if (row.seq === null)
          await store.messages.put({ ...row, content: content as MessageContent });
      });
      return row.conversationId;
    });
    if (conversationId) this.snapshots.changed(conversationId, false);
    await this.outbox.flush();
  }

  private async onUploadFailed(clientMsgId: string, code: string): Promise<void> {
    await this.writer.serial(async (store) => {
      const row = await store.messages.get([this.userId, clientMsgId]);
      await store.transaction('rw', store.messages, store.outbox, async () => {
        if (row && row.seq === null)
          await store.messages.put({ ...row, status: 'failed', error: code });
        await store.outbox
          .where('clientMsgId')
          .equals(clientMsgId)
          .modify((entry) => {
            if (entry.upload) entry.upload.failed = code;
          });
      });
      if (row) this.snapshots.changed(row.conversationId, false);
    });
  }

  /** A message the server answered a REST call with (a notice, a record), applied here at once. */
  private applyAnswer(conversationId: string, message: Message): Promise<void> {
    return this.writer.serial((store) =>
      this.writer.applyServerMessages(store, conversationId, [message], true),
    );
  }

  private async onPushedMessage(message: Message): Promise<void> {
    await this.writer.serial((store) =>
      this.writer.applyServerMessages(store, message.conversationId, [message], true),
    );
  }

  private async onPushedEvent(event: UserEvent): Promise<void> {
    const outcome = await this.writer.serial(async (store) => {
      const kind = classifySeq(this.writer.lastEventSeq, event.seq);
      if (kind === 'apply') await this.writer.applyEvents(store, [event]);
      return kind;
    });
    if (outcome === 'gap') await this.syncer.pullEvents();
  }

  private nextOrder(): number {
    this.lastOrder = Math.max(Date.now(), this.lastOrder + 1);
    return this.lastOrder;
  }
}

/** What this device shows of media of ours until the server stored it. */
function pendingContent(
  media: OutgoingMedia,
): Extract<MessageContent, { kind: OutgoingMedia['kind'] }> {
  const size = media.blob.size;
  const mime = media.blob.type || 'application/octet-stream';
  switch (media.kind) {
    case 'image':
      return {
        kind: 'image',
        image: { id: PENDING_MEDIA_ID, width: media.width, height: media.height, size, mime },
      };
    case 'file':
      return {
        kind: 'file',
        file: { id: PENDING_MEDIA_ID, name: cleanFileName(media.name), size, mime },
      };
    case 'voice':
      return {
        kind: 'voice',
        voice: {
          id: PENDING_MEDIA_ID,
          durationMs: media.durationMs,
          size,
          mime,
          waveform: media.waveform,
        },
      };
    case 'video':
      return {
        kind: 'video',
        video: {
          id: PENDING_MEDIA_ID,
          width: media.width,
          height: media.height,
          durationMs: media.durationMs,
          size,
          mime,
          poster: {
            id: PENDING_MEDIA_ID,
            width: media.poster.width,
            height: media.poster.height,
            size: media.poster.blob.size,
            mime: media.poster.blob.type || 'image/jpeg',
          },
        },
      };
  }
}

/** What the server is told of media beside its bytes: lengths, a waveform, a size. */
function uploadMetadata(media: OutgoingMedia): Record<string, string> {
  if (media.kind === 'voice') {
    return { durationMs: String(Math.round(media.durationMs)), waveform: media.waveform };
  }
  if (media.kind === 'video') {
    return {
      durationMs: String(Math.round(media.durationMs)),
      width: String(media.width),
      height: String(media.height),
    };
  }
  return {};
}

/** The seq a reply quotes while its quote still shows it, as a list of zero or one. */
function quotedSeq(row: StoredMessage): number[] {
  const quote = row.content.kind === 'text' ? row.content.quote : undefined;
  return quote && isQuoteAvailable(quote) ? [quote.seq] : [];
}
