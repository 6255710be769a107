import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Messages between the group fan-out benchmark (the parent) and its load generator
 * (group-client.ts, a process of its own): the parent says which sockets to open and
 * when to send; the child times everything on its own clock and answers each command.
 */

export type GroupCommand =
  /**
   * The sender's socket, the 1:1 peer's socket, and `sockets` online member sockets
   * spread over `tokens` (several sockets per account), `concurrency` handshakes at once.
   */
  | {
      cmd: 'open';
      wsUrl: string;
      senderToken: string;
      peerToken: string;
      tokens: string[];
      sockets: number;
      concurrency: number;
    }
  /**
   * One message from the sender: into the group (waits until every online member socket
   * has it) or to the peer (waits until the peer's socket has it), at most `timeoutMs`.
   */
  | {
      cmd: 'send';
      kind: 'group' | 'single';
      groupConversationId: string;
      peerConversationId: string;
      timeoutMs: number;
    }
  | { cmd: 'close' };

export interface SendResult {
  /** Send to ack on the sender's socket, ms. */
  acceptMs: number;
  /** Send until the last socket that should have it has it, ms (NaN if some never did). */
  allMs: number;
  /** Sockets that should have had it and did not within the timeout. */
  missing: number;
  /** Code and text of an error frame instead of the ack. */
  error?: string;
}

export type GroupReply =
  { ok: true; opened?: number; result?: SendResult } | { ok: false; error: string };

const entry = fileURLToPath(new URL('./group-client.ts', import.meta.url));

export interface GroupClient {
  send(command: GroupCommand): Promise<GroupReply & { ok: true }>;
  /** Closes the sockets and ends the process. */
  stop(): Promise<void>;
}

/** Starts the load generator in its own process (through tsx, as the bench runs). */
export function startGroupClient(): GroupClient {
  const child: ChildProcess = fork(entry, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let pending: { resolve: (reply: GroupReply) => void; reject: (error: Error) => void } | null =
    null;
  child.on('message', (reply: GroupReply) => {
    const current = pending;
    pending = null;
    current?.resolve(reply);
  });
  child.on('exit', (code) => {
    const current = pending;
    pending = null;
    current?.reject(new Error(`group load client exited with ${code}`));
  });
  return {
    async send(command) {
      if (pending) throw new Error('one command at a time');
      const reply = await new Promise<GroupReply>((resolve, reject) => {
        pending = { resolve, reject };
        child.send(command);
      });
      if (!reply.ok) throw new Error(`group load client: ${reply.error}`);
      return reply;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ cmd: 'close' } satisfies GroupCommand);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
