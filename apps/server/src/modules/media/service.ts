import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type {
  FavouritesResult,
  MediaKind,
  MediaLimits,
  MediaUrlsResult,
  UploadedMedia,
} from '@teltlk/protocol';
import { FACE_FAVOURITES_MAX, VOICE_MAX_MS, cleanFileName, mediaIdOf } from '@teltlk/protocol';
import type { MediaConfig } from '../../config.js';
import type { Db, MediaRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, HOUR, MINUTE, type Clock } from '../../lib/clock.js';
import { Semaphore } from '../../lib/semaphore.js';
import { processImage, sniffFile } from './process.js';
import { stripRecording } from './strip-av.js';
import type { MediaRepo } from './repo.js';
import { uploadedOf } from './uploaded.js';
import type { ByteRange, MediaStorage, StoredObject } from './storage.js';

/** The stored forms of a media: the original, and for photos a thumbnail. */
export type MediaVariant = 'original' | 'thumb';

/** How long a signed media address is good for, at least. */
const URL_LIFETIME_MS = HOUR;
/**
 * Expiry times are rounded up to this step, so a screen that asks again a little later
 * gets the same address and the browser's cache answers it.
 */
const URL_EXPIRY_STEP_MS = 10 * MINUTE;
const MB = 1024 * 1024;
/**
 * How long stored media may wait for a message to carry it: an upload finished while the
 * sender went offline is still sent when they come back within a day.
 */
export const UNSENT_MEDIA_KEPT_MS = DAY;
/** An unfinished upload is dropped a day after it began. */
export const UPLOAD_EXPIRY_MS = DAY;
/** Media removed per round of the sweep. */
const SWEEP_BATCH = 500;
/**
 * Photos processed at once: one per core, each on one libvips thread (see process.ts).
 * More at once only make the threads fight over the cores and the caches, and hold more
 * photos in memory.
 */
const PHOTOS_AT_ONCE = availableParallelism();
/** Photos that may wait their turn; past that an upload is answered 'busy' and tried again. */
const PHOTOS_WAITING = 256;

/**
 * Media: the checks on an upload before its bytes are taken (kind, size, daily total),
 * turning a finished upload into stored media, who may read it, and signed addresses.
 */
export class MediaService {
  private readonly photoSlots = new Semaphore(PHOTOS_AT_ONCE, PHOTOS_WAITING);
  private readonly removals = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      db: Db;
      repo: MediaRepo;
      storage: MediaStorage;
      clock: Clock;
      config: MediaConfig;
      /** Signs media addresses. */
      secret: string;
    },
  ) {}

  limits(): MediaLimits {
    const { config } = this.deps;
    return {
      image: config.imageMaxBytes,
      file: config.fileMaxBytes,
      voice: config.voiceMaxBytes,
      video: config.videoMaxBytes,
      dailyBytes: config.dailyBytes,
    };
  }

  /**
   * Refuses an upload before any byte of it is stored: too large, or past today's total.
   * Taken, its declared size is reserved until it is stored or dropped (release), so
   * uploads under way count against the total as well as those stored.
   */
  async checkNewUpload(
    userId: string,
    kind: MediaKind,
    size: number,
    uploadId: string,
  ): Promise<void> {
    const { config, repo, clock } = this.deps;
    const max = this.limits()[kind];
    if (size > max) throw new AppError('MEDIA_TOO_LARGE', { megabytes: Math.floor(max / MB) });
    if (config.dailyBytes === null) return;
    const now = clock.now();
    const reserved = await repo.reserve(
      { id: uploadId, ownerId: userId, size, now },
      { since: now - (now % DAY), liveSince: now - UPLOAD_EXPIRY_MS, cap: config.dailyBytes },
    );
    if (!reserved) throw new AppError('MEDIA_QUOTA_EXCEEDED');
  }

  /** An upload stored, refused, cancelled or dropped no longer counts as under way. */
  release(uploadId: string): Promise<void> {
    return this.deps.repo.release(uploadId);
  }

  /** Forgets the reservations of uploads that have expired. */
  releaseExpired(): Promise<void> {
    return this.deps.repo.releaseBefore(this.deps.clock.now() - UPLOAD_EXPIRY_MS);
  }

  /**
   * Stores a finished upload as media `id`: a photo checked, stripped of its metadata,
   * with a thumbnail and a placeholder; a voice message or a video, typed by its bytes as
   * sound or film, stripped of its metadata in place (strip-av.ts), with what the
   * sender's browser measured of it (length, waveform, size, its poster photo); a file as
   * it is, typed by its bytes.
   */
  async store(userId: string, upload: FinishedUpload): Promise<UploadedMedia> {
    const { storage, repo, clock } = this.deps;
    const { id, kind, path } = upload;
    const name = cleanFileName(upload.name);
    const base = {
      id,
      owner_id: userId,
      kind,
      name,
      created_at: clock.now(),
      width: null,
      height: null,
      placeholder: null,
      thumb_key: null,
      duration_ms: null,
      waveform: null,
      poster_id: null,
    };
    let row: Omit<MediaRow, 'sent'>;
    if (kind === 'image') {
      const image = await this.inTurn(() => processImage(path));
      const originalKey = `${id}/original`;
      const thumbKey = `${id}/thumb`;
      const { original } = image;
      let size: number;
      if ('data' in original) {
        await storage.putBuffer(originalKey, original.data, original.mime);
        size = original.data.length;
      } else {
        size = await storage.takeFile(originalKey, original.path, original.mime, {
          bytes: original.head,
          from: original.from,
        });
      }
      await storage.putBuffer(thumbKey, image.thumb.data, image.thumb.mime);
      row = {
        ...base,
        mime: original.mime,
        size,
        width: image.width,
        height: image.height,
        placeholder: image.placeholder,
        original_key: originalKey,
        thumb_key: thumbKey,
      };
    } else {
      const mime = await sniffFile(path);
      const measured = kind === 'file' ? {} : await this.measured(userId, kind, mime, upload);
      // What is stored is what is played: no place, name or tag rides along.
      if (kind !== 'file') await stripRecording(path, mime);
      const originalKey = `${id}/original`;
      const size = await storage.takeFile(originalKey, path, mime);
      row = { ...base, ...measured, mime, size, original_key: originalKey };
    }
    await repo.insert(row);
    const [stored] = await this.withPosters(repo, [row]);
    return stored!;
  }

  /**
   * What a voice message or a video carries beside its bytes, checked: the bytes are
   * sound (a voice) or film (a video); a video's poster is a photo its sender stored.
   */
  private async measured(
    userId: string,
    kind: 'voice' | 'video',
    mime: string,
    upload: FinishedUpload,
  ): Promise<Partial<MediaRow>> {
    const sound = mime.startsWith('audio/') || mime === 'video/webm' || mime === 'video/mp4';
    if (kind === 'voice' ? !sound : !mime.startsWith('video/')) {
      throw new AppError('MEDIA_TYPE_UNSUPPORTED');
    }
    const durationMs = wholeNumber(upload.durationMs, kind === 'voice' ? VOICE_MAX_MS + 1000 : DAY);
    if (kind === 'voice') {
      const waveform =
        upload.waveform && /^[A-Za-z0-9+/]{1,96}={0,2}$/.test(upload.waveform)
          ? upload.waveform
          : null;
      return { duration_ms: durationMs, waveform };
    }
    const [poster] = upload.posterId ? await this.deps.repo.byIds([upload.posterId]) : [];
    if (!poster || poster.kind !== 'image' || poster.owner_id !== userId) {
      throw new AppError('VALIDATION_FAILED');
    }
    return {
      duration_ms: durationMs,
      width: wholeNumber(upload.width, 100_000) || Number(poster.width),
      height: wholeNumber(upload.height, 100_000) || Number(poster.height),
      poster_id: poster.id,
    };
  }

  /** Rows as messages carry them: a video with its poster photo (one look-up for all). */
  private async withPosters(
    repo: MediaRepo,
    rows: readonly Omit<MediaRow, 'sent'>[],
  ): Promise<UploadedMedia[]> {
    const posterIds = rows.flatMap((row) => (row.poster_id ? [row.poster_id] : []));
    const posters = new Map((await repo.byIds(posterIds)).map((poster) => [poster.id, poster]));
    return rows.flatMap((row) => {
      const poster = row.poster_id ? posters.get(row.poster_id) : undefined;
      if (row.kind === 'video' && !poster) return [];
      return [uploadedOf(row, poster)];
    });
  }

  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    const place = this.photoSlots.take();
    if (!place) throw new AppError('SERVER_BUSY');
    try {
      await place.ready;
      return await work();
    } finally {
      place.release();
    }
  }

  // -------------------------------------------------------------------------- favourites

  /** The caller's favourite stickers, newest first. */
  async favourites(userId: string): Promise<FavouritesResult> {
    const rows = await this.deps.repo.favourites(userId);
    return {
      favourites: rows.flatMap((row) => {
        const media = uploadedOf(row);
        return media.kind === 'image' ? [media.image] : [];
      }),
    };
  }

  /**
   * Keeps a photo the caller can see (theirs, or in a chat they are in) as a sticker, up
   * to FACE_FAVOURITES_MAX; kept, it stays stored while they keep it.
   */
  async addFavourite(userId: string, mediaId: string): Promise<FavouritesResult> {
    const { repo, clock } = this.deps;
    const stored = await this.get(userId, mediaId);
    if (stored.kind !== 'image') throw new AppError('MEDIA_TYPE_UNSUPPORTED');
    if ((await repo.countFavourites(userId)) >= FACE_FAVOURITES_MAX) {
      throw new AppError('FAVOURITES_FULL', { max: FACE_FAVOURITES_MAX });
    }
    await repo.addFavourite(userId, mediaId, clock.now());
    return this.favourites(userId);
  }

  /** Lets a favourite go; its photo goes at the next sweep if nothing else holds it. */
  async removeFavourite(userId: string, mediaId: string): Promise<FavouritesResult> {
    if (!(await this.deps.repo.removeFavourite(userId, mediaId))) {
      throw new AppError('MEDIA_NOT_FOUND');
    }
    return this.favourites(userId);
  }

  /** A stored media its owner (or anyone who may see it) asks about. */
  async get(userId: string, id: string): Promise<UploadedMedia> {
    const { repo, clock } = this.deps;
    const visible = await repo.visibleTo(userId, [id], clock.now());
    const [stored] = await this.withPosters(repo, visible.has(id) ? await repo.byIds([id]) : []);
    if (!stored) throw new AppError('MEDIA_NOT_FOUND');
    return stored;
  }

  /**
   * The media of messages about to be sent, as they are stored, for those the sender may
   * send: their own uploads, or what they can see in a chat (a forward). Read in the
   * sending transaction.
   */
  async forSend(
    senderId: string,
    ids: readonly string[],
    db: Db,
  ): Promise<Map<string, UploadedMedia>> {
    const repo = this.deps.repo.in(db);
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const visible = await repo.visibleTo(senderId, unique, this.deps.clock.now());
    // In the sending transaction: SQLite has one connection, which it holds.
    const stored = await this.withPosters(repo, await repo.byIds([...visible]));
    return new Map(stored.map((media) => [mediaIdOf(media)!, media]));
  }

  /** Records the messages that carry media, in the sending transaction. */
  async linkMessages(
    links: readonly { mediaId: string; conversationId: string; seq: number }[],
    db: Db,
  ): Promise<void> {
    await this.deps.repo.in(db).link(
      links.map(({ mediaId, conversationId, seq }) => ({
        media_id: mediaId,
        conversation_id: conversationId,
        seq,
      })),
    );
  }

  /**
   * Removes the media no message carries any more (their messages revoked, burnt, or
   * deleted or cleared away by everyone in the chat), and uploads never sent within
   * UNSENT_MEDIA_KEPT_MS. Answers how many went.
   */
  async sweep(): Promise<number> {
    await this.deps.repo.unlinkGone(this.deps.clock.now());
    let removed = 0;
    for (;;) {
      const gone = await this.removeUnreferenced();
      removed += gone;
      if (gone < SWEEP_BATCH) return removed;
    }
  }

  /**
   * Messages revoked or burnt: their media goes with them where no other message (a
   * forward) carries it. Runs after their commit; what fails here the sweep does later.
   */
  messagesRemoved(removed: readonly { conversationId: string; seq: number }[]): Promise<void> {
    const work = (async () => {
      const carried = await this.deps.repo.unlink(removed);
      if (carried.length > 0) await this.removeUnreferenced(carried);
    })();
    this.removals.add(work);
    return work.finally(() => this.removals.delete(work));
  }

  /** Resolves once the removals under way are done (before the database closes). */
  async drain(): Promise<void> {
    while (this.removals.size > 0) await Promise.allSettled([...this.removals]);
  }

  /** Removes a batch of unreferenced media (of `among`, when given): rows, then objects. */
  private async removeUnreferenced(among?: readonly string[]): Promise<number> {
    const { repo, storage, clock } = this.deps;
    const gone = await repo.unreferenced(clock.now() - UNSENT_MEDIA_KEPT_MS, SWEEP_BATCH, among);
    if (gone.length === 0) return 0;
    // The rows first, so nobody is handed an address of what is going.
    await repo.remove(gone.map((row) => row.id));
    for (const row of gone) {
      for (const key of [row.original_key, row.thumb_key]) if (key) await storage.remove(key);
    }
    return gone.length;
  }

  /** Signed addresses of the media the user may see; the rest are left out. */
  async urls(userId: string, ids: readonly string[]): Promise<MediaUrlsResult> {
    const { repo, clock } = this.deps;
    const unique = [...new Set(ids)];
    const now = clock.now();
    const visible = await repo.visibleTo(userId, unique, now);
    const rows = await repo.byIds([...visible]);
    const expiresAt = Math.ceil((now + URL_LIFETIME_MS) / URL_EXPIRY_STEP_MS) * URL_EXPIRY_STEP_MS;
    return {
      urls: rows.map((row) => ({
        id: row.id,
        url: this.signedPath(row.id, 'original', expiresAt),
        thumb: row.thumb_key ? this.signedPath(row.id, 'thumb', expiresAt) : null,
        expiresAt,
      })),
    };
  }

  /**
   * What a signed address names: the media row, the object's key, type and size (null
   * for a thumbnail, which is served whole); null when the signature is wrong, the
   * address has expired, or there is no such media.
   */
  async find(address: {
    id: string;
    variant: string;
    expires: string;
    signature: string;
  }): Promise<{ row: MediaRow; key: string; mime: string; size: number | null } | null> {
    const { id, variant, expires, signature } = address;
    if (variant !== 'original' && variant !== 'thumb') return null;
    const expiresAt = Number(expires) * 1000;
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= this.deps.clock.now()) return null;
    if (!sameSignature(signature, this.sign(id, variant, expiresAt))) return null;
    const [row] = await this.deps.repo.byIds([id]);
    if (!row) return null;
    if (variant === 'thumb') {
      return row.thumb_key ? { row, key: row.thumb_key, mime: 'image/webp', size: null } : null;
    }
    return { row, key: row.original_key, mime: row.mime, size: Number(row.size) };
  }

  /** A stored object's bytes (all, or one range), or null when it is gone. */
  read(key: string, range?: ByteRange): Promise<StoredObject | null> {
    return this.deps.storage.get(key, range);
  }

  private signedPath(id: string, variant: MediaVariant, expiresAt: number): string {
    const expires = Math.floor(expiresAt / 1000);
    return `/api/v1/media/${id}/${variant}?e=${expires}&s=${this.sign(id, variant, expiresAt)}`;
  }

  private sign(id: string, variant: MediaVariant, expiresAt: number): string {
    return createHmac('sha256', this.deps.secret)
      .update(`${id}/${variant}/${Math.floor(expiresAt / 1000)}`)
      .digest('base64url');
  }
}

/** A finished upload, with what its metadata told of it. */
export interface FinishedUpload {
  id: string;
  kind: MediaKind;
  name: string;
  path: string;
  durationMs?: string;
  waveform?: string;
  width?: string;
  height?: string;
  posterId?: string;
}

/** A whole number from upload metadata, 0 when it is none, at most `max`. */
function wholeNumber(value: string | undefined, max: number): number {
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? Math.min(number, max) : 0;
}

function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The key that signs media addresses: from config, or made once and kept in the data
 * folder (readable by the server's user only). Read once at start.
 */
export function mediaUrlSecret(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  const path = join(dataDir, 'media-url.key');
  try {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept.length >= 32) return kept;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const made = randomBytes(32).toString('base64url');
  writeFileSync(path, made, { mode: 0o600 });
  return made;
}
