import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  singleConversationId,
  type Message,
  type MessagePageResult,
  type ServerFrame,
} from '@teltlk/protocol';
import {
  befriend,
  callApi,
  freePort,
  registerAccount,
  spawnServer,
  type Account,
  type SpawnedServer,
} from '@teltlk/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

/**
 * The no-loss promise end to end: the real server process is killed (SIGKILL) while
 * clients send, restarted on the same data, and clients resend what was not acknowledged.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server as a child process, the way it runs in production (from source, via tsx). */
class ServerProcess {
  private server: SpawnedServer | null = null;

  constructor(
    private readonly port: number,
    private readonly dataDir: string,
  ) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: this.dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      WEB_DIST_DIR: join(this.dataDir, 'no-web-build'),
      // The burst below is far faster than a person sends; this test is about durability.
      RATE_LIMIT_SCALE: '10000',
    };
    // This test is about one SQLite node; the environment of the test run must not leak in.
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    // The same port on every start: clients reconnect to the address they know.
    this.server = await spawnServer({
      args: ['--import', 'tsx', '--conditions=source', 'apps/server/src/main.ts'],
      env,
      cwd: REPO_ROOT,
      port: this.port,
    });
  }

  async kill(): Promise<void> {
    await this.server?.stop('SIGKILL');
  }
}

interface Pending {
  conversationId: string;
  clientMsgId: string;
  text: string;
}

/**
 * A client with an outbox, as the engine keeps one: every message waits in it until
 * acknowledged; on every (re)connect all unacknowledged ones are sent again, in order,
 * with their original client ids.
 */
class OutboxClient {
  readonly acked = new Map<string, Message>();
  readonly refused: string[] = [];
  /** Every message in the order it was queued. */
  readonly queued: Pending[] = [];
  private unacked: Pending[] = [];
  private ws: WebSocket | null = null;
  private online = false;
  private stopped = false;
  connects = 0;

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  start(): void {
    void this.connectLoop();
  }

  send(conversationId: string, text: string): void {
    const pending = {
      conversationId,
      clientMsgId: `m-${text.replace(/[^A-Za-z0-9]/g, '')}-${this.queued.length}`,
      text,
    };
    this.queued.push(pending);
    this.unacked.push(pending);
    if (this.online) this.transmit(pending);
  }

  get unackedCount(): number {
    return this.unacked.length;
  }

  stop(): void {
    this.stopped = true;
    this.ws?.close();
  }

  private transmit(pending: Pending): void {
    this.ws?.send(
      JSON.stringify({
        t: 'send',
        rid: pending.clientMsgId,
        conversationId: pending.conversationId,
        clientMsgId: pending.clientMsgId,
        content: { kind: 'text', text: pending.text },
      }),
    );
  }

  private async connectLoop(): Promise<void> {
    while (!this.stopped) {
      const closed = await this.session();
      if (closed === 'stopped') return;
      await sleep(50);
    }
  }

  /** One connection, from opening to closing. */
  private session(): Promise<'closed' | 'stopped'> {
    return new Promise((resolve) => {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      ws.on('open', () => ws.send(JSON.stringify({ t: 'auth', token: this.token })));
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as ServerFrame;
        if (frame.t === 'hello') {
          this.online = true;
          this.connects += 1;
          for (const pending of this.unacked) this.transmit(pending);
        } else if (frame.t === 'ack') {
          this.acked.set(frame.rid, frame.message);
          this.unacked = this.unacked.filter((p) => p.clientMsgId !== frame.rid);
        } else if (frame.t === 'error' && frame.rid) {
          this.refused.push(`${frame.rid}: ${frame.error.code}`);
          this.unacked = this.unacked.filter((p) => p.clientMsgId !== frame.rid);
        }
      });
      ws.on('error', () => undefined);
      ws.on('close', () => {
        this.online = false;
        resolve(this.stopped ? 'stopped' : 'closed');
      });
    });
  }
}

/** Pulls a conversation with `after` pages only; returns every message pulled, in order. */
async function catchUp(
  base: string,
  user: Account,
  conversationId: string,
  after: number,
  limit: number,
) {
  const pulled: Message[] = [];
  let requests = 0;
  let last = after;
  for (;;) {
    const page = await callApi<MessagePageResult>(
      base,
      'GET',
      `/conversations/${conversationId}/messages?after=${last}&limit=${limit}`,
      { token: user.token },
    );
    requests += 1;
    pulled.push(...page.messages);
    last = page.messages.at(-1)?.seq ?? last;
    if (!page.hasMore) return { pulled, requests };
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('a server killed while clients send', () => {
  let dataDir: string;
  let server: ServerProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'teltlk-crash-'));
    server = new ServerProcess(await freePort(), dataDir);
    await server.start();
  }, 40_000);
  afterAll(async () => {
    await server.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged message exactly once, in order, and offline clients catch up exactly', async () => {
    const { base } = server;
    const url = `ws://127.0.0.1:${new URL(base).port}/ws`;
    const ada = await registerAccount(base, { nickname: 'Ada', password: 'Passw0rd!' });
    const bob = await registerAccount(base, { nickname: 'Bob', password: 'Passw0rd!' });
    const cat = await registerAccount(base, { nickname: 'Cat', password: 'Passw0rd!' });
    await befriend(base, ada, bob);
    await befriend(base, ada, cat);
    const adaBob = singleConversationId(ada.userId, bob.userId);
    const adaCat = singleConversationId(ada.userId, cat.userId);

    const adaClient = new OutboxClient(url, ada.token);
    const bobClient = new OutboxClient(url, bob.token);
    adaClient.start();
    bobClient.start();

    // Cat reads the first five, then goes offline.
    for (let i = 1; i <= 5; i += 1) adaClient.send(adaCat, `early ${i}`);
    await waitFor(() => adaClient.unackedCount === 0, 10_000, 'the early messages');
    const catSeen = (await catchUp(base, cat, adaCat, 0, 50)).pulled;
    expect(catSeen.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);

    const PER_SENDER = 40;
    const TO_CAT = 20;
    /** The senders wait here for the crash, so more is always queued after it, however slow the machine. */
    const PAUSE_AT = 30;
    let killed = false;
    const sending = (async () => {
      for (let i = 1; i <= PER_SENDER; i += 1) {
        if (i === PAUSE_AT) await waitFor(() => killed, 30_000, 'the crash');
        adaClient.send(adaBob, `ada ${i}`);
        bobClient.send(adaBob, `bob ${i}`);
        if (i <= TO_CAT) adaClient.send(adaCat, `news ${i}`);
        await sleep(killed ? 5 : 3);
      }
    })();
    // Kill mid-stream: some messages acknowledged, some in flight, more still to come.
    await waitFor(
      () => adaClient.acked.size + bobClient.acked.size >= 35,
      20_000,
      'acks before the crash',
    );
    await server.kill();
    killed = true;
    const unackedAtCrash = adaClient.unackedCount + bobClient.unackedCount;
    const queuedAtCrash = adaClient.queued.length + bobClient.queued.length;
    await server.start();
    await sending;
    await waitFor(
      () => adaClient.unackedCount === 0 && bobClient.unackedCount === 0,
      20_000,
      'every message acknowledged after the restart',
    );
    adaClient.stop();
    bobClient.stop();

    expect(adaClient.refused).toEqual([]);
    expect(bobClient.refused).toEqual([]);
    // The crash really came mid-stream: messages were waiting, and more were queued after it.
    expect(unackedAtCrash).toBeGreaterThan(0);
    expect(queuedAtCrash).toBeLessThan(adaClient.queued.length + bobClient.queued.length);
    expect(adaClient.connects).toBeGreaterThanOrEqual(2);

    // Both people see the same history: each acknowledged message once, with its acked seq,
    // gap-free seqs, and each sender's messages in the order they were sent.
    const total = 2 * PER_SENDER;
    for (const viewer of [ada, bob]) {
      const { pulled } = await catchUp(base, viewer, adaBob, 0, 200);
      expect(pulled.map((m) => m.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      const ids = pulled.map((m) => m.clientMsgId);
      expect(new Set(ids).size).toBe(total);
      for (const client of [adaClient, bobClient]) {
        const mine = client.queued.filter((p) => p.conversationId === adaBob);
        const inHistory = pulled.filter((m) => mine.some((p) => p.clientMsgId === m.clientMsgId));
        expect(inHistory.map((m) => m.content)).toEqual(
          mine.map((p) => ({ kind: 'text', text: p.text })),
        );
        for (const pending of mine) {
          const acked = client.acked.get(pending.clientMsgId);
          expect(acked).toBeDefined();
          expect(pulled.find((m) => m.clientMsgId === pending.clientMsgId)?.seq).toBe(acked?.seq);
        }
      }
    }

    // Cat was offline for all of it: `after` pulls bring exactly the twenty she lacks.
    const { pulled, requests } = await catchUp(base, cat, adaCat, 5, 7);
    expect(pulled).toHaveLength(TO_CAT);
    expect(pulled.map((m) => m.seq)).toEqual(Array.from({ length: TO_CAT }, (_, i) => i + 6));
    expect(pulled.map((m) => m.content)).toEqual(
      Array.from({ length: TO_CAT }, (_, i) => ({ kind: 'text', text: `news ${i + 1}` })),
    );
    expect(requests).toBe(Math.ceil(TO_CAT / 7));
  }, 60_000);
});
