import { SOCKET_CLOSE } from '@teltlk/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from './fake-socket.js';
import { FakeWorld } from './fake-world.js';
import { CONV, ME, record, texts } from './test-fixtures.js';

/**
 * The engine where the server misbehaves on cue: frames lost or replayed, a socket cut at
 * a given moment, sends refused or never answered, a sync failing. The fake server plays
 * these; what the real server can show is in engine-sync, engine-offline and
 * engine-translation.
 */

let world: FakeWorld;

beforeEach(() => {
  world = new FakeWorld();
});

afterEach(async () => {
  await world.close();
});

describe('ImEngine', () => {
  it('applies the next pushed seq, pulls a gap, and ignores a duplicate', async () => {
    world.server.append({ kind: 'text', text: 'one' }, { push: false });
    const engine = await world.started();
    const arrived = record(engine, 'message');
    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one']));

    const two = world.server.append({ kind: 'text', text: 'two' });
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one', 'two']));
    expect(arrived.map((message) => message.seq)).toEqual([2]);

    world.server.append({ kind: 'text', text: 'three' }, { push: false });
    world.server.append({ kind: 'text', text: 'four' });
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one', 'two', 'three', 'four']));
    expect(world.server.requests.filter((path) => path.includes('/messages?after='))).toEqual([
      `GET /conversations/${CONV}/messages?after=2&limit=200`,
    ]);

    world.server.push({ t: 'message', message: two });
    // Frames are applied in order: once the next message is in, the duplicate was handled.
    world.server.append({ kind: 'text', text: 'five' });
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one', 'two', 'three', 'four', 'five']));
    expect(arrived.map((message) => message.seq)).toEqual([2, 4, 5]);
    expect(engine.getSnapshot().conversations[0]).toMatchObject({ maxSeq: 5, unread: 5 });

    handle.markRead();
    await vi.waitFor(() => expect(engine.getSnapshot().totalUnread).toBe(0));
    await vi.waitFor(() =>
      expect(world.server.frames).toContainEqual({ t: 'read', conversationId: CONV, seq: 5 }),
    );
  });

  it('sends each outbox entry once, keeps it across a lost connection, and marks refusals failed', async () => {
    const engine = await world.started();
    const handle = engine.conversation(CONV);
    world.server.answerSends = false;
    const sent = await handle.send({ kind: 'text', text: 'hello' });
    expect(sent).toMatchObject({ status: 'sending', seq: null, senderId: ME });
    expect(sent.clientMsgId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    await vi.waitFor(() =>
      expect(world.server.frames.filter((frame) => frame.t === 'send')).toHaveLength(1),
    );
    expect(texts(handle)).toEqual(['hello']);

    // The connection dies before the answer: the same message goes again, once.
    world.server.answerSends = true;
    FakeSocket.last.drop();
    await vi.waitFor(() => expect(handle.getSnapshot().messages[0]?.status).toBe('sent'), {
      timeout: 3000,
    });
    const sends = world.server.frames.filter((frame) => frame.t === 'send');
    expect(sends).toHaveLength(2);
    expect(new Set(sends.map((frame) => frame.t === 'send' && frame.clientMsgId))).toEqual(
      new Set([sent.clientMsgId]),
    );
    expect(world.server.messages).toHaveLength(1);
    expect(handle.getSnapshot().messages[0]).toMatchObject({
      seq: 1,
      clientMsgId: sent.clientMsgId,
    });

    world.server.refuseNext.push('MESSAGE_REFUSED');
    const refused = await handle.send({ kind: 'text', text: 'refused' });
    await vi.waitFor(() =>
      expect(handle.getSnapshot().messages[1]).toMatchObject({
        status: 'failed',
        error: 'MESSAGE_REFUSED',
      }),
    );
    handle.retry(refused.clientMsgId);
    await vi.waitFor(() =>
      expect(handle.getSnapshot().messages[1]).toMatchObject({ status: 'sent', seq: 2 }),
    );
    expect(world.server.messages.map((message) => message.seq)).toEqual([1, 2]);
    await expect(handle.send({ kind: 'text', text: '   ' })).rejects.toMatchObject({
      code: 'BLANK_MESSAGE',
    });
  });

  it('applies events once and in order, pulling a gap', async () => {
    const engine = await world.started();
    const events = record(engine, 'userEvent');
    world.server.memberChange({ pinned: true });
    await vi.waitFor(() => expect(engine.getSnapshot().conversations[0]?.pinned).toBe(true));
    world.server.memberChange({ muted: true }, false);
    world.server.memberChange({ pinned: false });
    await vi.waitFor(() =>
      expect(engine.getSnapshot().conversations[0]).toMatchObject({ pinned: false, muted: true }),
    );
    world.server.push({ t: 'event', event: world.server.events[0]! });
    // Events apply in order: once a newer one is in, the replayed first one has been seen.
    world.server.memberChange({ muted: false });
    await vi.waitFor(() => expect(engine.getSnapshot().conversations[0]?.muted).toBe(false));
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(engine.getSnapshot().conversations[0]?.pinned).toBe(false);
  });

  it('reconnects and catches up by sync after being cut off as a slow consumer', async () => {
    world.server.append({ kind: 'text', text: 'one' });
    const engine = await world.started();
    const ended = [
      record(engine, 'kickedOffline'),
      record(engine, 'tokenExpired'),
      record(engine, 'tokenInvalid'),
    ];
    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one']));
    const first = FakeSocket.last;
    first.drop(SOCKET_CLOSE.slowConsumer);
    // What the server dropped from the queue is not pushed again.
    world.server.append({ kind: 'text', text: 'two' }, { push: false });
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one', 'two']));
    expect(FakeSocket.last).not.toBe(first);
    expect(['syncing', 'ready']).toContain(engine.getSnapshot().status);
    expect(ended.flat()).toEqual([]);
  });
});

describe('engine status and background failures', () => {
  it('shows a failed sync with its code, and clears it when a retry gets through', async () => {
    world.server.failSync = true;
    const engine = world.engine();
    const failed = record(engine, 'syncFailed');
    await engine.start();
    await vi.waitFor(() => expect(engine.getSnapshot().errors).toHaveLength(1));
    expect(failed.length).toBeGreaterThan(0);
    const [error] = engine.getSnapshot().errors;
    expect(error).toMatchObject({ kind: 'sync', code: 'INTERNAL' });
    world.server.failSync = false;
    error!.retry();
    await vi.waitFor(() => expect(engine.getSnapshot().errors).toEqual([]));
    expect(engine.getSnapshot().conversations.map(({ id }) => id)).toEqual([CONV]);
  });
});
