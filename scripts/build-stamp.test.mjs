import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, buildNeeded, writeStamp } from './build-stamp.mjs';

describe('the start-up build check', () => {
  let root;
  const put = async (path, text) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  };
  /** What `npm start` does after a build that succeeded. */
  const build = async () => {
    for (const output of BUILD_OUTPUTS) await put(output, 'built');
    await writeStamp(root, (await buildNeeded(root)).hash);
  };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'teltlk-stamp-'));
    await put('package.json', '{}');
    await put('package-lock.json', '{}');
    await put('packages/protocol/src/index.ts', 'export const a = 1;');
    await put('apps/server/src/main.ts', 'console.log(1);');
    await put('apps/web/src/app/main.tsx', 'export {};');
    await put('apps/web/public/logo.svg', '<svg/>');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('builds a fresh clone, then not again while nothing changed', async () => {
    expect((await buildNeeded(root)).needed).toBe(true);
    await build();
    expect(await buildNeeded(root)).toMatchObject({ needed: false });
    // Outputs, data, dependencies and files outside the build's inputs change nothing.
    await put('apps/web/dist/assets/x.js', 'built again');
    await put('apps/server/node_modules/x/index.js', '');
    await put('data/teltlk.db', 'rows');
    await put('README.md', 'more words');
    await put('e2e/src/x.e2e.ts', '');
    expect((await buildNeeded(root)).needed).toBe(false);
  });

  it('builds again after any change to a source, a public file, a config or the lockfile', async () => {
    const changes = [
      () => put('apps/server/src/main.ts', 'console.log(2);'),
      () => put('apps/web/src/app/new-page.tsx', 'export {};'),
      () => unlink(join(root, 'packages/protocol/src/index.ts')),
      () => put('apps/web/public/logo.svg', '<svg></svg>'),
      () => put('apps/web/vite.config.ts', 'export default {};'),
      () => put('package-lock.json', '{"lockfileVersion":3}'),
    ];
    for (const change of changes) {
      await build();
      await change();
      expect((await buildNeeded(root)).needed).toBe(true);
    }
  });

  it('builds again when an output is gone', async () => {
    await build();
    await unlink(join(root, 'apps/web/dist/index.html'));
    expect(await buildNeeded(root)).toMatchObject({
      needed: true,
      reason: 'apps/web/dist/index.html is missing',
    });
  });
});
