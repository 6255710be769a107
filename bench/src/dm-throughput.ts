import { singleConversationId } from '@teltlk/protocol';
import { befriend, registerAccounts } from './accounts.js';
import { startLoadClient, type DmUser, type LoadClient, type LoadResult } from './load-protocol.js';
import { startBareRelay, startTeltlk, type ServerProcess, type Target } from './server-process.js';
import { fixed, median } from './stats.js';

/**
 * 1:1 delivery through the full path (send, validate, persist, ack the sender, push to
 * the recipient) against a bare `ws` relay that only acks and forwards, same clients,
 * same frames. Users come in pairs, each writing to the other. Two loads:
 * - saturate: every user keeps `window` messages in flight; delivered msgs/s is the
 *   maximum rate (a message is done when acked and delivered, so no queue builds up);
 * - paced: both targets at half of Teltlk's own maximum, for send→receive latency.
 * Runs alternate between the targets, so drift on a shared machine hits both alike;
 * each figure is the median of `repeats` runs.
 */

export interface DmOptions {
  /** Connected users, an even number. */
  clients: number;
  /** Measured seconds of each run (after its warm-up). */
  seconds: number;
  warmupSeconds: number;
  repeats: number;
  /** Messages in flight per user in the saturating load. */
  window: number;
}

export const DM_DEFAULTS: DmOptions = {
  clients: 32,
  seconds: 2,
  warmupSeconds: 0.5,
  repeats: 3,
  window: 8,
};

export interface DmFigures {
  msgsPerS: number;
  wsMsgsPerS: number;
  ratio: number;
  /** The paced rate: half of Teltlk's maximum. */
  pacedRate: number;
  p50: number;
  p99: number;
  wsP50: number;
  wsP99: number;
}

interface Side {
  target: Target;
  server: ServerProcess;
  load: LoadClient;
}

function pairUp(accounts: { userId: string; token: string }[]): DmUser[] {
  return accounts.map((account, index) => {
    const peer = index ^ 1;
    return {
      ...account,
      peer,
      conversationId: singleConversationId(account.userId, accounts[peer]!.userId),
    };
  });
}

function bareUsers(count: number): DmUser[] {
  // The relay takes the token as the user id.
  return pairUp(Array.from({ length: count }, (_, i) => ({ userId: `u${i}`, token: `u${i}` })));
}

async function teltlkUsers(server: ServerProcess, count: number): Promise<DmUser[]> {
  const accounts = await registerAccounts(server.baseUrl, count);
  for (let index = 0; index < count; index += 2)
    await befriend(server.baseUrl, accounts[index]!, accounts[index + 1]!);
  return pairUp(accounts);
}

function describe(target: Target, kind: string, result: LoadResult): string {
  return (
    `  ${target.padEnd(6)} ${kind.padEnd(8)} ${fixed(result.delivered / result.seconds, 0)} msgs/s` +
    ` p50=${fixed(result.p50, 2)}ms p99=${fixed(result.p99, 2)}ms max=${fixed(result.max, 1)}ms` +
    ` errors=${result.errors} lost=${result.lost} lag=${fixed(result.maxLagMs, 1)}ms` +
    ` client_cpu=${fixed(result.clientCpu, 0)}%`
  );
}

export async function benchDm(options: DmOptions): Promise<DmFigures> {
  if (options.clients < 2 || options.clients % 2 !== 0)
    throw new Error('--clients must be an even number of at least 2');
  const sides: Side[] = [];
  try {
    for (const target of ['ws', 'teltlk'] as const) {
      const server = target === 'ws' ? await startBareRelay() : await startTeltlk();
      const load = startLoadClient();
      sides.push({ target, server, load });
      const users =
        target === 'ws' ? bareUsers(options.clients) : await teltlkUsers(server, options.clients);
      await load.send({ cmd: 'connect', wsUrl: server.wsUrl, users });
    }
    const warmupMs = options.warmupSeconds * 1000;
    const measureMs = options.seconds * 1000;
    const run = async (side: Side, kind: 'saturate' | 'paced', rate = 0) => {
      const { result } = await side.load.send(
        kind === 'saturate'
          ? { cmd: 'saturate', window: options.window, warmupMs, measureMs }
          : { cmd: 'paced', rate, warmupMs, measureMs },
      );
      console.log(describe(side.target, kind, result!));
      // Refused sends mean the load does not take the path measured (not friends, limits).
      if (result!.errors > 0)
        throw new Error(
          `${side.target} refused ${result!.errors} sends, first ${result!.firstError}`,
        );
      return result!;
    };

    // Warm-up: first messages create the conversations and compile the hot paths.
    for (const side of sides)
      await side.load.send({
        cmd: 'saturate',
        window: options.window,
        warmupMs: 1000,
        measureMs: 0,
      });

    const rates: Record<Target, number[]> = { ws: [], teltlk: [] };
    for (let repeat = 0; repeat < options.repeats; repeat += 1)
      for (const side of sides) {
        const result = await run(side, 'saturate');
        rates[side.target].push(result.delivered / result.seconds);
      }
    const msgsPerS = median(rates.teltlk);
    const wsMsgsPerS = median(rates.ws);

    const pacedRate = Math.max(1, Math.round(msgsPerS / 2));
    console.log(`  paced at ${pacedRate} msgs/s (half of Teltlk's maximum)`);
    const p50s: Record<Target, number[]> = { ws: [], teltlk: [] };
    const p99s: Record<Target, number[]> = { ws: [], teltlk: [] };
    for (let repeat = 0; repeat < options.repeats; repeat += 1)
      for (const side of sides) {
        const result = await run(side, 'paced', pacedRate);
        p50s[side.target].push(result.p50);
        p99s[side.target].push(result.p99);
      }
    return {
      msgsPerS,
      wsMsgsPerS,
      ratio: msgsPerS / wsMsgsPerS,
      pacedRate,
      p50: median(p50s.teltlk),
      p99: median(p99s.teltlk),
      wsP50: median(p50s.ws),
      wsP99: median(p99s.ws),
    };
  } finally {
    for (const side of sides) {
      await side.load.stop();
      await side.server.stop();
    }
  }
}
