import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Messages between a benchmark (the parent) and the load generator (load-client.ts, a
 * process of its own). The parent says whom to connect and what load to run; the
 * child answers each command with one result.
 */

/** One simulated user of the dm benchmark and the peer they write to. */
export interface DmUser {
  userId: string;
  token: string;
  /** Index in the same user list of the one this user sends to. */
  peer: number;
  conversationId: string;
}

export type Command =
  /** One socket per user, authenticated; answers when every `hello` arrived. */
  | { cmd: 'connect'; wsUrl: string; users: DmUser[] }
  /**
   * Closed loop: every user keeps `window` messages in flight (sent, not yet both acked
   * and delivered) for warmupMs + measureMs; counts what arrives in the measured part.
   */
  | { cmd: 'saturate'; window: number; warmupMs: number; measureMs: number }
  /** Open loop: `rate` messages per second in all, spread over the users in turn. */
  | { cmd: 'paced'; rate: number; warmupMs: number; measureMs: number }
  /** Opens `count` idle sockets, spread over `tokens`, `concurrency` handshakes at a time. */
  | { cmd: 'idle'; wsUrl: string; tokens: string[]; count: number; concurrency: number }
  | { cmd: 'close' };

export interface LoadResult {
  /** Messages delivered to their recipient in the measured part. */
  delivered: number;
  seconds: number;
  /** Send→receive latencies of the measured part, ms, ascending quantiles. */
  p50: number;
  p99: number;
  max: number;
  /** Error frames and sends that never arrived within the run's grace period. */
  errors: number;
  /** Code and text of the first error frame. */
  firstError?: string;
  lost: number;
  /** How far the open loop fell behind its schedule at worst, ms (0 for closed loops). */
  maxLagMs: number;
  /** The load generator's own CPU use over the run, % of one core. */
  clientCpu: number;
}

export type Reply =
  { ok: true; result?: LoadResult; opened?: number } | { ok: false; error: string };

const entry = fileURLToPath(new URL('./load-client.ts', import.meta.url));

export interface LoadClient {
  send(command: Command): Promise<Reply & { ok: true }>;
  /** Closes the sockets and ends the process. */
  stop(): Promise<void>;
}

/** Starts the load generator in its own process (through tsx, as the bench runs). */
export function startLoadClient(): LoadClient {
  const child: ChildProcess = fork(entry, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let pending: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | null = null;
  child.on('message', (reply: Reply) => {
    const current = pending;
    pending = null;
    current?.resolve(reply);
  });
  child.on('exit', (code) => {
    const current = pending;
    pending = null;
    current?.reject(new Error(`load client exited with ${code}`));
  });
  return {
    async send(command) {
      if (pending) throw new Error('one command at a time');
      const reply = await new Promise<Reply>((resolve, reject) => {
        pending = { resolve, reject };
        child.send(command);
      });
      if (!reply.ok) throw new Error(`load client: ${reply.error}`);
      return reply;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ cmd: 'close' } satisfies Command);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
