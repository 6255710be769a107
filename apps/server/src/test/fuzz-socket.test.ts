import {
  ERRORS,
  SOCKET_CLOSE,
  SOCKET_FRAME_MAX_BYTES,
  clientFrameSchema,
  isErrorCode,
  serverFrameSchema,
  type ServerFrame,
} from '@teltlk/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeProvider } from './fake-provider.js';
import { socketUrl, TestSocket } from './test-client.js';
import { DbWatch } from './db-digest.js';
import { Inputs, NASTY_STRINGS, seedFor, toJson, type JsonSchema } from './fuzz.js';
import { warningLog, FuzzWorld, WRITTEN_BY_REFUSALS } from './fuzz-world.js';
import { createTestApp, dialects, type TestApp } from './harness.js';

/**
 * Sends every client frame type of the protocol, with generated fields (valid-looking,
 * at and past each bound, of the wrong type, missing and extra) and raw frames (not
 * JSON, binary, too large), before and after authentication. The server must answer
 * with a well-formed frame (errors with a known code, never INTERNAL) or close with a
 * documented code; another user's socket stays open and answering; and a refused frame
 * leaves the database as it was. FUZZ_SEED and FUZZ_RUNS replay or widen a run.
 */

// Test knobs, read here like the harness reads TEST_DATABASE_URL; they do not configure the server.
const SEED = Number(process.env.FUZZ_SEED ?? 0x7e17);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

/** Every frame type a client may send, from the protocol's union, as JSON schemas. */
const FRAME_TYPES = clientFrameSchema.options.map((option) => ({
  type: String(option.shape.t.value),
  schema: z.toJSONSchema(option, { io: 'input', unrepresentable: 'any' }) as JsonSchema,
}));

/**
 * How ws itself ends a connection: a frame over its hard limit (four times the protocol's,
 * which is answered with an error frame) is "message too big" (1009), a text frame that is
 * not UTF-8 "invalid frame payload data" (1007).
 */
const CLOSES_BY_WS = [1007, 1009];
const CLOSES_AFTER_AUTH = CLOSES_BY_WS;

/** How a socket may end before it authenticated (SOCKET_CLOSE, documented in the protocol). */
const CLOSES_BEFORE_AUTH: number[] = [
  SOCKET_CLOSE.tokenInvalid,
  SOCKET_CLOSE.tokenExpired,
  SOCKET_CLOSE.protocol,
  ...CLOSES_BY_WS,
];

/** Frames no client should send: not JSON, not an object, binary, over the frame limit. */
const RAW_FRAMES: { name: string; data: Frame }[] = [
  { name: 'not JSON', data: '{"t":' },
  { name: 'empty', data: '' },
  { name: 'JSON null', data: 'null' },
  { name: 'JSON number', data: '1e999' },
  { name: 'JSON array', data: '[{"t":"ping"}]' },
  { name: 'binary', data: Buffer.from('{"t":"ping"}') },
  { name: 'empty binary', data: Buffer.alloc(0) },
  { name: 'prototype poisoning', data: '{"t":"ping","__proto__":{"admin":true}}' },
  { name: 'deep nesting', data: `${'['.repeat(5_000)}${']'.repeat(5_000)}` },
  {
    name: 'over the frame limit',
    data: `{"t":"ping","x":"${'a'.repeat(SOCKET_FRAME_MAX_BYTES)}"}`,
  },
  ...NASTY_STRINGS.slice(0, 12).map((text, index) => ({ name: `text ${index}`, data: text })),
];

/** A text frame, or a Buffer sent as a binary frame. */
type Frame = string | Buffer;

function sendFrame(socket: TestSocket, frame: Frame): void {
  if (typeof frame === 'string') socket.send(frame);
  else socket.ws.send(frame, { binary: true });
}

function expectServerFrame(frame: ServerFrame, what: string): void {
  const parsed = serverFrameSchema.safeParse(frame);
  expect(parsed.success, `${what}\n  got ${JSON.stringify(frame).slice(0, 500)}`).toBe(true);
  if (frame.t === 'error') {
    const { code, message } = frame.error;
    expect(isErrorCode(code), `${what}\n  unknown code ${code}`).toBe(true);
    expect(ERRORS[code as keyof typeof ERRORS].status, `${what}\n  ${code}`).toBeLessThan(500);
    expect(message.length, what).toBeGreaterThan(0);
  }
}

const clip = (text: string) =>
  text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;

describe.each(dialects)('socket fuzz on $dialect', ({ dialect }) => {
  let t: TestApp;
  let url: string;
  let world: FuzzWorld;
  let inputs: Inputs;
  let examples: Inputs;
  let watch: DbWatch;
  const logged: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      logger: warningLog(logged),
      translationProviders: [new FakeProvider()],
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
    world = await FuzzWorld.create(t);
    // The world's sends are acknowledged before every write of theirs is done (read marks
    // go with the next commit): none may land inside a frame's watch.
    await t.ctx.services.messages.drain();
    const { pool } = world;
    const named = { ...pool.named, token: [world.token('owner')!, world.token('revoked')!] };
    inputs = new Inputs({ ...pool, named });
    examples = new Inputs({ ...pool, named: { ...named, token: [world.token('owner')!] } }, true);
    watch = new DbWatch(t.ctx.db, t.ctx.dialect, WRITTEN_BY_REFUSALS);
  });
  afterAll(() => t?.close());

  /** Work the frame started is done, then: what changed in the database, and nothing logged. */
  async function settle(what: string): Promise<string[]> {
    await t.ctx.services.messages.drain();
    await t.ctx.services.calls.drain();
    await t.ctx.services.translations.drain();
    const changes = await watch.changes();
    const lines = logged.splice(0);
    expect(lines.length, `logged:\n${lines.join('\n')}\n${what}`).toBe(0);
    return changes;
  }

  const probed = (schema: JsonSchema, seed: number) =>
    examples.probes(schema, seed).map((frame) => toJson(frame));

  describe('before authentication', () => {
    /** Opens a socket, sends one frame; it must close with a documented code or say hello. */
    async function firstFrame(data: Frame): Promise<void> {
      const what = `first frame ${clip(String(data))}`;
      await watch.reset();
      const socket = await TestSocket.open(url);
      sendFrame(socket, data);
      const hello = socket
        .next((frame) => frame.t === 'hello')
        .then(
          (frame) => frame,
          () => null,
        );
      const outcome = await Promise.race([socket.closed, hello]);
      for (const frame of socket.frames) expectServerFrame(frame, what);
      if (outcome && 'code' in outcome) {
        expect(CLOSES_BEFORE_AUTH, `${what}\n  closed with ${outcome.code}`).toContain(
          outcome.code,
        );
        expect(socket.frames, what).toEqual([]);
        const changes = await settle(what);
        expect(
          changes.length,
          `refused, yet the database changed:\n${changes.join('\n')}\n${what}`,
        ).toBe(0);
      } else {
        expect(outcome?.t, `${what}\n  neither hello nor a close`).toBe('hello');
        await socket.close();
        await settle(what);
      }
    }

    it.each(FRAME_TYPES)('$type frames', async ({ type, schema }) => {
      const seed = seedFor(SEED, `socket before auth ${type}`);
      for (const frame of probed(schema, seed)) await firstFrame(frame);
      try {
        await fc.assert(
          fc.asyncProperty(inputs.value(schema), async (frame) => firstFrame(toJson(frame))),
          { seed, numRuns: RUNS, endOnFailure: true },
        );
      } catch (error) {
        throw new Error(
          `${type} before auth failed (FUZZ_SEED=${SEED}, seed ${seed}):\n${String(error)}`,
          { cause: error },
        );
      }
    });

    it('raw frames', async () => {
      for (const { data } of RAW_FRAMES) await firstFrame(data);
    });
  });

  describe('after authentication', () => {
    let owner: TestSocket;
    let friend: TestSocket;
    let barriers = 0;
    const barrierRids = new Set<string>();
    /** Messages acked so far: a repeated send is acked again without a new push. */
    const messageIds = new Set<string>();

    beforeAll(async () => {
      owner = await TestSocket.connect(url, world.token('owner')!);
      friend = await TestSocket.connect(url, world.token('friend')!);
    });
    afterAll(async () => {
      await owner?.close();
      await friend?.close();
    });

    /**
     * Sends a frame (or several) on the owner's socket, then a send to a conversation that
     * does not exist: its error comes back after every earlier frame was handled. While the
     * socket has too many requests waiting, that send is refused at once instead; it is
     * sent again until it waits its turn.
     */
    async function frames(data: Frame[]): Promise<void> {
      const what = `frames ${clip(data.map(String).join(' '))}`;
      await watch.reset();
      const ownerSeen = owner.frames.length;
      const friendSeen = friend.frames.length;
      for (const item of data) sendFrame(owner, item);
      const barrier = async (): Promise<{ code: number } | null> => {
        for (let attempt = 0; attempt < 1_000; attempt += 1) {
          barriers += 1;
          const rid = `barrier-${barriers}`;
          barrierRids.add(rid);
          owner.send({
            t: 'send',
            rid,
            conversationId: 'sg_nosuchgroup',
            clientMsgId: `${rid}-fuzz`,
            content: { kind: 'text', text: 'Is anyone there?' },
          });
          const answer = await Promise.race([
            owner.closed,
            owner.next((frame) => frame.t === 'error' && frame.rid === rid),
          ]);
          if ('code' in answer) return answer;
          if (answer.t === 'error' && answer.error.code !== 'RATE_LIMITED') return null;
        }
        throw new Error(`${what}\n  the socket stayed too busy to answer`);
      };
      const closed = await barrier();
      const answers = owner.frames.slice(ownerSeen);
      for (const frame of answers) expectServerFrame(frame, what);
      if (closed) {
        expect(CLOSES_AFTER_AUTH, `${what}\n  closed with ${closed.code}`).toContain(closed.code);
        owner = await TestSocket.connect(url, world.token('owner')!);
      }

      // The friend's socket is untouched: still open, answering, and sent nothing broken.
      friend.send({ t: 'ping' });
      await friend.next((frame) => frame.t === 'pong');
      const pushed = friend.frames.slice(friendSeen);
      for (const frame of pushed) expectServerFrame(frame, what);
      expect(
        pushed.filter((frame) => frame.t === 'error'),
        what,
      ).toEqual([]);

      // A new message is translated for the readers it reached, after its push: wait for
      // the push to the sender's own socket, which comes with it, so drain() sees that work.
      for (const frame of answers) {
        if (frame.t !== 'ack' || messageIds.has(frame.message.id)) continue;
        messageIds.add(frame.message.id);
        await owner.next((push) => push.t === 'message' && push.message.id === frame.message.id);
      }

      // One frame refused (several may be accepted and refused in turn).
      const refused =
        data.length === 1 &&
        (closed !== null ||
          answers.some((frame) => frame.t === 'error' && !barrierRids.has(frame.rid ?? '')));
      const changes = await settle(what);
      if (refused) {
        expect(
          changes.length,
          `refused, yet the database changed:\n${changes.join('\n')}\n${what}`,
        ).toBe(0);
      }
    }

    it.each(FRAME_TYPES)('$type frames', async ({ type, schema }) => {
      const seed = seedFor(SEED, `socket after auth ${type}`);
      for (const frame of probed(schema, seed)) await frames([frame]);
      try {
        await fc.assert(
          fc.asyncProperty(inputs.value(schema), async (frame) => frames([toJson(frame)])),
          { seed, numRuns: RUNS, endOnFailure: true },
        );
      } catch (error) {
        throw new Error(
          `${type} after auth failed (FUZZ_SEED=${SEED}, seed ${seed}):\n${String(error)}`,
          { cause: error },
        );
      }
    });

    it('raw frames', async () => {
      for (const { data } of RAW_FRAMES) await frames([data]);
    });

    it('a flood of frames', async () => {
      const read = toJson({ t: 'read', conversationId: world.conversations.single, seq: 1 });
      await frames(Array.from({ length: 250 }, () => read));
    });

    it('a frame over what ws reads ends only that connection', async () => {
      const socket = await TestSocket.connect(url, world.token('owner')!);
      socket.send(`{"t":"ping","x":"${'a'.repeat(SOCKET_FRAME_MAX_BYTES * 4)}"}`);
      const { code } = await socket.closed;
      // ws answers "message too big" (1009), or the connection is dropped without a close frame (1006).
      expect([1006, 1009]).toContain(code);
      await frames([toJson({ t: 'ping' })]);
    });

    it('a text frame that is not UTF-8 ends only that connection', async () => {
      const socket = await TestSocket.connect(url, world.token('owner')!);
      socket.ws.send(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), { binary: false });
      // ws closes with "invalid frame payload data" (1007), as RFC 6455 asks.
      expect((await socket.closed).code).toBe(1007);
      await frames([toJson({ t: 'ping' })]);
    });
  });
});
