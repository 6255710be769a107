import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@teltlk/test-kit';

/** The project's coturn configuration, which the benchmark runs a copy of. */
const CONFIG = fileURLToPath(new URL('../../infra/coturn/turnserver.conf', import.meta.url));

/** Relayed ports of a benchmark's coturn: as many as the project's, elsewhere. */
const RELAY_PORTS = 41;
/** Where a benchmark's relay range may start: above the project's (49160–49200). */
const RELAY_FIRST = { min: 50_000, max: 59_000 } as const;

const STOP_GRACE_MS = 5_000;
const READY_TIMEOUT_MS = 15_000;

export interface Coturn {
  /** For the server's TURN_URLS: `turn:127.0.0.1:<port>`. */
  url: string;
  /** The `static-auth-secret`, made up for this coturn alone. */
  secret: string;
  port: number;
  /** Everything it logged so far. */
  output(): string;
  /** Ends it (SIGTERM, SIGKILL after a grace) and removes its folder. */
  stop(): Promise<void>;
}

/** A loopback port free for both TCP and UDP (coturn listens on both). */
async function freeUdpAndTcpPort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const port = await freePort();
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
  throw new Error('no loopback port free for both TCP and UDP');
}

/**
 * The project's turnserver.conf with another listening port and relay range, and a pid
 * file and user database of its own, so it runs beside a coturn started from the same file.
 */
export function benchConfig(
  config: string,
  settings: { port: number; minPort: number; maxPort: number; dir: string },
): string {
  const replaced = new Set<string>();
  const values: Record<string, number> = {
    'listening-port': settings.port,
    'min-port': settings.minPort,
    'max-port': settings.maxPort,
  };
  const lines = config.split('\n').map((line) => {
    const key = /^([a-z-]+)=/.exec(line)?.[1];
    if (key === undefined || !(key in values)) return line;
    replaced.add(key);
    return `${key}=${values[key]}`;
  });
  const missing = Object.keys(values).filter((key) => !replaced.has(key));
  if (missing.length > 0) throw new Error(`turnserver.conf has no ${missing.join(', ')} line`);
  return [
    ...lines,
    `pidfile=${join(settings.dir, 'turnserver.pid')}`,
    `userdb=${join(settings.dir, 'turndb')}`,
    '',
  ].join('\n');
}

/** A STUN Binding request (RFC 5389): type 0x0001, no attributes, a random transaction id. */
function bindingRequest(): Buffer {
  const message = Buffer.alloc(20);
  message.writeUInt16BE(0x0001, 0);
  message.writeUInt32BE(0x2112a442, 4);
  randomBytes(12).copy(message, 8);
  return message;
}

/** Whether a Binding request to the port is answered with a success within `ms`. */
export function answersStun(port: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const done = (answered: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.once('error', () => done(false));
    socket.once('message', (message: Buffer) => done(message.readUInt16BE(0) === 0x0101));
    socket.send(bindingRequest(), port, '127.0.0.1');
  });
}

/**
 * coturn (`turnserver` on the PATH) from the project's configuration, on a free loopback
 * port with its own relay range and a secret made up here; resolves once it answers STUN.
 */
export async function startCoturn(): Promise<Coturn> {
  const dir = await mkdtemp(join(tmpdir(), 'teltlk-bench-coturn-'));
  const port = await freeUdpAndTcpPort();
  const minPort = randomInt(RELAY_FIRST.min, RELAY_FIRST.max);
  const configPath = join(dir, 'turnserver.conf');
  await writeFile(
    configPath,
    benchConfig(await readFile(CONFIG, 'utf8'), {
      port,
      minPort,
      maxPort: minPort + RELAY_PORTS - 1,
      dir,
    }),
  );
  const secret = randomBytes(24).toString('base64url');
  const child = spawn('turnserver', ['-c', configPath, `--static-auth-secret=${secret}`], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const spawnFailed = new Promise<Error>((resolve) => child.once('error', resolve));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      const failure = await Promise.race([spawnFailed, answersStun(port, 200)]);
      if (failure instanceof Error) throw new Error(`turnserver did not start: ${failure.message}`);
      if (failure) break;
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`turnserver exited early:\n${log}`);
      if (Date.now() > deadline) throw new Error(`turnserver did not answer STUN:\n${log}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `turn:127.0.0.1:${port}`, secret, port, output: () => log, stop };
}
