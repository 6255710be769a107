import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { S3Config } from '../../config.js';
import { pathWithin } from '../files/store.js';
import { newId } from '../../lib/random.js';

/** Bytes `start` to `end` of an object, both included (an HTTP byte range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * New bytes that take the place of a file's start, up to `from`. When they are exactly
 * that long, they may be written over the file's start where it lies.
 */
export interface FileHead {
  bytes: Buffer;
  from: number;
}

/** A file's bytes as a stream, after a new head where one is given. */
/** Bytes moved per read and write: a photo in a few steps, not a hundred. */
const COPY_CHUNK_BYTES = 1024 * 1024;

function fileBytes(path: string, head?: FileHead): Readable {
  const options = { highWaterMark: COPY_CHUNK_BYTES };
  if (!head) return createReadStream(path, options);
  return Readable.from(
    (async function* () {
      yield head.bytes;
      yield* createReadStream(path, { ...options, start: head.from });
    })(),
  );
}

/**
 * Copies a file, after a new head where one is given: by the kernel when it is the file as
 * it is; else the head, then the rest in large reads and writes, with no stream between
 * (a photo's copy costs a few milliseconds of CPU rather than a few tens).
 */
async function copyWithHead(path: string, target: string, head?: FileHead): Promise<void> {
  if (!head) {
    await copyFile(path, target);
    return;
  }
  const input = await open(path);
  try {
    const output = await open(target, 'w');
    try {
      const writeAll = async (bytes: Buffer) => {
        for (let done = 0; done < bytes.length;) {
          done += (await output.write(bytes, done, bytes.length - done)).bytesWritten;
        }
      };
      await writeAll(head.bytes);
      const buffer = Buffer.allocUnsafe(COPY_CHUNK_BYTES);
      for (let position = head.from; ;) {
        const { bytesRead } = await input.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        await writeAll(buffer.subarray(0, bytesRead));
        position += bytesRead;
      }
    } finally {
      await output.close();
    }
  } finally {
    await input.close();
  }
}

/** Writes bytes into a file at an offset, over what is there. */
async function writeAt(path: string, bytes: Buffer, position: number): Promise<void> {
  const file = await open(path, 'r+');
  try {
    for (let done = 0; done < bytes.length;) {
      done += (await file.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
    }
  } finally {
    await file.close();
  }
}

/** Renames a file, or copies it where the two places are on different file systems. */
async function moveFile(path: string, target: string): Promise<void> {
  try {
    await rename(path, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(path, target);
  }
}

/** A stored object being read: its bytes (all, or the range asked) and its full size. */
export interface StoredObject {
  body: Readable;
  size: number;
}

/**
 * Where media bytes live, by key (`<media id>/original`, …). Keys come from the server,
 * never from clients. Objects are written once and never changed.
 */
export interface MediaStorage {
  /**
   * Stores a staged file of this node's disk under `key` (with `head` first and the file
   * from offset `from` on, when given); answers the size stored. The file is the
   * storage's to take: it may be changed or moved away rather than copied.
   */
  takeFile(key: string, path: string, contentType: string, head?: FileHead): Promise<number>;
  putBuffer(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  remove(key: string): Promise<void>;
}

/** Media on local disk under one folder. */
export class LocalMediaStorage implements MediaStorage {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    return pathWithin(this.root, key);
  }

  /** A file moves in, its head written in place when it fits there; else it is copied. */
  takeFile(key: string, path: string, _contentType: string, head?: FileHead): Promise<number> {
    return this.write(key, async (partial) => {
      if (head && head.bytes.length === head.from) {
        await writeAt(path, head.bytes, 0);
        await moveFile(path, partial);
      } else if (head) {
        await copyWithHead(path, partial, head);
      } else {
        await moveFile(path, partial);
      }
      return (await stat(partial)).size;
    });
  }

  async putBuffer(key: string, data: Buffer): Promise<void> {
    await this.write(key, (partial) => writeFile(partial, data));
  }

  /** Written under a temporary name and renamed: a reader never sees half an object. */
  private async write<T>(key: string, fill: (partial: string) => Promise<T>): Promise<T> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const partial = `${target}.${newId()}.part`;
    try {
      const result = await fill(partial);
      await rename(partial, target);
      return result;
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const path = this.pathOf(key);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const body = createReadStream(path, range ? { start: range.start, end: range.end } : {});
    return { body, size };
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

/** The AWS SDK, loaded when a bucket is first used: a server on local disk never loads it. */
async function loadSdk() {
  const [client, storage] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
  ]);
  return { ...client, Upload: storage.Upload };
}
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** Media in an S3-compatible bucket (AWS S3, MinIO, Ceph, …). */
export class S3MediaStorage implements MediaStorage {
  private connected: Promise<{ sdk: Sdk; client: InstanceType<Sdk['S3Client']> }> | null = null;

  constructor(private readonly config: S3Config) {}

  private connect() {
    this.connected ??= loadSdk().then((sdk) => {
      const { config } = this;
      const client = new sdk.S3Client({
        endpoint: config.endpoint,
        region: config.region,
        forcePathStyle: config.forcePathStyle,
        credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      });
      return { sdk, client };
    });
    return this.connected;
  }

  async takeFile(key: string, path: string, contentType: string, head?: FileHead): Promise<number> {
    const { sdk, client } = await this.connect();
    // Multipart above its part size, so a large file is never held in memory.
    await new sdk.Upload({
      client,
      params: {
        Bucket: this.config.bucket,
        Key: key,
        Body: fileBytes(path, head),
        ContentType: contentType,
      },
    }).done();
    const { size } = await stat(path);
    return head ? size - head.from + head.bytes.length : size;
  }

  async putBuffer(key: string, data: Buffer, contentType: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: data,
        ContentType: contentType,
      }),
    );
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const { sdk, client } = await this.connect();
    try {
      const answer = await client.send(
        new sdk.GetObjectCommand({
          Bucket: this.config.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const total = range
        ? Number(/\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1] ?? Number.NaN)
        : Number(answer.ContentLength);
      if (!answer.Body || !Number.isFinite(total)) {
        throw new Error(`S3 answer without a size for ${key}`);
      }
      return { body: answer.Body as Readable, size: total };
    } catch (error) {
      if (error instanceof sdk.NoSuchKey) return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
  }
}

export function openMediaStorage(s3: S3Config | null, dataDir: string): MediaStorage {
  return s3 ? new S3MediaStorage(s3) : new LocalMediaStorage(join(dataDir, 'media'));
}
