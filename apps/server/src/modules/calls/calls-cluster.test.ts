import { singleConversationId, type ServerFrame } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { befriend } from '../../test/fixtures.js';
import { createTestApp, PASSWORD, type RegisteredUser, type TestApp } from '../../test/harness.js';
import { socketUrl, TestSocket } from '../../test/test-client.js';

/**
 * A call across two nodes on one PostgreSQL and one Redis: the callee's devices sit on
 * both, each rings, the one on the other node answers, the rest hear it, and the
 * signalling reaches the device that answered.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('calls across two nodes', () => {
  let north: TestApp;
  let south: TestApp;
  let ada: RegisteredUser;
  let bob: RegisteredUser;
  const sockets: TestSocket[] = [];

  /** A device on a node: a socket of its own session, and that session. */
  async function device(node: TestApp, token: string) {
    const socket = await TestSocket.open(socketUrl(node.app.server.address()));
    sockets.push(socket);
    socket.send({ t: 'auth', token });
    const hello = await socket.next((f) => f.t === 'hello');
    if (hello.t !== 'hello') throw new Error('no hello');
    return { socket, sessionId: hello.sessionId };
  }

  beforeAll(async () => {
    const redis = { REDIS_URL: TEST_REDIS_URL ?? '' };
    north = await createTestApp({ dialect: 'postgres', env: redis });
    south = await createTestApp({
      env: { ...redis, DATABASE_URL: north.ctx.config.databaseUrl ?? '' },
    });
    await north.app.listen({ port: 0, host: '127.0.0.1' });
    await south.app.listen({ port: 0, host: '127.0.0.1' });
    ada = await north.register();
    bob = await north.register();
    await befriend(north, ada, bob);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await south?.close();
    await north?.close();
  });

  it('rings the callee on both nodes and hands the call to the device that answered', async () => {
    const login = await north.call('POST', '/api/v1/auth/login', {
      body: { account: bob.destination, password: PASSWORD },
    });
    const adaPhone = await device(north, ada.token);
    const bobPhone = await device(north, bob.token);
    const bobLaptop = await device(south, login.json<{ token: string }>().token);
    const conversationId = singleConversationId(ada.user.id, bob.user.id);
    adaPhone.socket.send({
      t: 'callInvite',
      rid: 'i1',
      clientCallId: 'cluster-call-1',
      conversationId,
      media: 'video',
    });
    const answer = await adaPhone.socket.next((f) => f.t === 'call' && f.rid === 'i1');
    if (answer.t !== 'call') throw new Error('no call');
    const callId = answer.call.id;
    const ringing = (f: ServerFrame) => f.t === 'call' && f.call.id === callId;
    await bobPhone.socket.next(ringing);
    await bobLaptop.socket.next(ringing);

    bobLaptop.socket.send({ t: 'callAccept', rid: 'a1', callId });
    expect(await bobLaptop.socket.next((f) => f.t === 'call' && f.rid === 'a1')).toMatchObject({
      call: { state: 'accepted' },
    });
    expect(await bobPhone.socket.next((f) => f.t === 'callAnswered')).toEqual({
      t: 'callAnswered',
      callId,
      sessionId: bobLaptop.sessionId,
    });
    await adaPhone.socket.next((f) => f.t === 'call' && f.call.state === 'accepted');

    adaPhone.socket.send({ t: 'callSignal', callId, signal: { type: 'offer', sdp: 'v=0' } });
    expect(await bobLaptop.socket.next((f) => f.t === 'callSignal')).toMatchObject({
      callId,
      fromSessionId: adaPhone.sessionId,
    });
    bobLaptop.socket.send({ t: 'callHangup', rid: 'h1', callId });
    await adaPhone.socket.next((f) => f.t === 'call' && f.call.state === 'ended');
  });
});
