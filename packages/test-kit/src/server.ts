import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

/** A loopback port nothing listens on right now. */
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

/** Waits until the server answers /healthz; fails at once if it exits, or after `timeoutMs`. */
export async function waitForHealth(
  baseUrl: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited early:\n${output()}`);
    }
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not become healthy:\n${output()}`);
}

export interface ServerOptions {
  /** Node's arguments: flags, then the entry script and its arguments. */
  args: string[];
  /** The server's environment; PORT and HOST are set here. */
  env: Record<string, string | undefined>;
  cwd?: string;
  /** A fixed port (a restart on the same address); a free one otherwise. */
  port?: number;
}

export interface SpawnedServer {
  child: ChildProcess;
  pid: number;
  port: number;
  baseUrl: string;
  wsUrl: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /**
   * Ends the process (SIGTERM: a clean shutdown; SIGKILL: a crash) and waits for it; one
   * that has not ended 10 s after a SIGTERM is killed.
   */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** How long a server may take to shut down before it is killed. */
const STOP_GRACE_MS = 10_000;

/** Starts a server process on a loopback port and resolves once it is healthy. */
export async function spawnServer(options: ServerOptions): Promise<SpawnedServer> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    // Test servers read their codes from the dev outbox unless told otherwise.
    env: { DEV_OUTBOX: 'true', ...options.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const output = () => log;
  try {
    await waitForHealth(baseUrl, child, output);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    child,
    pid: child.pid!,
    port,
    baseUrl,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Starts a server in a new empty data folder (under the system's temporary folder, named
 * from `prefix`), removed again when the server stops or fails to start.
 */
export async function inTempDataDir<S extends { stop(): Promise<void> }>(
  prefix: string,
  start: (dataDir: string) => Promise<S>,
): Promise<S & { dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  try {
    const server = await start(dataDir);
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
