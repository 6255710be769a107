import { HEARTBEAT_INTERVAL_MS, SOCKET_CLOSE } from '@teltlk/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  backoffDelay,
  Connection,
  PONG_TIMEOUT_MS,
  type ConnectionOptions,
} from './connection.js';
import { FakeSocket, FakeWebSocket } from './fake-socket.js';

const hello = { t: 'hello', userId: 'ada', sessionId: 's1', now: 1 } as const;

function setup(overrides: Partial<ConnectionOptions> = {}) {
  const calls = {
    states: [] as string[],
    failed: 0,
    ready: 0,
    ends: [] as string[],
    frames: [] as unknown[],
  };
  const connection = new Connection({
    url: 'ws://test/ws',
    getToken: () => 'tok',
    WebSocket: FakeWebSocket,
    onState: (state) => calls.states.push(state),
    onFailed: () => calls.failed++,
    onReady: () => calls.ready++,
    onFrame: (frame) => calls.frames.push(frame),
    onEnd: (reason) => calls.ends.push(reason),
    random: () => 0.5,
    ...overrides,
  });
  return { connection, calls };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.reset();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('backoffDelay', () => {
  it('draws from [0, min(cap, base * 2^attempt))', () => {
    expect(backoffDelay(0, () => 0.999)).toBe(Math.floor(0.999 * BACKOFF_BASE_MS));
    expect(backoffDelay(3, () => 0.5)).toBe(BACKOFF_BASE_MS * 4);
    expect(backoffDelay(50, () => 0.999)).toBeLessThan(BACKOFF_CAP_MS);
    expect(backoffDelay(50, () => 0.999)).toBeGreaterThan(BACKOFF_CAP_MS * 0.99);
    expect(backoffDelay(7, () => 0)).toBe(0);
  });
});

describe('Connection', () => {
  it('authenticates with the first frame and is ready on hello', () => {
    const { connection, calls } = setup();
    connection.start();
    expect(calls.states).toEqual(['connecting']);
    const socket = FakeSocket.last;
    expect(socket.url).toBe('ws://test/ws');
    expect(connection.send({ t: 'ping' })).toBe(false);
    socket.open();
    expect(socket.sent).toEqual([{ t: 'auth', token: 'tok' }]);
    socket.receiveNow(hello);
    expect(calls.ready).toBe(1);
    expect(calls.states).toEqual(['connecting', 'connected']);
    expect(connection.send({ t: 'typing', conversationId: 'si_a_b' })).toBe(true);
    socket.receiveNow({ t: 'typing', conversationId: 'si_a_b', userId: 'bob' });
    expect(calls.frames).toEqual([{ t: 'typing', conversationId: 'si_a_b', userId: 'bob' }]);
    connection.stop();
    expect(socket.closedByClient).toBe(true);
  });

  it('ignores what is not a frame of a known kind, and stays connected', () => {
    const { connection, calls } = setup();
    connection.start();
    const socket = FakeSocket.last;
    socket.open();
    socket.receiveNow(hello);
    for (const data of ['not json', '42', 'null', '[]', '{"t":"sticker"}', '{"t":7}', '{}']) {
      socket.onmessage?.({ data });
    }
    expect(calls.frames).toEqual([]);
    socket.receiveNow({ t: 'read', conversationId: 'si_a_b', userId: 'bob', seq: 3 });
    expect(calls.frames).toEqual([{ t: 'read', conversationId: 'si_a_b', userId: 'bob', seq: 3 }]);
    expect(calls.states).toEqual(['connecting', 'connected']);
    connection.stop();
  });

  it('reconnects with growing jittered delays, and resets them after a success', () => {
    const { connection, calls } = setup();
    connection.start();
    FakeSocket.last.drop();
    expect(calls.failed).toBe(1);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(0.5 * BACKOFF_BASE_MS - 1);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);

    FakeSocket.last.drop();
    vi.advanceTimersByTime(0.5 * BACKOFF_BASE_MS * 2 - 1);
    expect(FakeSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(3);

    FakeSocket.last.open();
    FakeSocket.last.receiveNow(hello);
    FakeSocket.last.drop(SOCKET_CLOSE.goingAway);
    // A lost working connection is not a failed attempt, and the wait starts small again.
    expect(calls.failed).toBe(2);
    vi.advanceTimersByTime(0.5 * BACKOFF_BASE_MS);
    expect(FakeSocket.instances).toHaveLength(4);
    connection.stop();
  });

  it.each([
    [SOCKET_CLOSE.tokenInvalid, 'tokenInvalid'],
    [SOCKET_CLOSE.tokenExpired, 'tokenExpired'],
    [SOCKET_CLOSE.kicked, 'kickedOffline'],
  ])('stops for good on close code %i', (code, reason) => {
    const { connection, calls } = setup();
    connection.start();
    FakeSocket.last.open();
    FakeSocket.last.receiveNow(hello);
    FakeSocket.last.drop(code);
    expect(calls.ends).toEqual([reason]);
    vi.advanceTimersByTime(10 * BACKOFF_CAP_MS);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(calls.states.at(-1)).toBe('disconnected');
  });

  it('reconnects soon after being cut off as a slow consumer: the session is fine', () => {
    const { connection, calls } = setup();
    connection.start();
    FakeSocket.last.open();
    FakeSocket.last.receiveNow(hello);
    FakeSocket.last.drop(SOCKET_CLOSE.slowConsumer);
    expect(calls.ends).toEqual([]);
    expect(calls.failed).toBe(0);
    // Like any lost working connection: the first retry comes within the base delay.
    vi.advanceTimersByTime(0.5 * BACKOFF_BASE_MS);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.last.open();
    FakeSocket.last.receiveNow(hello);
    expect(calls.ready).toBe(2);
    connection.stop();
  });

  it('backs off and retries when refused for having too many sockets', () => {
    const { connection, calls } = setup();
    connection.start();
    for (const attempt of [0, 1, 2]) {
      FakeSocket.last.open();
      FakeSocket.last.drop(SOCKET_CLOSE.tooManySockets);
      expect(calls.failed).toBe(attempt + 1);
      vi.advanceTimersByTime(0.5 * BACKOFF_BASE_MS * 2 ** attempt);
    }
    expect(calls.ends).toEqual([]);
    expect(FakeSocket.instances).toHaveLength(4);
    connection.stop();
  });

  it('gives the socket up at once when the device goes offline, and comes back on demand', () => {
    const { connection, calls } = setup();
    connection.start();
    const first = FakeSocket.last;
    first.open();
    first.receiveNow(hello);
    connection.dropNow();
    expect(first.closedByClient).toBe(true);
    expect(calls.states).toEqual(['connecting', 'connected', 'disconnected']);
    connection.reconnectNow();
    expect(FakeSocket.last).not.toBe(first);
    expect(calls.states.at(-1)).toBe('connecting');
    connection.stop();
  });

  it('does not connect without a token', () => {
    const { connection, calls } = setup({ getToken: () => null });
    connection.start();
    expect(FakeSocket.instances).toHaveLength(0);
    expect(calls.ends).toEqual(['tokenInvalid']);
  });

  it('pings every interval and drops a link whose pong does not come', () => {
    const { connection } = setup();
    connection.start();
    const socket = FakeSocket.last;
    socket.open();
    socket.receiveNow(hello);
    vi.advanceTimersByTime(HEARTBEAT_INTERVAL_MS);
    expect(socket.sent.at(-1)).toEqual({ t: 'ping' });
    socket.receiveNow({ t: 'pong', now: 2 });
    vi.advanceTimersByTime(PONG_TIMEOUT_MS);
    expect(socket.closedByClient).toBe(false);

    vi.advanceTimersByTime(HEARTBEAT_INTERVAL_MS - PONG_TIMEOUT_MS);
    expect(socket.sent.filter((frame) => frame.t === 'ping')).toHaveLength(2);
    vi.advanceTimersByTime(PONG_TIMEOUT_MS);
    expect(socket.closedByClient).toBe(true);
    vi.advanceTimersByTime(BACKOFF_BASE_MS);
    expect(FakeSocket.instances).toHaveLength(2);
    connection.stop();
  });

  it('gives up on a socket that never says hello', () => {
    const { connection, calls } = setup();
    connection.start();
    FakeSocket.last.open();
    vi.advanceTimersByTime(60_000);
    expect(calls.failed).toBeGreaterThanOrEqual(1);
    expect(FakeSocket.instances.length).toBeGreaterThan(1);
    connection.stop();
  });

  it('ignores frames it cannot read', () => {
    const { connection, calls } = setup();
    connection.start();
    const socket = FakeSocket.last;
    socket.open();
    socket.receiveNow(hello);
    socket.onmessage?.({ data: 'not json' });
    socket.onmessage?.({ data: JSON.stringify({ t: 'future' }) });
    expect(calls.frames).toEqual([]);
    connection.stop();
  });
});
