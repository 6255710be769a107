import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';

const serverEntry = fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));
const relayEntry = fileURLToPath(new URL('./bare-relay.ts', import.meta.url));

export type Target = 'teltlk' | 'ws';

export interface ServerProcess {
  target: Target;
  pid: number;
  baseUrl: string;
  wsUrl: string;
  /** The server's DATA_DIR (Teltlk only), for operator commands against the same database. */
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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output()}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not become healthy:\n${output()}`);
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
 * Node flags for the servers and operator commands under test, for looking inside a run: e.g.
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
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...(options.inspect ? ['--inspect=127.0.0.1:0'] : []), ...serverNodeFlags(), ...args],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        HOST: '127.0.0.1',
        PORT: String(port),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const inspectorUrl = /Debugger listening on (ws:\/\/\S+)/.exec(log)?.[1] ?? null;
  return {
    target,
    pid: child.pid!,
    baseUrl,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    rss: () => rssOf(child.pid!),
    async collectGarbage() {
      if (!inspectorUrl) throw new Error('started without inspect');
      await inspectorCall(inspectorUrl, 'HeapProfiler.collectGarbage');
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
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
export async function startTeltlk(options: StartOptions = {}): Promise<ServerProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'teltlk-bench-'));
  try {
    const server = await start(
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
    );
    return {
      ...server,
      dataDir,
      async stop() {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The bare `ws` relay (bare-relay.ts), run through tsx like the rest of the bench. */
export function startBareRelay(options: StartOptions = {}): Promise<ServerProcess> {
  return start('ws', ['--import', 'tsx', relayEntry], {}, options);
}
