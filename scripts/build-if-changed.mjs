// `npm start`'s first step: builds only when the build's inputs changed (build-stamp.mjs).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildNeeded, writeStamp } from './build-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { needed, reason, hash } = await buildNeeded(root);
if (!needed) {
  console.log(`Build is up to date (${reason}).`);
} else {
  console.log(`Building (${reason})…`);
  const build = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // Hashed before building: an edit made during the build is seen on the next start.
  await writeStamp(root, hash);
}
