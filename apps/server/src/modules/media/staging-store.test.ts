import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StagingStore } from './staging-store.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(
    folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })),
  );
});

async function store() {
  const directory = await mkdtemp(join(tmpdir(), 'staging-'));
  folders.push(directory);
  return {
    directory,
    store: new StagingStore({ directory, expirationPeriodInMilliseconds: 60_000 }),
  };
}

/** `count` pieces of `size` bytes, each filled with its index. */
function pieces(count: number, size: number): Buffer[] {
  return Array.from({ length: count }, (_, index) => Buffer.alloc(size, index % 251));
}

describe('StagingStore', () => {
  it('writes a body that comes in small pieces, whole and in order, at the offset asked', async () => {
    const { directory, store: staging } = await store();
    const upload = new Upload({ id: 'abc123', size: 3_000_000, offset: 0, metadata: {} });
    await staging.create(upload);
    const first = pieces(300, 5_000);
    expect(await staging.write(Readable.from(first), 'abc123', 0)).toBe(1_500_000);
    const second = pieces(100, 15_000);
    expect(await staging.write(Readable.from(second), 'abc123', 1_500_000)).toBe(3_000_000);
    const written = await readFile(join(directory, 'abc123'));
    expect(written.equals(Buffer.concat([...first, ...second]))).toBe(true);
    expect((await staging.getUpload('abc123')).offset).toBe(3_000_000);
  });

  it('keeps what came before a body failed, and fails the write', async () => {
    const { directory, store: staging } = await store();
    await staging.create(new Upload({ id: 'cut1', size: 1_000_000, offset: 0, metadata: {} }));
    const body = new Readable({ read() {} });
    const writing = staging.write(body, 'cut1', 0);
    body.push(Buffer.alloc(600_000, 1));
    // The body fails once its first piece is on the disk, which the failure must not undo.
    await vi.waitFor(async () => expect((await stat(join(directory, 'cut1'))).size).toBe(600_000));
    body.destroy(new Error('connection reset'));
    await expect(writing).rejects.toBeTruthy();
    // The first gathered piece reached the disk; the client resumes from what is there.
    expect((await readFile(join(directory, 'cut1'))).length).toBe(600_000);
  });

  it('remembers an upload’s description, and forgets it with the upload, moved away or not', async () => {
    const { directory, store: staging } = await store();
    const upload = new Upload({ id: 'moved1', size: 10, offset: 0, metadata: { owner: 'ada' } });
    await staging.create(upload);
    await writeFile(join(directory, 'moved1.json'), JSON.stringify({ ...upload, metadata: {} }));
    // Read from memory, not from the file changed behind its back.
    expect((await staging.getUpload('moved1')).metadata).toEqual({ owner: 'ada' });
    // Moved into the media storage.
    await rm(join(directory, 'moved1'));
    await staging.remove('moved1');
    expect(await readdir(directory)).toEqual([]);
    await expect(staging.getUpload('moved1')).rejects.toBeTruthy();
    await expect(staging.remove('../etc')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('tells who began an upload from its description, without its staged bytes', async () => {
    const { directory, store: staging } = await store();
    await staging.create(
      new Upload({ id: 'own1', size: 10, offset: 0, metadata: { owner: 'ada' } }),
    );
    await rm(join(directory, 'own1'));
    expect(await staging.ownerOf('own1')).toBe('ada');
    await staging.create(new Upload({ id: 'own2', size: 10, offset: 0, metadata: {} }));
    expect(await staging.ownerOf('own2')).toBeNull();
    expect(await staging.ownerOf('none')).toBeNull();
    expect(await staging.ownerOf('../own1')).toBeNull();
  });
});
