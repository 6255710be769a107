import type { MediaKind, UploadedMedia } from '@teltlk/protocol';
import { ApiError } from '@teltlk/client';
import { backoffDelay } from './connection.js';
import type { LocalStore, OutboxEntry } from './store.js';

/** What an upload sends: a photo or a file, and where it stopped if it began before. */
export interface UploadJob {
  kind: MediaKind;
  blob: Blob;
  name: string;
  /** The upload's address on the server once it began: a reload resumes there. */
  url: string | null;
  /** Told to the server with the bytes (a voice's length, a video's poster id). */
  metadata: Record<string, string>;
}

export interface UploadEvents {
  /** The upload has its address on the server (kept, to resume after a reload). */
  onUrl(url: string): void;
  onProgress(sent: number, total: number): void;
}

/**
 * Sends media bytes to the server (resumably: the web app uses the tus protocol). Rejects
 * with an ApiError: a network failure (`NETWORK_ERROR`), or the server's refusal.
 */
export interface MediaUploader {
  upload(job: UploadJob, events: UploadEvents, signal: AbortSignal): Promise<UploadedMedia>;
}

/** An upload as a screen shows it on its bubble. */
export interface UploadProgress {
  sent: number;
  total: number;
  paused: boolean;
}

/** Upload failures that pass: the upload waits and goes on from where it stopped. */
const TRANSIENT_UPLOAD_CODES: ReadonlySet<string> = new Set([
  'NETWORK_ERROR',
  'TIMEOUT',
  'INTERNAL',
  'RATE_LIMITED',
  'SERVER_BUSY',
  'UPLOAD_CONFLICT',
  'UPLOAD_BUSY',
]);

export interface UploadQueueDeps {
  store: () => LocalStore | null;
  uploader: MediaUploader | null;
  /** Whether the network is there (the socket is up): uploads start only then. */
  online: () => boolean;
  /** The media is stored on the server: the message may now be sent. */
  onUploaded(clientMsgId: string, media: UploadedMedia): Promise<void>;
  /** The server refused the upload for good (too large, wrong type, quota). */
  onFailed(clientMsgId: string, code: string): Promise<void>;
  onBackgroundError(error: unknown): void;
  random?: () => number;
}

/**
 * The uploads of queued media messages, one at a time in send order (a slow link is not
 * split between them). The outbox row holds the bytes and the upload's address, so an
 * upload cut off by a reload or a lost connection goes on where it stopped; a message
 * leaves the upload queue only once the server has stored its media, and is then sent
 * like any other.
 */
export class UploadQueue {
  private current: { clientMsgId: string; abort: AbortController } | null = null;
  private readonly progress = new Map<string, UploadProgress>();
  private readonly listeners = new Set<() => void>();
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private stopped = false;
  /** Writes of upload addresses under way: stopping waits for them. */
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly deps: UploadQueueDeps) {}

  /** Starts the next waiting upload unless one is running; safe to call often. */
  flush(): void {
    if (this.current || this.stopped || !this.deps.online()) return;
    void this.next().catch((error: unknown) => this.deps.onBackgroundError(error));
  }

  /** Where an upload stands, or null when it is not waiting or running. */
  get(clientMsgId: string): UploadProgress | null {
    return this.progress.get(clientMsgId) ?? null;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A new upload in the queue: shown waiting until its turn comes. */
  queued(clientMsgId: string, total: number): void {
    this.setProgress(clientMsgId, { sent: 0, total, paused: false });
  }

  /** Stops an upload where it is; it waits until resumed. */
  async pause(clientMsgId: string): Promise<void> {
    await this.setPaused(clientMsgId, true);
    if (this.current?.clientMsgId === clientMsgId) this.current.abort.abort();
  }

  async resume(clientMsgId: string): Promise<void> {
    await this.setPaused(clientMsgId, false);
    this.flush();
  }

  /** Stops an upload for good (the caller removes its message). */
  cancel(clientMsgId: string): void {
    if (this.current?.clientMsgId === clientMsgId) this.current.abort.abort();
    this.progress.delete(clientMsgId);
    this.changed();
  }

  /** Stops the running upload (it resumes at the next start); resolves once its address is kept. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.abort.abort();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.writes;
  }

  start(): void {
    this.stopped = false;
  }

  /** Shows the waiting uploads (after a reload) before any of them runs. */
  async load(): Promise<void> {
    const store = this.deps.store();
    if (!store) return;
    for (const entry of await store.outbox.toArray()) {
      if (!entry.upload || entry.upload.failed) continue;
      this.progress.set(entry.clientMsgId, {
        sent: 0,
        total: entry.upload.blob.size + (entry.upload.poster?.blob.size ?? 0),
        paused: entry.upload.paused === true,
      });
    }
    this.changed();
  }

  private async next(): Promise<void> {
    const store = this.deps.store();
    const uploader = this.deps.uploader;
    if (!store || !uploader) return;
    const entries = await store.outbox.orderBy('id').toArray();
    const entry = entries.find(
      (each): each is OutboxEntry & { upload: NonNullable<OutboxEntry['upload']> } =>
        each.upload !== undefined && !each.upload.paused && !each.upload.failed,
    );
    if (!entry || this.current || this.stopped) return;
    const { clientMsgId, upload } = entry;
    const abort = new AbortController();
    this.current = { clientMsgId, abort };
    const posterBytes = upload.poster?.blob.size ?? 0;
    const total = upload.blob.size + posterBytes;
    this.setProgress(clientMsgId, { sent: 0, total, paused: false });
    const keep = (change: (row: NonNullable<OutboxEntry['upload']>) => void) => {
      this.writes = this.writes
        .then(() =>
          store.outbox
            .where('clientMsgId')
            .equals(clientMsgId)
            .modify((row) => {
              if (row.upload) change(row.upload);
            }),
        )
        .then(
          () => {},
          (error: unknown) => this.deps.onBackgroundError(error),
        );
      return this.writes;
    };
    const progress = (before: number) => (sent: number) => {
      if (!abort.signal.aborted) {
        this.setProgress(clientMsgId, { sent: before + sent, total, paused: false });
      }
    };
    try {
      // A video's poster goes first: the video names it.
      let posterId = upload.poster?.id;
      if (upload.poster && !posterId) {
        const poster = await uploader.upload(
          {
            kind: 'image',
            blob: upload.poster.blob,
            name: 'poster.jpg',
            url: upload.poster.url,
            metadata: {},
          },
          {
            onUrl: (url) => void keep((row) => row.poster && (row.poster.url = url)),
            onProgress: progress(0),
          },
          abort.signal,
        );
        if (poster.kind !== 'image') throw new ApiError('MEDIA_TYPE_UNSUPPORTED', 415);
        posterId = poster.image.id;
        const id = posterId;
        await keep((row) => row.poster && (row.poster.id = id));
      }
      const media = await uploader.upload(
        {
          kind: upload.kind,
          blob: upload.blob,
          name: upload.name,
          url: upload.url,
          metadata: { ...upload.metadata, ...(posterId ? { poster: posterId } : {}) },
        },
        {
          onUrl: (url) => void keep((row) => (row.url = url)),
          onProgress: progress(posterBytes),
        },
        abort.signal,
      );
      this.attempt = 0;
      this.progress.delete(clientMsgId);
      this.changed();
      await this.deps.onUploaded(clientMsgId, media);
    } catch (error) {
      if (abort.signal.aborted) return;
      const code = error instanceof ApiError ? error.code : 'NETWORK_ERROR';
      if (TRANSIENT_UPLOAD_CODES.has(code)) this.retryLater();
      else {
        this.progress.delete(clientMsgId);
        this.changed();
        await this.deps.onFailed(clientMsgId, code);
      }
    } finally {
      if (this.current?.abort === abort) this.current = null;
      if (!this.retryTimer) this.flush();
    }
  }

  /** A failure that passes: the same upload again after a growing pause. */
  private retryLater(): void {
    if (this.retryTimer || this.stopped) return;
    const delay = backoffDelay(this.attempt++, this.deps.random);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.flush();
    }, delay);
  }

  private async setPaused(clientMsgId: string, paused: boolean): Promise<void> {
    const store = this.deps.store();
    if (!store) return;
    await store.outbox
      .where('clientMsgId')
      .equals(clientMsgId)
      .modify((row) => {
        if (row.upload) row.upload.paused = paused;
      });
    const known = this.progress.get(clientMsgId);
    if (known) this.setProgress(clientMsgId, { ...known, paused });
  }

  private setProgress(clientMsgId: string, progress: UploadProgress): void {
    this.progress.set(clientMsgId, progress);
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
