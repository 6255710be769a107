// Whether `npm start` must build first: a hash of everything the build reads (sources,
// public files, configs, the lockfile), compared with the hash written after the last
// build that succeeded. A fresh clone has no stamp and builds; any change to an input, a
// new or deleted file among them, or a missing build output builds again.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** Files and folders the build reads, from the repository root. */
export const BUILD_INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'packages/protocol',
  'packages/client',
  'packages/im-sdk',
  'packages/pi-sdk',
  'packages/pi-sandbox',
  'apps/server',
  'apps/web',
];

/** What a finished build leaves; any one missing means building again. */
export const BUILD_OUTPUTS = [
  'packages/protocol/dist/index.js',
  'packages/pi-sandbox/dist/pi-sdk.js',
  'apps/server/dist/main.js',
  'apps/web/dist/index.html',
];

/** Inside the server's build output, so deleting the outputs deletes the stamp too. */
export const STAMP_PATH = 'apps/server/dist/.build-inputs';

/** Folders inside the inputs that are outputs, caches or data, not sources. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'data']);
const SKIPPED_FILES = /\.(?:tsbuildinfo|log)$/;

async function filesUnder(root, path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  const entries = await readdir(full, { withFileTypes: true }).catch((error) => {
    if (error.code === 'ENOTDIR') return null;
    throw error;
  });
  if (entries === null) return [path];
  const files = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) files.push(...(await filesUnder(root, child)));
    } else if (entry.isFile() && !SKIPPED_FILES.test(entry.name)) {
      files.push(child);
    }
  }
  return files;
}

/** SHA-256 over the inputs' paths and contents, in a fixed order. */
export async function inputsHash(root) {
  const files = (await Promise.all(BUILD_INPUTS.map((path) => filesUnder(root, path))))
    .flat()
    .map((file) => relative(root, join(root, file)).split(sep).join('/'))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether to build, and why (for the line `npm start` prints). */
export async function buildNeeded(root) {
  const hash = await inputsHash(root);
  const missing = BUILD_OUTPUTS.find((path) => !existsSync(join(root, path)));
  if (missing) return { needed: true, reason: `${missing} is missing`, hash };
  const stamp = await readFile(join(root, STAMP_PATH), 'utf8').catch(() => null);
  if (stamp === null) return { needed: true, reason: 'no record of an earlier build', hash };
  if (stamp.trim() !== hash) return { needed: true, reason: 'sources changed', hash };
  return { needed: false, reason: 'nothing changed since the last build', hash };
}

/** Records the inputs a successful build was made from. */
export async function writeStamp(root, hash) {
  const path = join(root, STAMP_PATH);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${hash}\n`);
}
