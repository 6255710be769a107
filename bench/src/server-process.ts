import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { inTempDataDir, spawnServer } from '@teltlk/test-kit';
import { WebSocket } from 'ws';

const serverEntry = fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));
const relayEntry = fileURLToPath(new URL('./bare-relay.ts', import.meta.url));
const seedEntry = fileURLToPath(new URL('./seed/main.ts', import.meta.url));

export type Target = 'teltlk' | 'ws';

export interface ServerProcess {
  target: Target;
  pid: number;
  baseUrl: string;
  wsUrl: string;
  /** The server's DATA_DIR (Teltlk only), for seeding commands against the same database. */
  dataDir?: string;
  /** Resident set size of the process now, in bytes (VmRSS of /proc/<pid>/status). */
  rss(): Promise<number>;
  /** A full garbage collection in the process, through its inspector (`inspect` only). */
  collectGarbage(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /**
   * Opens the V8 inspector on a loopback port, so a benchmark can ask the process for a
   * full GC from outside without any code for it in the server. Both targets take it
   * alike; it costs memory once per process, not per socket.
   */
  inspect?: boolean;
  /** More environment for the server (Teltlk only), e.g. a translation provider. */
  env?: Record<string, string>;
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** Sends one inspector command and waits for its answer. */
function inspectorCall(url: string, method: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ id: 1, method })));
    socket.on('message', (data: Buffer) => {
      const answer = JSON.parse(data.toString()) as { id?: number; error?: { message: string } };
      if (answer.id !== 1) return;
      socket.close();
      if (answer.error) reject(new Error(`${method}: ${answer.error.message}`));
      else resolve();
    });
  });
}

/**
 * Node flags for the servers and seeding commands under test, for looking inside a run: e.g.
 * `BENCH_NODE_FLAGS='--cpu-prof --cpu-prof-dir=prof'` writes each server's CPU profile.
 */
export function serverNodeFlags(): string[] {
  return (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
}

async function start(
  target: Target,
  args: string[],
  env: Record<string, string>,
  options: StartOptions,
): Promise<ServerProcess> {
  const server = await spawnServer({
    args: [...(options.inspect ? ['--inspect=127.0.0.1:0'] : []), ...serverNodeFlags(), ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  const inspectorUrl = /Debugger listening on (ws:\/\/\S+)/.exec(server.output())?.[1] ?? null;
  return {
    target,
    pid: server.pid,
    baseUrl: server.baseUrl,
    wsUrl: server.wsUrl,
    rss: () => rssOf(server.pid),
    async collectGarbage() {
      if (!inspectorUrl) throw new Error('started without inspect');
      await inspectorCall(inspectorUrl, 'HeapProfiler.collectGarbage');
    },
    stop: () => server.stop(),
  };
}

const UNCAPPED = String(1_000_000);
const UNCAPPED_SOCKETS = {
  SOCKETS_PER_SESSION: UNCAPPED,
  SOCKETS_PER_USER: UNCAPPED,
  SOCKETS_PER_ADDRESS: UNCAPPED,
  UNAUTHED_SOCKETS_PER_ADDRESS: UNCAPPED,
};

/**
 * The built server (`apps/server/dist/main.js`) on a free loopback port with its own
 * empty data folder. TRUST_PROXY lets the setup give each registration its own
 * X-Forwarded-For address, since codes are limited per address and hour. The load
 * generators drive a few dozen users as fast as the server goes, far past what a person
 * sends, so the per-user limits are raised (they are still checked on every request). The
 * socket caps are lifted: the load generator opens thousands of sockets from one address
 * through a few accounts, which the caps exist to refuse.
 */
export function startTeltlk(options: StartOptions = {}): Promise<ServerProcess> {
  return inTempDataDir('teltlk-bench-', (dataDir) =>
    start(
      'teltlk',
      [serverEntry],
      {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        TRUST_PROXY: 'loopback',
        RATE_LIMIT_SCALE: '10000',
        ...UNCAPPED_SOCKETS,
        ...options.env,
      },
      options,
    ),
  );
}

/** The bare `ws` relay (bare-relay.ts), run through tsx like the rest of the bench. */
export function startBareRelay(options: StartOptions = {}): Promise<ServerProcess> {
  return start('ws', ['--import', 'tsx', relayEntry], {}, options);
}

/**
 * Runs a seeding command (seed/main.ts, on the server's built code) against the server's
 * database; resolves with its output.
 */
export function seed(
  server: ServerProcess,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...serverNodeFlags(), '--import', 'tsx', seedEntry, ...args],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          DATA_DIR: server.dataDir!,
          LOG_LEVEL: 'warn',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(output.trim())
        : reject(new Error(`seed ${args[0]} exited with ${code}: ${output.trim()}`)),
    );
  });
}
