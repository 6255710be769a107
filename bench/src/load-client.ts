import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import type { Command, DmUser, LoadResult, Reply } from './load-protocol.js';
import { chatLine } from './chat-lines.js';
import { quantile } from './stats.js';

/**
 * The load generator: a process of its own, started by a benchmark (load-protocol.ts)
 * and driven over IPC. It speaks the socket protocol of the real server; the bare relay
 * speaks the same handshake, so every figure comes from the same client code. Loopback
 * only, every run bounded in time; it exits when told or when its parent goes away.
 */

/** The client pings this often (HEARTBEAT_INTERVAL_MS of the protocol). */
const HEARTBEAT_INTERVAL_MS = 25_000;
/** After a run stops sending, how long messages still on their way may take to arrive. */
const DRAIN_MS = 5_000;

interface Frame {
  t: string;
  rid?: string | null;
  error?: { code: string; message: string };
  clientMsgId?: string;
  message?: { clientMsgId: string };
}

/** Every open socket, for the heartbeat and the final close. */
const sockets: WebSocket[] = [];
let closing = false;
let unexpectedCloses = 0;

/**
 * Each socket pings once per interval, spread over it, as idle apps do: the server
 * drops sockets that stay silent, and a bigger run leaves one target's sockets silent
 * while the other target runs.
 */
let tick = 0;
const SLOTS = HEARTBEAT_INTERVAL_MS / 1000;
const heartbeat = setInterval(() => {
  for (let index = tick % SLOTS; index < sockets.length; index += SLOTS)
    sockets[index]!.send('{"t":"ping"}');
  tick += 1;
}, 1000);

/** One socket, authenticated: resolves on `hello`, rejects if it closes first. */
function openSocket(wsUrl: string, token: string, onFrame?: (frame: Frame) => void) {
  return new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
    let ready = false;
    ws.once('open', () => ws.send(JSON.stringify({ t: 'auth', token })));
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Frame;
      if (!ready) {
        if (frame.t !== 'hello') return;
        ready = true;
        sockets.push(ws);
        resolve(ws);
        return;
      }
      onFrame?.(frame);
    });
    ws.once('error', (error) => {
      if (!ready) reject(error);
    });
    ws.once('close', (code) => {
      if (!ready) reject(new Error(`socket closed with ${code} before hello`));
      else if (!closing && unexpectedCloses++ === 0)
        console.error(`load client: the server closed a socket (${code})`);
    });
  });
}

// ---------------------------------------------------------------------------- dm

interface InFlight {
  from: number;
  to: number;
  sentAt: number;
  acked: boolean;
  delivered: boolean;
}

interface Run {
  measureFrom: number;
  measureTo: number;
  delivered: number;
  latencies: number[];
  errors: number;
  firstError?: string;
  /** Called when a message is both acked and delivered (or failed), with its sender. */
  onDone?: (from: number) => void;
}

const prefix = randomBytes(4).toString('hex');
let counter = 0;
let users: DmUser[] = [];
let dmSockets: WebSocket[] = [];
const inFlight = new Map<string, InFlight>();
let run: Run | null = null;

function finish(id: string, entry: InFlight) {
  inFlight.delete(id);
  run?.onDone?.(entry.from);
}

function onDmFrame(index: number, frame: Frame) {
  if (frame.t === 'ack' || frame.t === 'error') {
    const entry = frame.rid ? inFlight.get(frame.rid) : undefined;
    if (!entry) return;
    if (frame.t === 'error') {
      if (run) {
        run.errors += 1;
        run.firstError ??= `${frame.error?.code}: ${frame.error?.message}`;
      }
      return finish(frame.rid!, entry);
    }
    entry.acked = true;
    if (entry.delivered) finish(frame.rid!, entry);
    return;
  }
  // The server pushes {t:'message', message}; the bare relay forwards the send frame.
  const id =
    frame.t === 'message'
      ? frame.message?.clientMsgId
      : frame.t === 'send'
        ? frame.clientMsgId
        : undefined;
  const entry = id ? inFlight.get(id) : undefined;
  // Own sends come back to the sender's sockets too: only the recipient's copy counts.
  if (!entry || entry.to !== index || entry.delivered) return;
  entry.delivered = true;
  const now = performance.now();
  if (run && now >= run.measureFrom && now < run.measureTo) run.delivered += 1;
  if (run && entry.sentAt >= run.measureFrom && entry.sentAt < run.measureTo)
    run.latencies.push(now - entry.sentAt);
  if (entry.acked) finish(id!, entry);
}

function sendFrom(index: number) {
  const user = users[index]!;
  counter += 1;
  const clientMsgId = `${prefix}-${counter}`;
  inFlight.set(clientMsgId, {
    from: index,
    to: user.peer,
    sentAt: performance.now(),
    acked: false,
    delivered: false,
  });
  dmSockets[index]!.send(
    JSON.stringify({
      t: 'send',
      rid: clientMsgId,
      conversationId: user.conversationId,
      clientMsgId,
      content: { kind: 'text', text: chatLine(counter, prefix) },
      // For the bare relay, which knows no conversations; the real server ignores it.
      to: users[user.peer]!.userId,
    }),
  );
}

async function connectDm(wsUrl: string, list: DmUser[]) {
  users = list;
  dmSockets = await Promise.all(
    list.map((user, index) => openSocket(wsUrl, user.token, (frame) => onDmFrame(index, frame))),
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until nothing is in flight or DRAIN_MS passed; what is left is lost. */
async function drain(): Promise<number> {
  const deadline = performance.now() + DRAIN_MS;
  while (inFlight.size > 0 && performance.now() < deadline) await sleep(10);
  const lost = inFlight.size;
  inFlight.clear();
  return lost;
}

async function measure(
  warmupMs: number,
  measureMs: number,
  drive: (current: Run, until: number) => Promise<number>,
): Promise<LoadResult> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const current: Run = {
    measureFrom: start + warmupMs,
    measureTo: start + warmupMs + measureMs,
    delivered: 0,
    latencies: [],
    errors: 0,
  };
  run = current;
  const maxLagMs = await drive(current, current.measureTo);
  const lost = await drain();
  const used = process.cpuUsage(cpu);
  run = null;
  const sorted = current.latencies.sort((a, b) => a - b);
  return {
    delivered: current.delivered,
    seconds: measureMs / 1000,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
    errors: current.errors,
    ...(current.firstError ? { firstError: current.firstError } : {}),
    lost,
    maxLagMs,
    clientCpu: ((used.user + used.system) / 1000 / (performance.now() - start)) * 100,
  };
}

function saturate(window: number, warmupMs: number, measureMs: number) {
  return measure(warmupMs, measureMs, async (current, until) => {
    let sending = true;
    current.onDone = (from) => {
      if (sending) sendFrom(from);
    };
    for (let slot = 0; slot < window; slot += 1)
      for (let index = 0; index < users.length; index += 1) sendFrom(index);
    await sleep(until - performance.now());
    sending = false;
    return 0;
  });
}

function paced(rate: number, warmupMs: number, measureMs: number) {
  return measure(warmupMs, measureMs, async (_current, until) => {
    const start = performance.now();
    const interval = 1000 / rate;
    let sent = 0;
    let maxLag = 0;
    let next = 0;
    for (;;) {
      const now = performance.now();
      if (now >= until) break;
      const due = Math.floor((now - start) / interval);
      if (due > sent) maxLag = Math.max(maxLag, now - (start + (sent + 1) * interval));
      for (; sent < due; sent += 1) {
        sendFrom(next);
        next = (next + 1) % users.length;
      }
      // A timer between batches (about 1 ms) leaves the CPU to the server.
      await sleep(1);
    }
    return maxLag;
  });
}

// ---------------------------------------------------------------------------- idle

let idleCount = 0;

/** Opens `count` sockets, at most `concurrency` handshakes at once; returns how many opened. */
async function openIdle(wsUrl: string, tokens: string[], count: number, concurrency: number) {
  let next = 0;
  let failures = 0;
  let lastError = '';
  const worker = async () => {
    while (next < count) {
      const token = tokens[next % tokens.length]!;
      next += 1;
      try {
        await openSocket(wsUrl, token);
        idleCount += 1;
      } catch (error) {
        failures += 1;
        lastError = (error as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  if (failures > 0) console.error(`load client: ${failures} idle sockets failed (${lastError})`);
  return idleCount;
}

// ---------------------------------------------------------------------------- commands

async function handle(command: Command): Promise<Reply> {
  switch (command.cmd) {
    case 'connect':
      await connectDm(command.wsUrl, command.users);
      return { ok: true };
    case 'saturate':
      return {
        ok: true,
        result: await saturate(command.window, command.warmupMs, command.measureMs),
      };
    case 'paced':
      return { ok: true, result: await paced(command.rate, command.warmupMs, command.measureMs) };
    case 'idle':
      return {
        ok: true,
        opened: await openIdle(command.wsUrl, command.tokens, command.count, command.concurrency),
      };
    case 'close':
      closing = true;
      clearInterval(heartbeat);
      for (const ws of sockets) ws.terminate();
      return { ok: true };
  }
}

process.on('message', (command: Command) => {
  handle(command).then(
    (reply) => {
      process.send?.(reply);
      if (command.cmd === 'close') process.disconnect();
    },
    (error: unknown) =>
      process.send?.({ ok: false, error: (error as Error).message } satisfies Reply),
  );
});
// Never outlive the benchmark that started it.
process.on('disconnect', () => process.exit(0));
