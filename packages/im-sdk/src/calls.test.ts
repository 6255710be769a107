import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { ApiClient, ApiError } from '@teltlk/client';
import { singleConversationId, type Call } from '@teltlk/protocol';
import { PASSWORD, type RegisteredUser } from '@teltlk/server/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { CallEvents } from './calls.js';
import { ImEngine } from './engine.js';
import { startServer, type LiveServer } from './test-server.js';

/**
 * The engine's calls against the real server: what rings, what another device's answer
 * does, the relay of WebRTC signals, and the state read back after a reconnect.
 */

const until = <T>(check: () => T | Promise<T>): Promise<T> =>
  vi.waitFor(check, { timeout: 10_000 });

let server: LiveServer;
const engines: ImEngine[] = [];
/** Each engine's sockets, newest last: a test drops one as a network would. */
const socketsOf = new Map<ImEngine, WebSocket[]>();

beforeAll(async () => {
  server = await startServer();
}, 60_000);

afterAll(async () => {
  await server.t.close();
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
});

/** Two new friends and their chat. */
async function friends(): Promise<{ ada: RegisteredUser; bob: RegisteredUser; chat: string }> {
  const { t } = server;
  const ada = await t.register({ nickname: 'Ada', motherTongue: 'en' });
  const bob = await t.register({ nickname: 'Bob', motherTongue: 'en' });
  const { contacts } = t.ctx.services;
  const request = await contacts.sendRequest(
    { userId: ada.user.id, sessionId: 'test' },
    { userId: bob.user.id },
  );
  await contacts.acceptRequest({ userId: bob.user.id, sessionId: 'test' }, request.id);
  return { ada, bob, chat: singleConversationId(ada.user.id, bob.user.id) };
}

/** A device of `user`: a session of its own (signed in again) and a started engine. */
async function device(user: RegisteredUser, newSession = true): Promise<ImEngine> {
  let token = user.token;
  if (newSession) {
    const response = await server.t.call('POST', '/api/v1/auth/login', {
      body: { account: user.destination, password: PASSWORD },
    });
    expect(response.statusCode, response.body).toBe(200);
    token = response.json<{ token: string }>().token;
  }
  const base = `127.0.0.1:${server.port}`;
  const sockets: WebSocket[] = [];
  class TrackedSocket extends WebSocket {
    constructor(address: string) {
      super(address);
      sockets.push(this);
    }
  }
  const engine = new ImEngine({
    wsUrl: `ws://${base}/ws`,
    userId: user.user.id,
    getToken: () => token,
    api: new ApiClient({ baseUrl: `http://${base}`, getToken: () => token }),
    WebSocket: TrackedSocket as unknown as typeof globalThis.WebSocket,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
  });
  engines.push(engine);
  socketsOf.set(engine, sockets);
  await engine.start();
  await until(() => expect(engine.calls.sessionId).not.toBeNull());
  return engine;
}

function callOf(engine: ImEngine, id: string): Call | undefined {
  return engine.calls.getSnapshot().find((call) => call.id === id);
}

function heard<K extends keyof CallEvents>(engine: ImEngine, type: K): CallEvents[K][] {
  const seen: CallEvents[K][] = [];
  engine.calls.on(type, (value) => seen.push(value));
  return seen;
}

describe('calls in the engine, against the server', { timeout: 30_000 }, () => {
  it('rings every device of the callee, and stops the others when one answers', async () => {
    const { ada, bob, chat } = await friends();
    const adaPhone = await device(ada, false);
    const bobPhone = await device(bob, false);
    const bobLaptop = await device(bob);
    const elsewhere = heard(bobLaptop, 'answeredElsewhere');

    const ringing = await adaPhone.calls.invite(chat, 'video', 'call-ring-every-device');
    expect(ringing).toMatchObject({ state: 'ringing', media: 'video', conversationId: chat });
    for (const engine of [bobPhone, bobLaptop]) {
      await until(() => expect(callOf(engine, ringing.id)?.state).toBe('ringing'));
    }

    const taken = await bobPhone.calls.accept(ringing.id);
    expect(taken.state).toBe('accepted');
    expect(taken.participants.find((p) => p.userId === bob.user.id)?.sessionId).toBe(
      bobPhone.calls.sessionId,
    );
    await until(() => expect(elsewhere).toEqual([{ callId: ringing.id }]));
    await until(() => expect(callOf(adaPhone, ringing.id)?.state).toBe('accepted'));
    // The laptop answering too is told the call is taken.
    await expect(bobLaptop.calls.accept(ringing.id)).rejects.toMatchObject({
      code: 'CALL_STATE_CHANGED',
    });

    await adaPhone.calls.hangup(ringing.id);
    for (const engine of [adaPhone, bobPhone, bobLaptop]) {
      await until(() => expect(callOf(engine, ringing.id)?.state).toBe('ended'));
    }
    bobLaptop.calls.forget(ringing.id);
    expect(callOf(bobLaptop, ringing.id)).toBeUndefined();
  });

  it('relays the WebRTC signals of an answered call to the other device only', async () => {
    const { ada, bob, chat } = await friends();
    const adaPhone = await device(ada, false);
    const bobPhone = await device(bob, false);
    const bobLaptop = await device(bob);
    const toBob = heard(bobPhone, 'signal');
    const toLaptop = heard(bobLaptop, 'signal');
    const toAda = heard(adaPhone, 'signal');

    const call = await adaPhone.calls.invite(chat, 'audio', 'call-relay-signals');
    await bobPhone.calls.accept(call.id);
    expect(adaPhone.calls.signal(call.id, { type: 'offer', sdp: 'v=0 offer' })).toBe(true);
    await until(() =>
      expect(toBob).toEqual([
        {
          callId: call.id,
          fromSessionId: adaPhone.calls.sessionId,
          signal: { type: 'offer', sdp: 'v=0 offer' },
        },
      ]),
    );
    bobPhone.calls.signal(call.id, { type: 'answer', sdp: 'v=0 answer' });
    await until(() => expect(toAda.map((s) => s.signal.type)).toEqual(['answer']));
    // Only the device that took the call hears them, not Bob's laptop.
    expect(toLaptop).toEqual([]);
    await bobPhone.calls.hangup(call.id);
  });

  it('reads a ringing call back after a reconnect, and sends a frame that waited', async () => {
    const { ada, bob, chat } = await friends();
    const adaPhone = await device(ada, false);
    const bobPhone = await device(bob, false);
    const call = await adaPhone.calls.invite(chat, 'audio', 'call-read-back');
    await until(() => expect(callOf(bobPhone, call.id)?.state).toBe('ringing'));

    // A device that starts later learns of the call from the server, not from a frame.
    const bobLaptop = await device(bob);
    await until(() => expect(callOf(bobLaptop, call.id)?.state).toBe('ringing'));

    // Declined while the socket is down: the frame goes out once it is back.
    const back = heard(bobPhone, 'reconnected');
    socketsOf.get(bobPhone)?.at(-1)?.terminate();
    await until(() => expect(['connecting', 'offline']).toContain(bobPhone.getSnapshot().status));
    const declined = bobPhone.calls.reject(call.id);
    // Back at once rather than after the backoff's wait, as a tap on "retry" does.
    bobPhone.reconnectNow();
    await expect(declined).resolves.toMatchObject({ state: 'ended', outcome: 'rejected' });
    // The call screens hear the socket came back (a call going on says so again).
    expect(back).toHaveLength(1);
    await until(() => expect(callOf(adaPhone, call.id)?.outcome).toBe('rejected'));
  });

  it('refuses a call to someone who is not a friend, with the server’s reason', async () => {
    const { ada } = await friends();
    const stranger = await server.t.register({ nickname: 'Eve', motherTongue: 'en' });
    const adaPhone = await device(ada, false);
    const refusal = adaPhone.calls.invite(
      singleConversationId(ada.user.id, stranger.user.id),
      'audio',
      'call-not-friends',
    );
    await expect(refusal).rejects.toBeInstanceOf(ApiError);
    await expect(refusal).rejects.toMatchObject({ code: 'NOT_FRIENDS' });
    expect(adaPhone.calls.getSnapshot()).toEqual([]);
  });
});
