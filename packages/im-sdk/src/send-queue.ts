import {
  type Message,
  type MessageContent,
  type SendableContent,
  type UploadedMedia,
} from '@teltlk/protocol';
import type { Collection } from 'dexie';
import { ApiError } from '@teltlk/client';
import type * as ContentCheckModule from './content-check.js';
import type { Connection } from './connection.js';
import type { LocalWriter } from './local-writer.js';
import { newClientMsgId, OutboxSender } from './outbox.js';
import { pendingContent, uploadMetadata } from './pending-media.js';
import { sendableOf, shownContent, toLocal } from './reducers.js';
import type { Snapshots } from './snapshots.js';
import type { LocalStore, OutboxEntry, StoredMessage } from './store.js';
import type { LocalMessage, OutgoingMedia } from './types.js';
import { UploadQueue, type MediaUploader, type UploadProgress } from './uploads.js';

type ContentCheck = typeof ContentCheckModule;
let contentCheck: Promise<ContentCheck> | null = null;

/** The send check, fetched once; a fetch that failed (offline) is tried again next time. */
export function loadContentCheck(): Promise<ContentCheck> {
  contentCheck ??= import('./content-check.js').catch((error: unknown) => {
    contentCheck = null;
    throw error;
  });
  return contentCheck;
}

export interface SendQueueDeps {
  userId: string;
  writer: LocalWriter;
  connection: Pick<Connection, 'isReady' | 'send'>;
  /** Where our messages' changes show (their conversation's screens). */
  snapshots: Pick<Snapshots, 'changed'>;
  /** Sends the bytes of photos and files; null: media cannot be sent. */
  uploader: MediaUploader | null;
  /** Failures of work nobody waits for. */
  backgroundFailed: (error: unknown) => void;
}

/**
 * Our messages on their way: stored at once and shown as sending, their media uploaded,
 * then sent in order over the socket (the outbox), and marked sent or failed by the
 * server's answer. What is queued survives a reload and goes on the next connect.
 */
export class SendQueue {
  private readonly userId: string;
  private readonly writer: LocalWriter;
  private readonly outbox: OutboxSender;
  private readonly uploads: UploadQueue;
  private lastOrder = 0;

  constructor(private readonly deps: SendQueueDeps) {
    this.userId = deps.userId;
    this.writer = deps.writer;
    this.outbox = new OutboxSender({
      store: () => deps.writer.store,
      send: (frame) => deps.connection.send(frame),
      onAck: (clientMsgId, message) => this.onAck(clientMsgId, message),
      onFailed: (clientMsgId, code) => this.onSendFailed(clientMsgId, code),
    });
    this.uploads = new UploadQueue({
      store: () => deps.writer.store,
      uploader: deps.uploader,
      online: () => deps.connection.isReady,
      onUploaded: (clientMsgId, media) => this.onUploaded(clientMsgId, media),
      onFailed: (clientMsgId, code) => this.onUploadFailed(clientMsgId, code),
      onBackgroundError: (error) => deps.backgroundFailed(error),
    });
  }

  /** The local database is open: the unfinished uploads are read back. */
  async start(): Promise<void> {
    this.uploads.start();
    await this.uploads.load();
  }

  async stop(): Promise<void> {
    this.outbox.reset();
    await this.uploads.stop();
  }

  /** The socket is up: what waits goes now. */
  flush(): void {
    void this.outbox.flush().catch(this.deps.backgroundFailed);
    this.uploads.flush();
  }

  /** The socket is gone: whatever was on its way goes again on the next one. */
  disconnected(): void {
    this.outbox.reset();
  }

  /** The server's answer to a send of ours. */
  acked(rid: string, message: Message): void {
    this.outbox.handleAck(rid, message);
  }

  /** The server's refusal of a frame (one of our sends, if its rid is ours). */
  refused(rid: string | null, code: string): void {
    this.outbox.handleError(rid, code);
  }

  /** Stores a message for sending and queues it. */
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
    void this.outbox.flush().catch(this.deps.backgroundFailed);
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
    this.deps.snapshots.changed(conversationId, false);
    return row;
  }

  /**
   * Stores a photo or file message and queues its upload; it is sent once the
   * server has stored the media. Shown at once, with the upload's progress.
   */
  async sendMedia(conversationId: string, media: OutgoingMedia): Promise<LocalMessage> {
    if (!this.deps.uploader) throw new ApiError('FEATURE_UNAVAILABLE', 503);
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
      this.deps.snapshots.changed(row.conversationId, false);
    });
  }

  /** The bytes of a photo or file of ours still waiting to be sent (shown from the device). */
  async pendingMedia(clientMsgId: string): Promise<Blob | null> {
    const store = this.writer.store;
    if (!store) return null;
    const entry = await store.outbox.where('clientMsgId').equals(clientMsgId).first();
    return entry?.upload?.blob ?? null;
  }

  /** Queues a failed send again, with the same clientMsgId. */
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
        this.deps.snapshots.changed(row.conversationId, false);
      })
      .then(() => {
        this.uploads.flush();
        return this.outbox.flush();
      })
      .catch(this.deps.backgroundFailed);
  }

  private async onAck(clientMsgId: string, message: Message): Promise<void> {
    await this.writer.serial(async (store) => {
      await this.writer.applyServerMessages(store, message.conversationId, [message], true);
      await store.outbox.where('clientMsgId').equals(clientMsgId).delete();
    });
  }

  private onSendFailed(clientMsgId: string, code: string): Promise<void> {
    return this.markFailed(clientMsgId, code, (entries) => entries.delete());
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
    if (conversationId) this.deps.snapshots.changed(conversationId, false);
    await this.outbox.flush();
  }

  /** The upload was refused: the bytes stay queued for a retry, marked failed. */
  private onUploadFailed(clientMsgId: string, code: string): Promise<void> {
    return this.markFailed(clientMsgId, code, (entries) =>
      entries.modify((entry) => {
        if (entry.upload) entry.upload.failed = code;
      }),
    );
  }

  /**
   * Shows one of our messages failed with the refusal's code, and settles its outbox
   * row (`settle` gets the row's query), in one transaction.
   */
  private async markFailed(
    clientMsgId: string,
    code: string,
    settle: (entries: Collection<OutboxEntry, number>) => Promise<unknown>,
  ): Promise<void> {
    await this.writer.serial(async (store) => {
      const row = await store.messages.get([this.userId, clientMsgId]);
      await store.transaction('rw', store.messages, store.outbox, async () => {
        if (row && row.seq === null)
          await store.messages.put({ ...row, status: 'failed', error: code });
        await settle(store.outbox.where('clientMsgId').equals(clientMsgId));
      });
      if (row) this.deps.snapshots.changed(row.conversationId, false);
    });
  }

  private nextOrder(): number {
    this.lastOrder = Math.max(Date.now(), this.lastOrder + 1);
    return this.lastOrder;
  }
}
