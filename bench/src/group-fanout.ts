import { groupConversationId, singleConversationId } from '@teltlk/protocol';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { befriend, call, registerAccounts, type Account } from './accounts.js';
import { startGroupClient, type GroupClient, type SendResult } from './group-protocol.js';
import { seed, startTeltlk, type ServerProcess } from './server-process.js';
import { cpuMsOf, fixed, median, quantile } from './stats.js';

/**
 * Group fan-out: one message into a group of `members` (100,000 by default) with
 * `sockets` online member sockets (5,000), against a 1:1 message from the same sender
 * over the same socket, interleaved so drift on a shared machine hits both alike.
 *
 * How members are modelled: the group's creator (the sender) and `accounts` registered
 * accounts are real members; the rest are synthetic accounts bulk-inserted by the
 * seeding command `populate-group` (registration hashes a password per account,
 * far too slow for 100,000). The first `sockets` synthetic members get a session each
 * (`--online`) and are the online members, one socket per user, as in production; the
 * others have none and stay offline. Delivery is measured per socket. The 1:1 peer is a
 * friend outside the group with one socket.
 *
 * Figures: accept time (send to ack on the sender's socket) of each kind, one message in
 * flight at a time; for group messages the time until every online member socket has
 * it; and the server's CPU time (utime + stime of /proc/<pid>/stat) over a fixed number
 * of group messages, and of 1:1 messages for comparison.
 */

export interface GroupOptions {
  /** Members of the group in all (real and synthetic). */
  members: number;
  /** Online member sockets. */
  sockets: number;
  /** Registered member accounts besides the sender (a group is made with friends). */
  accounts: number;
  /** Messages of each kind per repeat. */
  messages: number;
  repeats: number;
  /** Group messages (and as many 1:1 messages) over which CPU time is read. */
  cpuMessages: number;
}

export const GROUP_DEFAULTS: GroupOptions = {
  members: 100_000,
  sockets: 5_000,
  accounts: 1,
  messages: 20,
  repeats: 3,
  cpuMessages: 20,
};

export interface GroupFigures {
  members: number;
  online: number;
  /** Medians over repeats. */
  acceptRatio: number;
  groupAcceptMs: number;
  singleAcceptMs: number;
  p50: number;
  p99: number;
  groupCpuMs: number;
  singleCpuMs: number;
  populateSeconds: number;
}

/** Longest a message may take to reach every socket before the run fails. */
const SEND_TIMEOUT_MS = 10_000;
const WARMUP_MESSAGES = 3;
const SINGLE_CPU_FACTOR = 20;

interface GroupReplyBody {
  id?: string;
  memberCount?: number;
  group?: { id: string; memberCount: number };
}

export async function createGroup(server: ServerProcess, owner: Account, members: Account[]) {
  const created = await call<GroupReplyBody>(server.baseUrl, 'POST', '/groups', {
    body: { name: 'Fan-out bench', memberIds: members.map((m) => m.userId) },
    token: owner.token,
  });
  const id = created.group?.id ?? created.id;
  if (!id) throw new Error(`POST /groups answered without a group id: ${JSON.stringify(created)}`);
  return id;
}

async function memberCountOf(server: ServerProcess, owner: Account, groupId: string) {
  const group = await call<GroupReplyBody>(server.baseUrl, 'GET', `/groups/${groupId}`, {
    token: owner.token,
  });
  const count = group.group?.memberCount ?? group.memberCount;
  if (count === undefined) throw new Error(`GET /groups/${groupId} gave no memberCount`);
  return count;
}

export async function benchGroup(options: GroupOptions): Promise<GroupFigures> {
  const realMembers = 1 + options.accounts;
  if (options.members < realMembers + options.sockets)
    throw new Error(
      `--group-members must be at least ${realMembers + options.sockets} (the real members and one per socket)`,
    );
  const server = await startTeltlk();
  let client: GroupClient | null = null;
  try {
    const [sender, peer, ...registered] = await registerAccounts(
      server.baseUrl,
      2 + options.accounts,
    );
    for (const account of [peer!, ...registered]) await befriend(server.baseUrl, sender!, account);
    const groupId = await createGroup(server, sender!, registered);

    // The synthetic members: the first `sockets` of them online, each with a session of
    // their own; the rest offline.
    const populateStart = performance.now();
    const synthetic = options.members - realMembers;
    const tokenFile = join(server.dataDir!, 'group-tokens.json');
    const said = await seed(server, [
      'populate-group',
      '--group',
      groupId,
      '--members',
      String(synthetic),
      '--online',
      String(options.sockets),
      '--out',
      tokenFile,
    ]);
    console.log(`  ${said}`);
    const tokens = JSON.parse(await readFile(tokenFile, 'utf8')) as string[];
    const populateSeconds = (performance.now() - populateStart) / 1000;
    const members = await memberCountOf(server, sender!, groupId);
    if (members !== options.members)
      throw new Error(`the group has ${members} members, expected ${options.members}`);

    client = startGroupClient();
    const { opened } = await client.send({
      cmd: 'open',
      wsUrl: server.wsUrl,
      senderToken: sender!.token,
      peerToken: peer!.token,
      tokens,
      sockets: tokens.length,
      concurrency: 50,
    });
    if (opened !== tokens.length)
      throw new Error(`only ${opened} of ${tokens.length} member sockets opened`);
    console.log(
      `  ${members} members (${synthetic} synthetic), ${opened} online, one user per socket`,
    );

    const groupConversation = groupConversationId(groupId);
    const peerConversationId = singleConversationId(sender!.userId, peer!.userId);
    const send = async (kind: 'group' | 'single'): Promise<SendResult> => {
      const { result } = await client!.send({
        cmd: 'send',
        kind,
        groupConversationId: groupConversation,
        peerConversationId,
        timeoutMs: SEND_TIMEOUT_MS,
      });
      if (result!.error) throw new Error(`${kind} send refused: ${result!.error}`);
      if (result!.missing > 0)
        throw new Error(
          `${kind} message: ${result!.missing} sockets did not have it after ${SEND_TIMEOUT_MS} ms`,
        );
      return result!;
    };

    // Warm-up: compiles the hot paths and fills whatever the server caches.
    for (let i = 0; i < WARMUP_MESSAGES; i += 1) {
      await send('group');
      await send('single');
    }

    const ratios: number[] = [];
    const groupAccepts: number[] = [];
    const singleAccepts: number[] = [];
    const p50s: number[] = [];
    const p99s: number[] = [];
    for (let repeat = 0; repeat < options.repeats; repeat += 1) {
      const group: SendResult[] = [];
      const single: SendResult[] = [];
      for (let i = 0; i < options.messages; i += 1) {
        group.push(await send('group'));
        single.push(await send('single'));
      }
      const groupAccept = median(group.map((r) => r.acceptMs));
      const singleAccept = median(single.map((r) => r.acceptMs));
      const all = group.map((r) => r.allMs).sort((a, b) => a - b);
      ratios.push(groupAccept / singleAccept);
      groupAccepts.push(groupAccept);
      singleAccepts.push(singleAccept);
      p50s.push(quantile(all, 0.5));
      p99s.push(quantile(all, 0.99));
      console.log(
        `  repeat ${repeat + 1}: accept group ${fixed(groupAccept, 2)} ms, 1:1 ${fixed(singleAccept, 2)} ms, ` +
          `ratio ${fixed(groupAccept / singleAccept, 2)}; all ${opened} sockets have it ` +
          `p50=${fixed(quantile(all, 0.5), 1)}ms p99=${fixed(quantile(all, 0.99), 1)}ms`,
      );
    }

    const cpuPerMessage = async (kind: 'group' | 'single', count: number) => {
      const before = await cpuMsOf(server.pid);
      for (let i = 0; i < count; i += 1) await send(kind);
      return ((await cpuMsOf(server.pid)) - before) / count;
    };
    const groupCpuMs = await cpuPerMessage('group', options.cpuMessages);
    // A 1:1 message costs well under a clock tick (10 ms): many more of them, for a figure.
    const singleCpuMs = await cpuPerMessage('single', options.cpuMessages * SINGLE_CPU_FACTOR);

    return {
      members,
      online: opened,
      acceptRatio: median(ratios),
      groupAcceptMs: median(groupAccepts),
      singleAcceptMs: median(singleAccepts),
      p50: median(p50s),
      p99: median(p99s),
      groupCpuMs,
      singleCpuMs,
      populateSeconds,
    };
  } finally {
    await client?.stop();
    await server.stop();
  }
}
