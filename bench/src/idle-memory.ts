import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startLoadClient } from './load-protocol.js';
import {
  startBareRelay,
  seed,
  startTeltlk,
  type ServerProcess,
  type Target,
} from './server-process.js';
import { fixed, median } from './stats.js';

/**
 * Server memory per idle authenticated socket: the RSS the server process gains when
 * `sockets` more sockets are open and authenticated, divided by their number, for the
 * real server and for the bare `ws` relay. Both processes are treated alike: started
 * with the inspector, and before each reading asked for a full garbage collection
 * through it (HeapProfiler.collectGarbage), then given a moment to settle. A first
 * batch of sockets is opened before the "before" reading, so code compiled and pools
 * grown on the first connections do not count per socket. Every socket is a user of its
 * own (on the real server, synthetic accounts with a session each, the seeding command `sessions`), as
 * in production, where a user's state is held once however many devices they have.
 */

export interface IdleOptions {
  sockets: number;
  settleSeconds: number;
  /**
   * Fresh processes per repeat. One by default: a run of 10,000 sockets takes about
   * 15 s per target, and memory on a busy machine varies less between runs than timings.
   */
  repeats: number;
}

export const IDLE_DEFAULTS: IdleOptions = {
  sockets: 10_000,
  settleSeconds: 2,
  repeats: 1,
};
const WARM_SOCKETS = 200;
const CONCURRENCY = 100;
/** File descriptors a process needs besides the sockets (files, database, pipes). */
const FD_HEADROOM = 500;

export interface IdleFigures {
  sockets: number;
  kbPerSocket: number;
  wsKbPerSocket: number;
  ratio: number;
}

/** The soft open-file limit this process and its children run with. */
export function openFileLimit(): number {
  const out = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim();
  return out === 'unlimited' ? Number.POSITIVE_INFINITY : Number(out);
}

/**
 * How many sockets the open-file limit allows: every socket is a file descriptor in the
 * server and another in the load generator, each process under the same limit. Raise
 * it for bigger runs with `ulimit -n 65536` in the shell that starts the bench (the hard
 * limit, `ulimit -Hn`, caps it; services set LimitNOFILE).
 */
export function maxIdleSockets(): number {
  return openFileLimit() - WARM_SOCKETS - FD_HEADROOM;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settledRss(server: ServerProcess, settleMs: number): Promise<number> {
  await sleep(settleMs);
  // Twice: the first full collection can leave weakly held objects for the second.
  await server.collectGarbage();
  await server.collectGarbage();
  await sleep(500);
  return server.rss();
}

async function measure(target: Target, options: IdleOptions): Promise<number> {
  const server =
    target === 'ws'
      ? await startBareRelay({ inspect: true })
      : await startTeltlk({ inspect: true });
  const load = startLoadClient();
  try {
    // One user per socket: the relay takes any token as its user, the real server gets
    // that many synthetic accounts with a session each.
    const tokens = await tokensFor(server, WARM_SOCKETS + options.sockets);
    const open = async (from: number, count: number) => {
      const { opened } = await load.send({
        cmd: 'idle',
        wsUrl: server.wsUrl,
        tokens: tokens.slice(from, from + count),
        count,
        concurrency: CONCURRENCY,
      });
      return opened!;
    };
    const settleMs = options.settleSeconds * 1000;
    const warm = await open(0, WARM_SOCKETS);
    const before = await settledRss(server, settleMs);
    const started = Date.now();
    const total = await open(WARM_SOCKETS, options.sockets);
    const opened = total - warm;
    if (opened < options.sockets)
      throw new Error(`${target}: only ${opened} of ${options.sockets} sockets opened`);
    const openSeconds = (Date.now() - started) / 1000;
    const after = await settledRss(server, settleMs);
    const perSocket = (after - before) / opened / 1024;
    console.log(
      `  ${target.padEnd(6)} rss ${fixed(before / 2 ** 20)} MB -> ${fixed(after / 2 ** 20)} MB` +
        ` with ${opened} sockets (opened in ${fixed(openSeconds)} s): ${fixed(perSocket, 2)} KB per socket`,
    );
    return perSocket;
  } finally {
    await load.stop();
    await server.stop();
  }
}

/** A token per socket, each a different user. */
async function tokensFor(server: ServerProcess, count: number): Promise<string[]> {
  if (server.target === 'ws') return Array.from({ length: count }, (_, i) => `idle${i}`);
  const file = join(server.dataDir!, 'idle-tokens.json');
  await seed(server, ['sessions', '--users', String(count), '--out', file]);
  return JSON.parse(await readFile(file, 'utf8')) as string[];
}

export async function benchIdle(options: IdleOptions): Promise<IdleFigures> {
  const runs: Record<Target, number[]> = { ws: [], teltlk: [] };
  for (let repeat = 0; repeat < options.repeats; repeat += 1)
    for (const target of ['ws', 'teltlk'] as const)
      runs[target].push(await measure(target, options));
  const kbPerSocket = median(runs.teltlk);
  const wsKbPerSocket = median(runs.ws);
  return {
    sockets: options.sockets,
    kbPerSocket,
    wsKbPerSocket,
    ratio: kbPerSocket / wsKbPerSocket,
  };
}
