import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { chatLine } from './chat-lines.js';
import type { GroupCommand, GroupReply, SendResult } from './group-protocol.js';

/**
 * The load generator of the group fan-out benchmark: a process of its own, driven over
 * IPC (group-protocol.ts). It holds the sender's socket, the 1:1 peer's socket and the
 * online members' sockets, and times sends and deliveries on one clock. Loopback only;
 * every wait is bounded; it exits when told or when its parent goes away.
 */

/** The client pings this often (HEARTBEAT_INTERVAL_MS of the protocol). */
const HEARTBEAT_INTERVAL_MS = 25_000;
/**
 * Finds the message id in a pushed frame without parsing all of it: with thousands of
 * sockets, full JSON parsing in this process would compete with the server for the CPU.
 */
const CLIENT_MSG_ID = /"clientMsgId":"([^"]+)"/;

const sockets: WebSocket[] = [];
let closing = false;
let unexpectedCloses = 0;

let tick = 0;
const SLOTS = HEARTBEAT_INTERVAL_MS / 1000;
// Each socket pings once per interval, spread over it, as idle apps do.
const heartbeat = setInterval(() => {
  for (let index = tick % SLOTS; index < sockets.length; index += SLOTS)
    sockets[index]!.send('{"t":"ping"}');
  tick += 1;
}, 1000);

/** One socket, authenticated: resolves on `hello`, rejects if it closes first. */
function openSocket(wsUrl: string, token: string, onText: (text: string) => void) {
  return new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
    let ready = false;
    ws.once('open', () => ws.send(JSON.stringify({ t: 'auth', token })));
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (!ready) {
        if (!text.includes('"t":"hello"')) return;
        ready = true;
        sockets.push(ws);
        resolve(ws);
        return;
      }
      onText(text);
    });
    ws.once('error', (error) => {
      if (!ready) reject(error);
    });
    ws.once('close', (code) => {
      if (!ready) reject(new Error(`socket closed with ${code} before hello`));
      else if (!closing && unexpectedCloses++ === 0)
        console.error(`group load client: the server closed a socket (${code})`);
    });
  });
}

/** The message being timed: one at a time, so every figure is free of queueing. */
interface Pending {
  clientMsgId: string;
  sentAt: number;
  acceptMs: number;
  error?: string;
  /** Which receiving sockets got it (a socket is counted once). */
  got: Uint8Array;
  remaining: number;
  lastAt: number;
  settle: () => void;
}

const prefix = randomBytes(4).toString('hex');
let counter = 0;
let sender: WebSocket | null = null;
/** Receiving sockets: index 0 is the peer's, then the online members'. */
let receivers = 0;
let pending: Pending | null = null;

function settleIfDone(current: Pending) {
  if (current.remaining === 0 && (current.acceptMs >= 0 || current.error)) current.settle();
}

function onSenderText(text: string) {
  const current = pending;
  if (!current || !text.includes(`"rid":"${current.clientMsgId}"`)) return;
  const frame = JSON.parse(text) as { t: string; error?: { code: string; message: string } };
  if (frame.t === 'ack') current.acceptMs = performance.now() - current.sentAt;
  else if (frame.t === 'error') {
    current.error = `${frame.error?.code}: ${frame.error?.message}`;
    current.settle();
    return;
  } else return;
  settleIfDone(current);
}

function onReceiverText(index: number, text: string) {
  const current = pending;
  if (!current || !text.startsWith('{"t":"message"')) return;
  const id = CLIENT_MSG_ID.exec(text)?.[1];
  if (id !== current.clientMsgId || index >= current.got.length || current.got[index]) return;
  current.got[index] = 1;
  current.remaining -= 1;
  current.lastAt = performance.now();
  settleIfDone(current);
}

async function open(command: Extract<GroupCommand, { cmd: 'open' }>): Promise<number> {
  sender = await openSocket(command.wsUrl, command.senderToken, onSenderText);
  await openSocket(command.wsUrl, command.peerToken, (text) => onReceiverText(0, text));
  receivers = 1;
  let next = 0;
  let failures = 0;
  let lastError = '';
  const worker = async () => {
    while (next < command.sockets) {
      const token = command.tokens[next % command.tokens.length]!;
      next += 1;
      // Indexes are taken when the socket is ready, so they stay dense.
      let index = -1;
      try {
        await openSocket(command.wsUrl, token, (text) => {
          if (index >= 0) onReceiverText(index, text);
        });
        index = receivers;
        receivers += 1;
      } catch (error) {
        failures += 1;
        lastError = (error as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(command.concurrency, command.sockets) }, worker));
  if (failures > 0) throw new Error(`${failures} member sockets failed (${lastError})`);
  return receivers - 1;
}

async function send(command: Extract<GroupCommand, { cmd: 'send' }>): Promise<SendResult> {
  if (!sender) throw new Error('open first');
  counter += 1;
  const clientMsgId = `${prefix}-${counter}`;
  // The group message must reach every online member socket; the 1:1 message the peer's.
  const got = new Uint8Array(command.kind === 'group' ? receivers : 1);
  if (command.kind === 'group') got[0] = 1;
  const current: Pending = {
    clientMsgId,
    sentAt: 0,
    acceptMs: -1,
    got,
    remaining: command.kind === 'group' ? receivers - 1 : 1,
    lastAt: 0,
    settle: () => undefined,
  };
  const done = new Promise<void>((resolve) => (current.settle = resolve));
  const timer = setTimeout(() => current.settle(), command.timeoutMs);
  pending = current;
  current.sentAt = performance.now();
  sender.send(
    JSON.stringify({
      t: 'send',
      rid: clientMsgId,
      conversationId:
        command.kind === 'group' ? command.groupConversationId : command.peerConversationId,
      clientMsgId,
      content: { kind: 'text', text: chatLine(counter, prefix) },
    }),
  );
  await done;
  clearTimeout(timer);
  pending = null;
  return {
    acceptMs: current.acceptMs >= 0 ? current.acceptMs : Number.NaN,
    allMs: current.remaining === 0 ? current.lastAt - current.sentAt : Number.NaN,
    missing: current.remaining,
    ...(current.error ? { error: current.error } : {}),
  };
}

async function handle(command: GroupCommand): Promise<GroupReply> {
  switch (command.cmd) {
    case 'open':
      return { ok: true, opened: await open(command) };
    case 'send':
      return { ok: true, result: await send(command) };
    case 'close':
      closing = true;
      clearInterval(heartbeat);
      for (const ws of sockets) ws.terminate();
      return { ok: true };
  }
}

process.on('message', (command: GroupCommand) => {
  handle(command).then(
    (reply) => {
      process.send?.(reply);
      if (command.cmd === 'close') process.disconnect();
    },
    (error: unknown) =>
      process.send?.({ ok: false, error: (error as Error).message } satisfies GroupReply),
  );
});
// Never outlive the benchmark that started it.
process.on('disconnect', () => process.exit(0));
