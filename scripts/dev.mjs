// Development: the server from source (restarting on change) and Vite's dev server,
// which proxies API and socket calls to it. Stops both on Ctrl-C.
import { spawn } from 'node:child_process';

const processes = [
  spawn('npx', ['tsx', 'watch', '--conditions=source', 'apps/server/src/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: process.env.PORT ?? '3000' },
  }),
  spawn('npm', ['run', 'dev', '-w', '@teltlk/web'], { stdio: 'inherit' }),
];

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of processes) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of processes) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());
