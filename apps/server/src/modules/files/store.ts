import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';

/** The path of a store's key under its root folder; a key that leads outside it is a bug. */
export function pathWithin(root: string, key: string): string {
  const path = normalize(join(root, key));
  if (!path.startsWith(root + sep)) throw new Error(`key outside the store: ${key}`);
  return path;
}

/** URL prefix the stored files are served under. */
export const FILES_URL_PREFIX = '/files/';

/**
 * Uploaded files on local disk under `<DATA_DIR>/files`, addressed by a relative key such
 * as `avatars/abc.webp`. Keys come from the server, never from clients.
 */
export class FileStore {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    return pathWithin(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename would be atomic, but keys are fresh random names, so nobody reads a half file.
    await writeFile(path, data);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  urlOf(key: string): string {
    return FILES_URL_PREFIX + key;
  }
}
