import { open, type FileHandle } from 'node:fs/promises';

/** A recording its container's framing does not describe to the end: refused, never stored. */
export class Unreadable extends Error {}

export function unreadable(why: string): never {
  throw new Unreadable(why);
}

/** Bytes read at once while walking a file; the walks go forward, mostly skipping. */
const WINDOW_BYTES = 256 * 1024;
const ZEROS = Buffer.alloc(1024 * 1024);

/**
 * A staged upload read by position, through a window, and changed in place: the changes
 * are planned while the whole file is walked and written only once it all made sense,
 * so a file refused halfway is left as it came.
 */
export class StagedFile {
  private window: Buffer = Buffer.alloc(0);
  private windowAt = 0;
  private readonly writes: { at: number; bytes: Buffer }[] = [];
  private readonly zeros: [number, number][] = [];

  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  static async open(path: string): Promise<StagedFile> {
    const handle = await open(path, 'r+');
    try {
      return new StagedFile(handle, (await handle.stat()).size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Exactly `length` bytes from `at` (unreadable when the file ends first). The bytes may
   * be the window's own: copy them before changing them.
   */
  async read(at: number, length: number): Promise<Buffer> {
    if (at < 0 || length < 0 || at + length > this.size) unreadable('cut short');
    const from = at - this.windowAt;
    if (from >= 0 && from + length <= this.window.length) {
      return this.window.subarray(from, from + length);
    }
    if (length > WINDOW_BYTES) return this.readExactly(at, length);
    this.window = await this.readExactly(at, Math.min(WINDOW_BYTES, this.size - at));
    this.windowAt = at;
    return this.window.subarray(0, length);
  }

  /** Up to `length` bytes from `at`: fewer at the end of the file. */
  peek(at: number, length: number): Promise<Buffer> {
    return this.read(at, Math.max(0, Math.min(length, this.size - at)));
  }

  private async readExactly(at: number, length: number): Promise<Buffer> {
    const bytes = Buffer.allocUnsafe(length);
    for (let done = 0; done < length;) {
      const { bytesRead } = await this.handle.read(bytes, done, length - done, at + done);
      if (bytesRead === 0) unreadable('cut short');
      done += bytesRead;
    }
    return bytes;
  }

  /** Plans `bytes` written over the file at `at`. */
  write(at: number, bytes: Buffer): void {
    this.writes.push({ at, bytes });
  }

  /** Plans zeros over [start, end). */
  zero(start: number, end: number): void {
    if (end > start) this.zeros.push([start, end]);
  }

  /** Writes what was planned: the zeros first, then the bytes (a new header over a blanked box). */
  async apply(): Promise<void> {
    for (const [start, end] of this.zeros) {
      for (let at = start; at < end; at += ZEROS.length) {
        await this.writeAll(ZEROS.subarray(0, Math.min(ZEROS.length, end - at)), at);
      }
    }
    for (const { at, bytes } of this.writes) await this.writeAll(bytes, at);
  }

  private async writeAll(bytes: Buffer, at: number): Promise<void> {
    for (let done = 0; done < bytes.length;) {
      done += (await this.handle.write(bytes, done, bytes.length - done, at + done)).bytesWritten;
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}
