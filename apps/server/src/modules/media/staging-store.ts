import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { FileConfigstore, FileStore, type Configstore } from '@tus/file-store';
import { Upload } from '@tus/server';
import { AppError } from '../../errors.js';

/**
 * Bytes gathered before each write to a staged file. A request body arrives in pieces of
 * up to 64 KB; writing each on its own costs a system call and a trip through the thread
 * pool apiece (seventy for a 4 MB photo), where a few writes of the same pieces do.
 */
const WRITE_BYTES = 512 * 1024;
/** Uploads whose description is kept in memory: more than are ever under way at once. */
const DESCRIPTIONS_KEPT = 10_000;

/** Passes bytes on in pieces of at least `bytes`, and what is left at the end. */
class Gather extends Transform {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(private readonly bytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.parts.push(chunk);
    this.size += chunk.length;
    if (this.size >= this.bytes) this.release();
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.size > 0) this.release();
    done();
  }

  private release(): void {
    this.push(this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size));
    this.parts = [];
    this.size = 0;
  }
}

/**
 * Each upload's description (size, metadata, owner), kept in its JSON file beside the
 * staged bytes as tus' file store does, and also in memory: every request of an upload
 * reads it, twice (the owner check, then the protocol), and it does not change once
 * written. Only the recent ones are kept; others are read from disk as before.
 */
class RememberedConfigstore implements Configstore<Upload> {
  private readonly kept = new Map<string, Upload>();
  private readonly disk: FileConfigstore<Upload>;

  constructor(directory: string) {
    this.disk = new FileConfigstore<Upload>(directory);
  }

  async get(key: string): Promise<Upload | undefined> {
    const kept = this.kept.get(key);
    if (kept) return kept;
    const read = await this.disk.get(key);
    if (read) this.keep(key, read);
    return read;
  }

  async set(key: string, value: Upload): Promise<void> {
    this.kept.delete(key);
    await this.disk.set(key, value);
    this.keep(key, value);
  }

  async delete(key: string): Promise<void> {
    this.kept.delete(key);
    await this.disk.delete(key);
  }

  list(): Promise<string[]> {
    return this.disk.list();
  }

  private keep(key: string, value: Upload): void {
    this.kept.set(key, value);
    if (this.kept.size > DESCRIPTIONS_KEPT) this.kept.delete(this.kept.keys().next().value!);
  }
}

/** Ids are ours (newId); anything else names no staged upload. */
function isStagedId(fileId: string): boolean {
  return /^[0-9a-z]{1,64}$/.test(fileId);
}

/**
 * Where uploads are staged until they finish: tus' file store, with its writes gathered
 * into large ones and its upload descriptions remembered.
 */
export class StagingStore extends FileStore {
  /** Uploads finished whose bytes may have left for the media storage before their description. */
  private readonly finished = new Set<string>();

  private readonly onRemove: (fileId: string) => Promise<void>;

  constructor(options: {
    directory: string;
    expirationPeriodInMilliseconds: number;
    /** Called once an upload's staged bytes and description are gone. */
    onRemove?: (fileId: string) => Promise<void>;
  }) {
    const { onRemove = () => Promise.resolve(), ...rest } = options;
    super({ ...rest, configstore: new RememberedConfigstore(options.directory) });
    this.onRemove = onRemove;
  }

  /**
   * Marks an upload as finished: from now on it is complete whether or not its bytes are
   * still staged (tus reads it once more while answering a request that began and
   * finished it at once, after they were moved).
   */
  markFinished(fileId: string): void {
    this.finished.add(fileId);
  }

  override async getUpload(fileId: string): Promise<Upload> {
    try {
      return await super.getUpload(fileId);
    } catch (error) {
      const description = this.finished.has(fileId)
        ? await this.configstore.get(fileId)
        : undefined;
      if (description?.size === undefined) throw error;
      return new Upload({ ...description, offset: description.size });
    }
  }

  /**
   * Who began an upload, from its description alone (tus' `getUpload` also looks at the
   * staged file for its offset, which an owner check does not need); null for none.
   */
  async ownerOf(fileId: string): Promise<string | null> {
    if (!isStagedId(fileId)) return null;
    const owner = (await this.configstore.get(fileId))?.metadata?.owner;
    return typeof owner === 'string' ? owner : null;
  }

  /** The staged bytes may have been moved into the media storage already: that is fine. */
  override async remove(fileId: string): Promise<void> {
    if (!isStagedId(fileId)) throw new AppError('NOT_FOUND');
    await rm(join(this.directory, fileId), { force: true });
    await this.configstore.delete(fileId);
    this.finished.delete(fileId);
    await this.onRemove(fileId);
  }

  override write(readable: Readable, fileId: string, offset: number): Promise<number> {
    const gathered = pipeline(readable, new Gather(WRITE_BYTES), () => {});
    return super.write(gathered, fileId, offset);
  }
}
