import { LocalPushService, type LocalSubscription } from '@teltlk/test-kit';
import {
  CALL_MEDIA_LOSS_SECONDS,
  CALL_RING_SECONDS,
  groupConversationId,
  singleConversationId,
  type Call,
  type CallContent,
  type ClientFrame,
  type Conversation,
  type MyGroup,
  type PushPayload,
  type ServerFrame,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { befriend, userApi } from '../../test/fixtures.js';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { socketUrl, TestSocket } from '../../test/test-client.js';
import { CallRepo } from './repo.js';

type Frame<T extends ServerFrame['t']> = Extract<ServerFrame, { t: T }>;
const is =
  <T extends ServerFrame['t']>(t: T) =>
  (frame: ServerFrame): frame is Frame<T> =>
    frame.t === t;

/** A call frame a test sends, without the rid `ask` gives it. */
type CallRequest =
  Extract<ClientFrame, { t: `call${string}`; rid: string }> extends infer F
    ? F extends unknown
      ? Omit<F, 'rid'>
      : never
    : never;

let ids = 0;
const clientCallId = () => `call-${Date.now().toString(36)}-${(ids += 1)}`;

/**
 * Calls through the real socket gateway: ringing every device of the callee, answered on
 * one, the others told; each ending leaves its record in the chat; the state read back
 * after a reconnect; who may call; an offline device gets an "incoming call" push.
 */
describe.each(dialects)('calls on $dialect', ({ dialect }) => {
  let t: TestApp;
  let url: string;
  let pushes: LocalPushService;
  const { call, ok } = userApi(() => t);
  const sockets: TestSocket[] = [];

  /** A device of a person: a session of its own with an open socket. */
  interface Device {
    user: RegisteredUser;
    socket: TestSocket;
    sessionId: string;
  }

  async function device(user: RegisteredUser, newSession = false): Promise<Device> {
    let token = user.token;
    if (newSession) {
      const response = await t.call('POST', '/api/v1/auth/login', {
        body: { account: user.destination, password: PASSWORD },
      });
      expect(response.statusCode, response.body).toBe(200);
      token = response.json<{ token: string }>().token;
    }
    const socket = await TestSocket.open(url);
    sockets.push(socket);
    socket.send({ t: 'auth', token });
    const hello = await socket.next(is('hello'));
    return { user: { ...user, token }, socket, sessionId: hello.sessionId };
  }

  /** The same device (session) with a new socket, after its last one closed. */
  async function reopen(from: Device): Promise<Device> {
    const socket = await TestSocket.open(url);
    sockets.push(socket);
    socket.send({ t: 'auth', token: from.user.token });
    const hello = await socket.next(is('hello'));
    return { ...from, socket, sessionId: hello.sessionId };
  }

  let requests = 0;
  /** Sends a call frame; resolves with the call it is answered with, or the error. */
  async function ask(from: Device, frame: CallRequest): Promise<Call | Frame<'error'>['error']> {
    requests += 1;
    const rid = `call-r${requests}`;
    from.socket.send({ ...frame, rid });
    const answer = await from.socket.next(
      (f) => (f.t === 'call' || f.t === 'error') && f.rid === rid,
    );
    if (answer.t === 'call') return answer.call;
    if (answer.t === 'error') return answer.error;
    throw new Error('unreachable');
  }

  async function okCall(from: Device, frame: CallRequest): Promise<Call> {
    const answer = await ask(from, frame);
    if ('code' in answer) throw new Error(`refused: ${answer.code}`);
    return answer;
  }

  const invite = (from: Device, conversationId: string, media: 'audio' | 'video' = 'video') =>
    okCall(from, { t: 'callInvite', clientCallId: clientCallId(), conversationId, media });

  /** The next change of a call a device hears of, in the given state. */
  const heard = (at: Device, callId: string, state: Call['state']) =>
    at.socket.next((f) => f.t === 'call' && f.call.id === callId && f.call.state === state);

  /** The record message a call left in its chat, as pushed to a device. */
  async function recordOf(at: Device, callId: string): Promise<CallContent> {
    const frame = await at.socket.next(
      (f) =>
        f.t === 'message' &&
        f.message.content.kind === 'call' &&
        f.message.content.callId === callId,
    );
    if (frame.t !== 'message' || frame.message.content.kind !== 'call')
      throw new Error('not a record');
    return frame.message.content;
  }

  let ada: RegisteredUser;
  let bob: RegisteredUser;
  let cai: RegisteredUser;
  let eve: RegisteredUser;
  let adaPhone: Device;
  let bobPhone: Device;
  let bobLaptop: Device;
  let adaBob: string;

  beforeAll(async () => {
    pushes = await LocalPushService.start();
    t = await createTestApp({ dialect, env: { PUSH_HOSTS: '127.0.0.1' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
    ada = await t.register({ nickname: 'Ada' });
    bob = await t.register({ nickname: 'Bob' });
    cai = await t.register({ nickname: 'Cai' });
    eve = await t.register({ nickname: 'Eve' });
    await befriend(t, ada, bob);
    await befriend(t, cai, bob);
    await befriend(t, cai, ada);
    adaBob = singleConversationId(ada.user.id, bob.user.id);
    adaPhone = await device(ada);
    bobPhone = await device(bob);
    bobLaptop = await device(bob, true);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await t.close();
    await pushes.close();
  });

  it('rings every device of the callee; one answers, the other hears it was answered elsewhere', async () => {
    const ringing = await invite(adaPhone, adaBob);
    expect(ringing).toMatchObject({
      kind: 'single',
      media: 'video',
      state: 'ringing',
      callerId: ada.user.id,
      ringUntil: t.clock.now() + CALL_RING_SECONDS * 1000,
      participants: [
        { userId: ada.user.id, state: 'joined', sessionId: adaPhone.sessionId },
        { userId: bob.user.id, state: 'ringing', sessionId: null },
      ],
    });
    await heard(bobPhone, ringing.id, 'ringing');
    await heard(bobLaptop, ringing.id, 'ringing');

    const accepted = await okCall(bobPhone, { t: 'callAccept', callId: ringing.id });
    expect(accepted.state).toBe('accepted');
    const elsewhere = await bobLaptop.socket.next(is('callAnswered'));
    expect(elsewhere).toEqual({
      t: 'callAnswered',
      callId: ringing.id,
      sessionId: bobPhone.sessionId,
    });
    await heard(adaPhone, ringing.id, 'accepted');
    // The other device cannot take it any more; the answering one may retry.
    expect(await ask(bobLaptop, { t: 'callAccept', callId: ringing.id })).toMatchObject({
      code: 'CALL_STATE_CHANGED',
    });
    expect(await okCall(bobPhone, { t: 'callAccept', callId: ringing.id })).toMatchObject({
      state: 'accepted',
    });

    // Offers and candidates go to the device that answered.
    adaPhone.socket.send({
      t: 'callSignal',
      callId: ringing.id,
      signal: { type: 'offer', sdp: 'v=0 offer' },
    });
    const offer = await bobPhone.socket.next(is('callSignal'));
    expect(offer).toMatchObject({
      callId: ringing.id,
      fromUserId: ada.user.id,
      fromSessionId: adaPhone.sessionId,
      signal: { type: 'offer', sdp: 'v=0 offer' },
    });
    // The device that did not answer may not signal.
    bobLaptop.socket.send({
      t: 'callSignal',
      callId: ringing.id,
      signal: { type: 'answer', sdp: 'v=0 answer' },
    });
    expect(await bobLaptop.socket.next(is('error'))).toMatchObject({
      rid: null,
      error: { code: 'CALL_STATE_CHANGED' },
    });

    await okCall(bobPhone, { t: 'callMedia', callId: ringing.id, state: 'connected' });
    await heard(adaPhone, ringing.id, 'connected');
    t.clock.advance(201_000);
    const ended = await okCall(adaPhone, { t: 'callHangup', callId: ringing.id });
    expect(ended).toMatchObject({ state: 'ended', outcome: 'completed' });
    await heard(bobLaptop, ringing.id, 'ended');
    expect(await recordOf(bobPhone, ringing.id)).toEqual({
      kind: 'call',
      callId: ringing.id,
      media: 'video',
      outcome: 'completed',
      durationSeconds: 201,
      group: false,
    });
    // The record is the chat's last message, the chat list's preview.
    const sync = ok<{ conversations: Conversation[] }>(
      await call(bob, 'GET', '/sync/conversations'),
    );
    const chat = sync.conversations.find((c) => c.id === adaBob);
    expect(chat?.lastMessage?.content).toMatchObject({ kind: 'call', outcome: 'completed' });
  });

  it('finds the same call for a retried invite', async () => {
    const id = clientCallId();
    const first = await okCall(adaPhone, {
      t: 'callInvite',
      clientCallId: id,
      conversationId: adaBob,
      media: 'audio',
    });
    const again = await okCall(adaPhone, {
      t: 'callInvite',
      clientCallId: id,
      conversationId: adaBob,
      media: 'audio',
    });
    expect(again.id).toBe(first.id);
    await okCall(adaPhone, { t: 'callCancel', callId: first.id });
    expect(await recordOf(bobPhone, first.id)).toMatchObject({
      outcome: 'cancelled',
      media: 'audio',
    });
  });

  it('is declined on one device and stops ringing on all', async () => {
    const ringing = await invite(adaPhone, adaBob, 'audio');
    await heard(bobLaptop, ringing.id, 'ringing');
    const declined = await okCall(bobLaptop, { t: 'callReject', callId: ringing.id });
    expect(declined).toMatchObject({ state: 'ended', outcome: 'rejected' });
    await heard(bobPhone, ringing.id, 'ended');
    await heard(adaPhone, ringing.id, 'ended');
    expect(await recordOf(adaPhone, ringing.id)).toMatchObject({
      outcome: 'rejected',
      durationSeconds: 0,
    });
    // A retry is answered with the call as it is.
    expect(await okCall(bobLaptop, { t: 'callReject', callId: ringing.id })).toMatchObject({
      outcome: 'rejected',
    });
  });

  it('reads the state back after a reconnect, and ends unanswered calls as missed', async () => {
    const ringing = await invite(adaPhone, adaBob);
    const current = ok<{ calls: Call[] }>(await call(bob, 'GET', '/calls/current'));
    expect(current.calls.map((c) => c.id)).toEqual([ringing.id]);
    t.clock.advance(CALL_RING_SECONDS * 1000);
    // The timer of the call is the node's; a device reading after its time settles it too.
    expect(ok(await call(bob, 'GET', '/calls/current'))).toEqual({ calls: [] });
    await heard(adaPhone, ringing.id, 'ended');
    expect(await recordOf(bobPhone, ringing.id)).toMatchObject({ outcome: 'missed' });
    expect(await ask(bobPhone, { t: 'callAccept', callId: ringing.id })).toMatchObject({
      code: 'CALL_STATE_CHANGED',
    });
  });

  it('lets one of two devices answering at once take the call', async () => {
    const ringing = await invite(adaPhone, adaBob, 'audio');
    const answers = await Promise.all(
      [bobPhone, bobLaptop].map((d) => ask(d, { t: 'callAccept', callId: ringing.id })),
    );
    const taken = answers.filter((answer) => !('code' in answer));
    expect(taken).toHaveLength(1);
    expect(answers.filter((answer) => 'code' in answer)).toMatchObject([
      { code: 'CALL_STATE_CHANGED' },
    ]);
    await okCall(adaPhone, { t: 'callHangup', callId: ringing.id });
  });

  it('fails a call whose media stays lost, with its record', async () => {
    const ringing = await invite(adaPhone, adaBob, 'audio');
    await okCall(bobPhone, { t: 'callAccept', callId: ringing.id });
    await okCall(bobPhone, { t: 'callMedia', callId: ringing.id, state: 'connected' });
    const lost = await okCall(adaPhone, { t: 'callMedia', callId: ringing.id, state: 'lost' });
    expect(lost.state).toBe('connected');
    t.clock.advance(CALL_MEDIA_LOSS_SECONDS * 1000);
    expect(ok(await call(ada, 'GET', '/calls/current'))).toEqual({ calls: [] });
    await heard(bobLaptop, ringing.id, 'ended');
    expect(await recordOf(bobPhone, ringing.id)).toMatchObject({
      outcome: 'failed',
      durationSeconds: CALL_MEDIA_LOSS_SECONDS,
    });
  });

  it('takes the media of a device whose sockets all closed as lost, failing the call unless it comes back', async () => {
    const adaTablet = await device(ada, true);
    const ringing = await invite(adaTablet, adaBob, 'audio');
    await okCall(bobPhone, { t: 'callAccept', callId: ringing.id });
    await okCall(bobPhone, { t: 'callMedia', callId: ringing.id, state: 'connected' });
    // The tablet crashes: its one socket closes.
    await adaTablet.socket.close();
    const lostAt = async (id: string) =>
      (await new CallRepo(t.ctx.db).find(id))?.record.mediaLostAt;
    await expect.poll(() => lostAt(ringing.id)).toBe(t.clock.now());
    t.clock.advance(CALL_MEDIA_LOSS_SECONDS * 1000);
    await expect
      .poll(async () => (await t.ctx.services.calls.current(bob.user.id)).calls)
      .toEqual([]);
    expect(await recordOf(bobPhone, ringing.id)).toMatchObject({ outcome: 'failed' });

    // A device that comes back within the grace says its media flows: the call goes on.
    const again = await invite(adaPhone, adaBob, 'audio');
    await okCall(bobLaptop, { t: 'callAccept', callId: again.id });
    await okCall(bobLaptop, { t: 'callMedia', callId: again.id, state: 'connected' });
    const laptopSession = bobLaptop.sessionId;
    await bobLaptop.socket.close();
    await expect.poll(() => lostAt(again.id)).toBe(t.clock.now());
    bobLaptop = await reopen(bobLaptop);
    expect(bobLaptop.sessionId).toBe(laptopSession);
    await okCall(bobLaptop, { t: 'callMedia', callId: again.id, state: 'restored' });
    t.clock.advance(CALL_MEDIA_LOSS_SECONDS * 1000);
    expect(ok<{ calls: Call[] }>(await call(ada, 'GET', '/calls/current')).calls).toMatchObject([
      { id: again.id, state: 'connected' },
    ]);
    await okCall(adaPhone, { t: 'callHangup', callId: again.id });
  });

  it('tells a caller the callee is busy in another call', async () => {
    const caiPhone = await device(cai);
    const first = await invite(adaPhone, adaBob);
    await okCall(bobPhone, { t: 'callAccept', callId: first.id });
    const busy = await invite(caiPhone, singleConversationId(cai.user.id, bob.user.id), 'audio');
    expect(busy).toMatchObject({ state: 'ended', outcome: 'busy' });
    expect(await recordOf(caiPhone, busy.id)).toMatchObject({ outcome: 'busy' });
    await okCall(bobPhone, { t: 'callHangup', callId: first.id });
  });

  it('lets only friends call one another, not blocked either way, and only in chats they are in', async () => {
    const evePhone = await device(eve);
    const eveAda = singleConversationId(eve.user.id, ada.user.id);
    const refused = (from: Device, conversationId: string) =>
      ask(from, { t: 'callInvite', clientCallId: clientCallId(), conversationId, media: 'audio' });
    expect(await refused(evePhone, eveAda)).toMatchObject({ code: 'NOT_FRIENDS' });
    expect(await refused(evePhone, adaBob)).toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    expect(await refused(evePhone, 'not a chat')).toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    expect((await call(bob, 'PUT', `/blocks/${cai.user.id}`)).statusCode).toBe(204);
    const caiPhone = await device(cai);
    expect(await refused(caiPhone, singleConversationId(cai.user.id, bob.user.id))).toMatchObject({
      code: 'NOT_FRIENDS',
    });
    // Someone outside a call learns nothing of it.
    const ringing = await invite(adaPhone, adaBob);
    for (const frame of ['callAccept', 'callReject', 'callHangup', 'callCancel'] as const) {
      expect(await ask(evePhone, { t: frame, callId: ringing.id })).toMatchObject({
        code: 'CALL_NOT_FOUND',
      });
    }
    expectError(await call(eve, 'POST', `/calls/${ringing.id}/sfu`), 'CALL_NOT_FOUND');
    await okCall(adaPhone, { t: 'callCancel', callId: ringing.id });
  });

  it('pushes "incoming call" to a device without a socket, in its language', async () => {
    const dan = await t.register({ nickname: 'Dan', uiLanguage: 'zh_CN' });
    await befriend(t, ada, dan);
    const key = await call(dan, 'GET', '/push/key');
    const subscription: LocalSubscription = pushes.subscribe(
      key.json<{ publicKey: string }>().publicKey,
    );
    expect((await call(dan, 'PUT', '/push/subscription', subscription)).statusCode).toBe(204);
    const adaDan = singleConversationId(ada.user.id, dan.user.id);
    const ringing = await invite(adaPhone, adaDan, 'audio');
    await t.ctx.services.push.drain();
    const received = pushes
      .received(subscription.endpoint)
      .map((push) => JSON.parse(push.payload) as PushPayload);
    expect(received).toEqual([
      {
        title: '来电',
        body: 'Ada 邀请你语音通话',
        tag: `call:${ringing.id}`,
        path: `/pages/home/chat?conversationId=${encodeURIComponent(adaDan)}`,
        conversationId: adaDan,
      },
    ]);
    await okCall(adaPhone, { t: 'callCancel', callId: ringing.id });
  });

  it('hands out ICE servers: none without STUN or TURN configured', async () => {
    expect(ok(await call(ada, 'GET', '/calls/ice-servers'))).toEqual({
      iceServers: [],
      expiresAt: null,
      iceTransportPolicy: 'all',
    });
  });

  describe('in a group', () => {
    let group: MyGroup;
    let conversationId: string;

    beforeAll(async () => {
      group = ok<MyGroup>(
        await call(ada, 'POST', '/groups', { memberIds: [bob.user.id, cai.user.id] }),
      );
      conversationId = groupConversationId(group.id);
    });

    it('rings the members, takes late joiners, and is the running call for a second invite', async () => {
      const caiPhone = await device(cai);
      const ringing = await invite(adaPhone, conversationId, 'audio');
      expect(ringing.kind).toBe('group');
      // The caller first; the members rung in the order of the member list.
      const [caller, ...rung] = ringing.participants.map((p) => [p.userId, p.state]);
      expect(caller).toEqual([ada.user.id, 'joined']);
      expect(rung.sort()).toEqual(
        [
          [bob.user.id, 'ringing'],
          [cai.user.id, 'ringing'],
        ].sort(),
      );
      await heard(caiPhone, ringing.id, 'ringing');
      await okCall(bobLaptop, { t: 'callAccept', callId: ringing.id });
      await bobPhone.socket.next(is('callAnswered'));
      const running = await invite(caiPhone, conversationId, 'video');
      expect(running.id).toBe(ringing.id);
      // No SFU in this app: the room cannot be made, the call goes on.
      expectError(await call(bob, 'POST', `/calls/${ringing.id}/sfu`), 'FEATURE_UNAVAILABLE');
      for (const d of [adaPhone, bobLaptop])
        await okCall(d, { t: 'callHangup', callId: ringing.id });
      expect(await recordOf(caiPhone, ringing.id)).toMatchObject({
        outcome: 'completed',
        group: true,
      });
    });

    it('lets a member whose device went away leave, and take their place again on its return', async () => {
      const caiPhone = await device(cai, true);
      const running = await invite(adaPhone, conversationId, 'audio');
      await okCall(caiPhone, { t: 'callAccept', callId: running.id });
      await caiPhone.socket.close();
      const caiIn = async () =>
        ok<{ calls: Call[] }>(await call(ada, 'GET', '/calls/current'))
          .calls.find((c) => c.id === running.id)
          ?.participants.find((p) => p.userId === cai.user.id)?.state;
      await expect.poll(caiIn).toBe('left');
      const back = await reopen(caiPhone);
      await okCall(back, { t: 'callAccept', callId: running.id });
      expect(await caiIn()).toBe('joined');
      for (const d of [adaPhone, back]) await okCall(d, { t: 'callHangup', callId: running.id });
    });

    it("follows the group's setting of who may start calls", async () => {
      const caiPhone = await device(cai);
      ok(await call(ada, 'PATCH', `/groups/${group.id}`, { callPolicy: 'admins' }));
      expectError(
        await call(cai, 'PATCH', `/groups/${group.id}`, { callPolicy: 'all' }),
        'GROUP_ROLE_REQUIRED',
      );
      expect(
        await ask(caiPhone, {
          t: 'callInvite',
          clientCallId: clientCallId(),
          conversationId,
          media: 'audio',
        }),
      ).toMatchObject({ code: 'CALL_NOT_ALLOWED' });
      const byOwner = await invite(adaPhone, conversationId, 'audio');
      // Anyone in the group joins a running call.
      await okCall(caiPhone, { t: 'callAccept', callId: byOwner.id });
      await okCall(adaPhone, { t: 'callHangup', callId: byOwner.id });
      await okCall(caiPhone, { t: 'callHangup', callId: byOwner.id });
      ok(await call(ada, 'PATCH', `/groups/${group.id}`, { callPolicy: 'all' }));
    });
  });
});

describe('call frame limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      rateLimits: {
        scale: 1,
        rules: {
          callInvitePerUser: { limit: 2, windowMs: 60 * 60_000 },
          callFramePerUser: { limit: 1, windowMs: 60 * 60_000 },
        },
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses invites and answers past their limits (FRAME_LIMITS), with a retry time', async () => {
    const [ada, bob] = [await t.register(), await t.register()];
    await befriend(t, ada, bob);
    const socket = await TestSocket.connect(socketUrl(t.app.server.address()), ada.token);
    const conversationId = singleConversationId(ada.user.id, bob.user.id);
    const answers: ServerFrame[] = [];
    for (const rid of ['i1', 'i2', 'i3']) {
      socket.send({
        t: 'callInvite',
        rid,
        clientCallId: `limit-${rid}-call`,
        conversationId,
        media: 'audio',
      });
      answers.push(await socket.next((f) => (f.t === 'call' || f.t === 'error') && f.rid === rid));
    }
    expect(answers.map((f) => f.t)).toEqual(['call', 'call', 'error']);
    const refused = answers[2];
    expect(refused?.t === 'error' && refused.error.code).toBe('RATE_LIMITED');
    expect(refused?.t === 'error' && Number(refused.error.params?.seconds)).toBeGreaterThan(0);
    const first = answers[0];
    if (first?.t !== 'call') throw new Error('no call');
    for (const rid of ['c1', 'c2']) socket.send({ t: 'callCancel', rid, callId: first.call.id });
    expect(await socket.next((f) => f.t === 'call' && f.rid === 'c1')).toMatchObject({
      call: { outcome: 'cancelled' },
    });
    expect(await socket.next((f) => f.t === 'error' && f.rid === 'c2')).toMatchObject({
      error: { code: 'RATE_LIMITED' },
    });
    await socket.close();
  });
});
