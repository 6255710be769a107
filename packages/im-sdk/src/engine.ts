import type {
  SearchMessagesResult,
  SendableContent,
  ServerFrame,
  UpdateConversationBody,
} from '@teltlk/protocol';
import { routes, type ApiClient, type EndpointOf } from '@teltlk/client';
import type { EndpointInput } from '@teltlk/protocol';
import { Connection, type EndReason } from './connection.js';
import { ConversationActions } from './conversation-actions.js';
import { CallsClient } from './calls.js';
import { Emitter } from './emitter.js';
import { Handle, type HandleHost, type MessageWindow } from './handle.js';
import { LocalWriter } from './local-writer.js';
import { readWindow } from './message-window.js';
import { Pushes } from './pushes.js';
import { Screens } from './screens.js';
import { loadContentCheck, SendQueue } from './send-queue.js';
import { Snapshots } from './snapshots.js';
import { LocalStore } from './store.js';
import { SyncController } from './sync-controller.js';
import { TranslationSync } from './translation-sync.js';
import type { MediaUploader, UploadProgress } from './uploads.js';
import type {
  ConnectionState,
  ConversationHandle,
  EngineEvents,
  EngineSnapshot,
  LocalMessage,
  OutgoingMedia,
} from './types.js';

export { PAGE_SIZE } from './handle.js';
export { PENDING_MEDIA_ID } from './pending-media.js';
export type { MediaUploader, UploadEvents, UploadJob, UploadProgress } from './uploads.js';

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

/** What a message search asks, as its endpoint declares it. */
type SearchQuery = NonNullable<EndpointInput<EndpointOf<typeof routes.messages.search>>['query']>;

/** What the socket tells the engine; the parts built after it subscribe. */
interface SocketSignals {
  state: ConnectionState;
  /** The server accepted the token. */
  ready: void;
  frame: ServerFrame;
}

/**
 * The client messaging engine: a local IndexedDB copy of the user's conversations and
 * messages, kept in step with the server by a resumable socket and seq-based sync.
 *
 * Its parts are built in the order they depend on each other, each given the parts it
 * uses: the socket, the local writer, the snapshots, the sync, translations, the send
 * queue, the REST actions, and what the server pushes. What flows back (the socket's
 * frames, the writer's changes) arrives as signals the later parts subscribe to.
 */
export class ImEngine implements HandleHost {
  private readonly emitter = new Emitter<EngineEvents>();
  private readonly screens = new Screens();
  private readonly drafts = new Map<string, string>();
  private readonly connection: Connection;
  private readonly writer: LocalWriter;
  private readonly snapshots: Snapshots;
  private readonly syncer: SyncController;
  private readonly translation: TranslationSync;
  private readonly sendQueue: SendQueue;
  private readonly actions: ConversationActions;
  /** Calls: the ones this person is rung by or in, and their signalling. */
  readonly calls: CallsClient;
  private stopped = false;

  constructor(private readonly options: EngineOptions) {
    const { api, userId } = options;
    const { emitter, screens, drafts } = this;
    const socket = new Emitter<SocketSignals>();
    const connection = new Connection({
      url: options.wsUrl,
      getToken: () => options.getToken(),
      WebSocket: options.WebSocket ?? globalThis.WebSocket,
      onState: (state) => socket.emit('state', state),
      onFailed: () => emitter.emit('connectFailed'),
      onReady: () => socket.emit('ready'),
      onFrame: (frame) => socket.emit('frame', frame),
      onEnd: (reason) => emitter.emit(END_EVENTS[reason]),
    });
    const writer = new LocalWriter(userId, emitter);
    writer.signals.on('peerWrote', (conversationId) => screens.hideTyping(conversationId));
    const snapshots = new Snapshots({ writer, drafts, screens });
    const syncer = new SyncController({
      api,
      writer,
      emitter,
      connection,
      screens,
      snapshots,
      stopped: () => this.stopped,
    });
    const translation = new TranslationSync({
      api,
      userId,
      serial: (fn) => writer.serial(fn),
      conversation: (conversationId) => writer.conversations.get(conversationId),
      onChange: (conversationId) => snapshots.changed(conversationId, false),
      onInfo: (info) => snapshots.setTranslation(info),
      onTranslation: (value) => emitter.emit('translation', value),
      onBackgroundError: syncer.backgroundFailed,
    });
    const sendQueue = new SendQueue({
      userId,
      writer,
      connection,
      snapshots,
      uploader: options.uploader ?? null,
      backgroundFailed: syncer.backgroundFailed,
    });
    const actions = new ConversationActions({ api, writer, syncer, connection, sendQueue });
    const pushes = new Pushes({
      userId,
      emitter,
      writer,
      syncer,
      translation,
      screens,
      sendQueue,
    });
    socket.on('state', (state) => this.onConnectionState(state));
    socket.on('ready', () => this.onConnected());
    const calls = new CallsClient({
      api,
      socket: connection,
      onBackgroundError: syncer.backgroundFailed,
    });
    socket.on('frame', (frame) => {
      if (!calls.handle(frame)) pushes.handle(frame);
    });
    this.calls = calls;
    this.connection = connection;
    this.writer = writer;
    this.snapshots = snapshots;
    this.syncer = syncer;
    this.translation = translation;
    this.sendQueue = sendQueue;
    this.actions = actions;
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
    await this.sendQueue.start();
    this.snapshots.dispatch({ type: 'opened' });
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.onOnline);
      window.addEventListener('offline', this.onOffline);
    }
    void this.writer.serial((s) => s.deleteBurnt(Date.now())).catch(this.syncer.backgroundFailed);
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
    this.snapshots.dispatch({ type: 'closed' });
    this.connection.stop();
    await this.sendQueue.stop();
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.onOnline);
      window.removeEventListener('offline', this.onOffline);
    }
    this.syncer.stopRetry();
    this.translation.stop();
    this.calls.stop();
    this.screens.closeAll();
    await this.writer.close();
    this.drafts.clear();
  }

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
    this.screens.add(handle);
    void handle.reload();
    // A conversation on screen is where sending starts: its check is fetched now, in the
    // background, so the first send does not wait for it.
    loadContentCheck().catch(() => {});
    if (this.connection.isReady)
      void this.syncer.catchUp(conversationId).catch(this.syncer.backgroundFailed);
    return handle;
  }

  /**
   * Searches the messages this user can see on the server (texts, file names, place
   * names), newest first: in one conversation, or in all. The server holds the whole
   * history; this device may hold only part of it.
   */
  searchMessages(query: SearchQuery): Promise<SearchMessagesResult> {
    return this.options.api.call(routes.messages.search, { query });
  }

  // ------------------------------------------------------------------ public actions

  /**
   * The reader's mother tongue (from their profile), which messages are translated into
   * wherever a conversation names no language of its own. Translations wait for it.
   */
  setMotherTongue(code: string | null): void {
    if (!this.translation.setMotherTongue(code)) return;
    for (const conversationId of this.screens.conversationIds()) {
      this.snapshots.changed(conversationId, false);
    }
  }

  updateConversation(conversationId: string, patch: UpdateConversationBody): Promise<void> {
    return this.actions.updateConversation(conversationId, patch);
  }

  clearHistory(conversationId: string): Promise<void> {
    return this.actions.clearHistory(conversationId);
  }

  setBurn(conversationId: string, seconds: number): Promise<void> {
    return this.actions.setBurn(conversationId, seconds);
  }

  /**
   * Sends a copy of a message, marked forwarded, to each conversation. A chat history
   * record goes on as it is (forwardMerged of it alone).
   */
  forward(message: LocalMessage, conversationIds: string[]): Promise<void> {
    return this.actions.forward(message, conversationIds);
  }

  /**
   * Forwards messages of a conversation (their seqs) as one chat history record to each
   * of these conversations, at once: offline, it fails with the reason and nothing is sent.
   */
  forwardMerged(
    conversationId: string,
    seqs: readonly number[],
    conversationIds: readonly string[],
  ): Promise<void> {
    return this.actions.forwardMerged(conversationId, seqs, conversationIds);
  }

  /** Where a photo or file of ours stands in its upload; null once uploaded (or not ours). */
  uploadProgress(clientMsgId: string): UploadProgress | null {
    return this.sendQueue.uploadProgress(clientMsgId);
  }

  /** Called on every change of any upload's progress. */
  subscribeUploads(listener: () => void): () => void {
    return this.sendQueue.subscribeUploads(listener);
  }

  pauseUpload(clientMsgId: string): Promise<void> {
    return this.sendQueue.pauseUpload(clientMsgId);
  }

  resumeUpload(clientMsgId: string): Promise<void> {
    return this.sendQueue.resumeUpload(clientMsgId);
  }

  /** Gives up a photo or file not sent yet: its upload stops and its message goes. */
  cancelUpload(clientMsgId: string): Promise<void> {
    return this.sendQueue.cancelUpload(clientMsgId);
  }

  /** The bytes of a photo or file of ours still waiting to be sent (shown from the device). */
  pendingMedia(clientMsgId: string): Promise<Blob | null> {
    return this.sendQueue.pendingMedia(clientMsgId);
  }

  // ------------------------------------------------------------------ used by handles

  /** @internal Stores a message for sending and queues it. */
  send(conversationId: string, content: SendableContent): Promise<LocalMessage> {
    return this.sendQueue.send(conversationId, content);
  }

  /** @internal Stores a photo or file message and queues its upload. */
  sendMedia(conversationId: string, media: OutgoingMedia): Promise<LocalMessage> {
    return this.sendQueue.sendMedia(conversationId, media);
  }

  /** @internal Queues a failed send again, with the same clientMsgId. */
  retry(clientMsgId: string): void {
    this.sendQueue.retry(clientMsgId);
  }

  /** @internal */
  revoke(conversationId: string, seq: number): Promise<void> {
    return this.actions.revoke(conversationId, seq);
  }

  /** @internal Gives our own text new words; the notice applies here at once. */
  edit(conversationId: string, seq: number, text: string): Promise<void> {
    return this.actions.edit(conversationId, seq, text);
  }

  /** @internal */
  hide(conversationId: string, seq: number): Promise<void> {
    return this.actions.hide(conversationId, seq);
  }

  /** @internal Marks the conversation read up to its newest seq. */
  markRead(conversationId: string): void {
    this.actions.markRead(conversationId);
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
      .catch(this.syncer.backgroundFailed);
  }

  /** @internal */
  detach(handle: Handle): void {
    this.screens.remove(handle);
  }

  /** @internal Reads a handle's window from the local database. */
  readWindow(conversationId: string, count: number): Promise<MessageWindow> {
    return readWindow(this.writer, this.translation, conversationId, count);
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
    if (state !== 'connected') this.sendQueue.disconnected();
    this.snapshots.changed(undefined, true);
  }

  private onConnected(): void {
    this.emitter.emit('connected');
    void this.syncer.sync();
    this.sendQueue.flush();
    this.translation.onConnected();
    this.calls.onConnected();
  }
}
