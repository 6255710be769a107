import type { ClientFrame, ErrorCode } from '@teltlk/protocol';
import { expect } from 'vitest';
import { ACTORS, type Actor, type Cast, clientMsgId } from '../cast.js';
import type { TestSocket } from '../test-client.js';
import {
  type Cells,
  type FrameRow,
  type FrameWant,
  GROUP_CHAT,
  GROUP_MEMBERS,
  groupChat,
  OK,
  type Row,
  SIGNED_IN,
  SINGLE_CHAT,
} from './cells.js';

/**
 * Calls' routes and frames: the rows, and each call frame as an actor tries it (used by
 * the socket frames' suite), each on a call of the owner's made fresh for the attempt.
 */
export const NO_CALL = 'CALL_NOT_FOUND' satisfies ErrorCode;
/** A one-to-one call of the owner's with the member: its two people; to anyone else it does not exist. */
const CALL_PARTIES: Cells<FrameWant> = {
  owner: OK,
  admin: NO_CALL,
  member: OK,
  blocked: NO_CALL,
  removed: NO_CALL,
  stranger: NO_CALL,
};
/** A group call: open to the group's members (who join late); to anyone else it does not exist. */
const GROUP_CALL: Cells = { ...GROUP_MEMBERS, removed: NO_CALL, stranger: NO_CALL };

/** The session of an actor's token: the device that calls, on the socket and in the service. */
async function deviceOf(w: Cast, as: Actor): Promise<{ userId: string; sessionId: string }> {
  const { userId, sessionId } = await w.t.ctx.services.sessions.authenticate(w.users[as].token);
  return { userId, sessionId };
}

/** Ends every call of the cast, so that no one is busy and no group call runs. */
async function hangUpAll(w: Cast): Promise<void> {
  const { calls } = w.t.ctx.services;
  for (const as of ACTORS) {
    const { calls: live } = await calls.current(w.users[as].user.id);
    for (const call of live) {
      for (const party of call.participants) {
        if (party.state !== 'joined' && party.state !== 'ringing') continue;
        const auth = { userId: party.userId, sessionId: party.sessionId ?? 'none' };
        await calls.act(auth, call.id, { type: 'hangup' }).catch(() => undefined);
      }
    }
  }
}

/** A new call of the owner's (one-to-one with the member, or in the group), answered by the member if asked. */
async function ownersCall(w: Cast, conversationId: string, answered = false): Promise<string> {
  const { calls } = w.t.ctx.services;
  await hangUpAll(w);
  const owner = await deviceOf(w, 'owner');
  const media = 'audio';
  const call = await calls.invite(owner, { clientCallId: clientMsgId(), conversationId, media });
  if (answered) await calls.act(await deviceOf(w, 'member'), call.id, { type: 'accept' });
  return call.id;
}

export const CALL_ROWS: Row[] = [
  {
    route: 'GET /api/v1/calls/current',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/calls/current'),
  },
  {
    route: 'GET /api/v1/calls/ice-servers',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/calls/ice-servers'),
  },
  {
    route: 'POST /api/v1/calls/:id/sfu',
    on: "the owner's group call, joined first where one may",
    cells: GROUP_CALL,
    run: async (w, as) => {
      const id = await ownersCall(w, groupChat(w));
      if (as !== 'anonymous') {
        const device = await deviceOf(w, as);
        await w.t.ctx.services.calls.act(device, id, { type: 'accept' }).catch(() => undefined);
      }
      return w.call(as, 'POST', `/calls/${id}/sfu`);
    },
  },
];

/** A call frame as the first of a socket, with no auth frame before it. */
export function unauthenticatedCall(frame: CallFrameType, conversationId: string): ClientFrame {
  switch (frame) {
    case 'callInvite':
      return { t: frame, rid: 'r1', clientCallId: clientMsgId(), conversationId, media: 'audio' };
    case 'callMedia':
      return { t: frame, rid: 'r1', callId: 'c1', state: 'connected' };
    case 'callSignal':
      return { t: frame, callId: 'c1', signal: { type: 'offer', sdp: 'v=0' } };
    default:
      return { t: frame, rid: 'r1', callId: 'c1' };
  }
}

export type CallFrameType = Extract<ClientFrame['t'], `call${string}`>;

export const CALL_FRAME_ROWS: FrameRow[] = [
  { frame: 'callInvite', on: 'group', cells: GROUP_CHAT },
  // Friends call each other; the blocked user's friendship stays, the block refuses.
  {
    frame: 'callInvite',
    on: 'one-to-one',
    cells: { ...SINGLE_CHAT, blocked: 'NOT_FRIENDS' },
  },
  { frame: 'callAccept', on: 'group', cells: GROUP_CALL },
  { frame: 'callAccept', on: 'one-to-one', cells: CALL_PARTIES },
  { frame: 'callReject', on: 'one-to-one', cells: CALL_PARTIES },
  // Only the caller cancels; the invitee declines.
  { frame: 'callCancel', on: 'one-to-one', cells: { ...CALL_PARTIES, member: NO_CALL } },
  { frame: 'callHangup', on: 'one-to-one', cells: CALL_PARTIES },
  { frame: 'callMedia', on: 'one-to-one', cells: CALL_PARTIES },
  { frame: 'callSignal', on: 'one-to-one', cells: CALL_PARTIES },
];

/**
 * Each call frame tried by an actor: the call it acts on is the owner's, made fresh for
 * the attempt (one-to-one with the member, answered by the member for media and signals).
 */
export function callAttempts(
  cast: () => Cast,
  sockets: Record<Actor, TestSocket>,
  handled: (socket: TestSocket) => Promise<void>,
): Record<CallFrameType, (as: Actor, conversationId: string, want: FrameWant) => Promise<void>> {
  let rids = 0;
  async function check(as: Actor, frame: Record<string, unknown>, want: FrameWant) {
    rids += 1;
    const rid = `call-${rids}`;
    sockets[as].send({ ...frame, rid });
    const answer = await sockets[as].next(
      (f) => (f.t === 'call' || f.t === 'error') && f.rid === rid,
    );
    if (want !== OK) expect(answer).toMatchObject({ t: 'error', error: { code: want } });
    else
      expect(answer.t === 'call' && answer.call.id.length > 0, JSON.stringify(answer)).toBe(true);
  }
  const onCall =
    (t: 'callAccept' | 'callReject' | 'callCancel' | 'callHangup') =>
    async (as: Actor, conversationId: string, want: FrameWant) => {
      const w = cast();
      const group = conversationId === groupChat(w);
      const callId = await ownersCall(w, group ? conversationId : w.single);
      await check(as, { t, callId }, want);
    };
  return {
    async callInvite(as, conversationId, want) {
      await hangUpAll(cast());
      await check(
        as,
        { t: 'callInvite', clientCallId: clientMsgId(), conversationId, media: 'audio' },
        want,
      );
    },
    callAccept: onCall('callAccept'),
    callReject: onCall('callReject'),
    callCancel: onCall('callCancel'),
    callHangup: onCall('callHangup'),
    async callMedia(as, _conversationId, want) {
      const w = cast();
      const callId = await ownersCall(w, w.single, true);
      await check(as, { t: 'callMedia', callId, state: 'connected' }, want);
    },
    async callSignal(as, _conversationId, want) {
      const w = cast();
      const callId = await ownersCall(w, w.single, true);
      const socket = sockets[as];
      const since = socket.frames.length;
      socket.send({ t: 'callSignal', callId, signal: { type: 'offer', sdp: 'v=0' } });
      await handled(socket);
      const errors = socket.frames.slice(since).filter((f) => f.t === 'error' && f.rid === null);
      if (want !== OK) {
        expect(errors).toMatchObject([{ error: { code: want } }]);
        return;
      }
      expect(errors).toEqual([]);
      const peer = as === 'owner' ? 'member' : 'owner';
      await sockets[peer].next((f) => f.t === 'callSignal' && f.callId === callId);
    },
  };
}
