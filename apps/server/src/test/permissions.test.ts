import { channel } from 'node:diagnostics_channel';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  SOCKET_CLOSE,
  clientFrameSchema,
  singleConversationId,
  groupConversationId,
  singleMembersOf,
  type ClientFrame,
  type ErrorCode,
  mediaIdOf,
  type MediaUrlsResult,
  type Message,
  type ServerFrame,
} from '@teltlk/protocol';
import { newId } from '../lib/random.js';
import { DAY } from '../lib/clock.js';
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import type { RouteSensitivity } from '../http/step-up.js';
import { STEP_UP_WINDOW_SECONDS, type Sensitivity } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { FakeProvider } from './fake-provider.js';
import { MemorySfu } from './fake-sfu.js';
import { socketUrl, TestSocket } from './test-client.js';
import { ACTORS, clientMsgId, createCast, type Actor, type Caller, type Cast } from './cast.js';
import type { RegisteredUser } from './harness.js';
import { authOf, befriend } from './fixtures.js';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  uniquePhone,
  type TestApp,
} from './harness.js';
import type { RunningPiSandbox } from '@teltlk/pi-sandbox';
import { piEnv, startClockedSandbox } from './pi-sandbox.js';

/**
 * Who may do what, for every route the app registers and every socket frame, tried by each
 * actor of the cast against the owner's things (see cast.ts), and by a caller with no
 * token. A route with no row here fails the suite: a new endpoint gets its place in the
 * table the day it lands.
 *
 * The route table is read as Fastify builds it: an onRoute hook attached through Fastify's
 * `fastify.initialization` diagnostics channel sees every route as it is registered,
 * hidden ones (docs, files, the socket, the web app) included, with nothing in the app
 * built for the test. The OpenAPI document would miss the hidden routes, and printRoutes
 * is a picture of the router's tree, not a list.
 */

/** `ok`: 2xx. Otherwise the error the call must answer. */
type Want = 'ok' | ErrorCode;
/**
 * A cell whose fix belongs to another change: skipped until it lands, with the behaviour
 * it waits for. Turn it on by writing the `want` in its place.
 */
interface Todo {
  want: Want;
  todo: string;
}
type Cell<W = Want> = W | Todo;
type Cells<W = Want> = Record<Actor, Cell<W>>;

interface Row {
  /** `METHOD /url` as registered (HEAD runs the GET route's hooks and handler). */
  route: string;
  /** What the row tries, where a route has several rows. */
  on?: string;
  cells: Cells;
  run(w: Cast, as: Caller): Promise<LightMyRequestResponse>;
  /** Further checks after the call (every signed-in actor, whatever the answer). */
  check?(w: Cast, as: Actor, response: LightMyRequestResponse): Promise<void>;
  /** Puts back what a successful call changed and later rows rely on. */
  restore?(w: Cast, as: Actor): Promise<void>;
}

const OK = 'ok';
const NO_GROUP = 'GROUP_NOT_FOUND' satisfies ErrorCode;
const NO_CHAT = 'CONVERSATION_NOT_FOUND' satisfies ErrorCode;
const STAFF_ONLY = 'GROUP_ROLE_REQUIRED' satisfies ErrorCode;
const OWNER_ONLY = 'GROUP_OWNER_REQUIRED' satisfies ErrorCode;

/** Routes on the caller's own account or open to anyone signed in. */
const SIGNED_IN: Cells = {
  owner: OK,
  admin: OK,
  member: OK,
  blocked: OK,
  removed: OK,
  stranger: OK,
};
/** The group's members; a block between members changes nothing here; outsiders see no group. */
const GROUP_MEMBERS: Cells = {
  owner: OK,
  admin: OK,
  member: OK,
  blocked: OK,
  removed: NO_GROUP,
  stranger: NO_GROUP,
};
const GROUP_STAFF: Cells = { ...GROUP_MEMBERS, member: STAFF_ONLY, blocked: STAFF_ONLY };
const GROUP_OWNER: Cells = {
  ...GROUP_MEMBERS,
  admin: OWNER_ONLY,
  member: OWNER_ONLY,
  blocked: OWNER_ONLY,
};
/** The group's conversation: its members; to anyone else it does not exist. */
const GROUP_CHAT: Cells = { ...GROUP_MEMBERS, removed: NO_CHAT, stranger: NO_CHAT };
/**
 * A one-to-one chat: the owner and the member are its two people, and the blocked user
 * acts on their own chat with the owner; to anyone else the owner's chat does not exist.
 */
const SINGLE_CHAT: Cells = {
  owner: OK,
  admin: NO_CHAT,
  member: OK,
  blocked: OK,
  removed: NO_CHAT,
  stranger: NO_CHAT,
};

const groupChat = (w: Cast) => `sg_${w.group.id}`;

/** Media in the group chat: its members see it; to anyone else it does not exist. */
const GROUP_MEDIA: Cells = {
  ...GROUP_MEMBERS,
  removed: 'MEDIA_NOT_FOUND',
  stranger: 'MEDIA_NOT_FOUND',
};
/** The owner's alone (a session, an unfinished upload); to anyone else it does not exist. */
const OWNER_ONLY_THING: Cells = {
  owner: OK,
  admin: 'NOT_FOUND',
  member: 'NOT_FOUND',
  blocked: 'NOT_FOUND',
  removed: 'NOT_FOUND',
  stranger: 'NOT_FOUND',
};

/**
 * Gives the actor's session a proof made now (a step-up with its password), so a row of a
 * sensitive route tries who may act, not how recently they proved it: that is the
 * sensitive table's to try (below).
 */
async function fresh(w: Cast, as: Caller | RegisteredUser): Promise<void> {
  if (as === 'anonymous') return;
  const { sessions, stepUp } = w.t.ctx.services;
  const user = typeof as === 'string' ? w.users[as] : as;
  await stepUp.proven(await sessions.authenticate(user.token), 'password');
}

/** The local Pi sandbox the matrix's app talks to (started per dialect). */
let piSandbox: RunningPiSandbox;
let piPeople = 0;
/** A Pi account nobody has bound yet, signed in to the sandbox. */
const newPiAccount = () => piSandbox.emulator.signIn(`matrix_${(piPeople += 1)}_${Date.now()}`);
/** The Pi account bound to the owner (bound now if the owner has none). */
let ownersPi: ReturnType<typeof newPiAccount> | null = null;
async function bindOwnersPi(w: Cast): Promise<NonNullable<typeof ownersPi>> {
  const me = (await w.call('owner', 'GET', '/me')).json<{ piUsername: string | null }>();
  if (me.piUsername && ownersPi?.user.username === me.piUsername) return ownersPi;
  await fresh(w, 'owner');
  if (me.piUsername) expect((await w.call('owner', 'DELETE', '/me/pi')).statusCode).toBe(200);
  ownersPi = newPiAccount();
  const bound = await w.call('owner', 'POST', '/me/pi', { accessToken: ownersPi.accessToken });
  expect(bound.statusCode, bound.body).toBe(200);
  return ownersPi;
}
/** A wallet with the payment password 123456 and a little Pi, for the caller. */
async function moneyReady(w: Cast, as: Caller): Promise<void> {
  if (as === 'anonymous') return;
  await fresh(w, as);
  await w.call(as, 'POST', '/wallet');
  await w.call(as, 'PUT', '/wallet/password', { password: '123456' });
  await w.t.ctx.db.transaction().execute((trx) =>
    w.t.ctx.services.ledger.post(trx, {
      key: `matrix-fund:${newId()}`,
      kind: 'recharge',
      entries: [
        { account: { app: 'outside', currency: 'PI' }, amount: -1_000_000 },
        {
          account: { user: w.users[as].user.id, purpose: 'available', currency: 'PI' },
          amount: 1_000_000,
        },
      ],
    }),
  );
}
/** A new red envelope of one share from the owner into the owner's group. */
async function ownersEnvelope(w: Cast): Promise<string> {
  await moneyReady(w, 'owner');
  const sent = await w.call('owner', 'POST', '/wallet/envelopes', {
    conversationId: groupConversationId(w.group.id),
    clientMsgId: clientMsgId(),
    total: '0.01',
    count: 1,
    split: 'equal',
    password: '123456',
  });
  expect(sent.statusCode, sent.body).toBe(200);
  return sent.json<{ content: { envelopeId: string } }>().content.envelopeId;
}
/** A PNG a test mints NFTs from, made once. */
let nftPicture: Promise<Buffer> | undefined;
/** A new NFT held by the caller (by the owner for anonymous callers). */
async function nftOf(w: Cast, as: Caller): Promise<string> {
  const { nfts } = w.t.ctx.services;
  nftPicture ??= import('sharp').then(({ default: sharp }) =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: '#fa0' } })
      .png()
      .toBuffer(),
  );
  const collectionId = await nfts.createCollection({ name: 'Matrix', description: '' });
  const { id } = await nfts.mint({
    collectionId,
    name: 'Badge',
    description: '',
    image: await nftPicture,
    to: w.users[as === 'anonymous' ? 'owner' : as].user.id,
  });
  return id;
}
/** Routes of a Pi account's own money: only the owner here is bound to Pi. */
const PI_USERS_ONLY: Cells = {
  owner: OK,
  admin: 'PI_ONLY',
  member: 'PI_ONLY',
  blocked: 'PI_ONLY',
  removed: 'PI_ONLY',
  stranger: 'PI_ONLY',
};
/** The owner bound to Pi, with a wallet and the payment password 123456. */
async function ownersPiWallet(w: Cast): Promise<NonNullable<typeof ownersPi>> {
  const pi = await bindOwnersPi(w);
  await fresh(w, 'owner');
  await w.call('owner', 'POST', '/wallet');
  const set = await w.call('owner', 'PUT', '/wallet/password', { password: '123456' });
  expect([200, 409]).toContain(set.statusCode);
  return pi;
}
/** A recharge order of the owner's, and the Pi payment their browser made for it. */
async function ownersRechargePayment(w: Cast, amount = '1'): Promise<{ paymentId: string }> {
  const pi = await ownersPiWallet(w);
  const ordered = await w.call('owner', 'POST', '/wallet/recharge', { amount });
  expect(ordered.statusCode, ordered.body).toBe(200);
  const { payment } = ordered.json<{ payment: unknown }>();
  const create = () =>
    piSandbox.emulator.handle('POST', '/v2/payments/user_to_app', `Bearer ${pi.accessToken}`, {
      payment,
    });
  let created = create();
  if (created.status === 409) {
    // An earlier row left a paid payment unfinished: the app settles it first, as Pi asks.
    const { payment: pending } = created.body as { payment: { identifier: string } };
    const settled = await w.call('owner', 'POST', '/pi/payments/incomplete', {
      paymentId: pending.identifier,
    });
    expect(settled.statusCode, settled.body).toBe(204);
    created = create();
  }
  expect(created.status).toBe(200);
  return { paymentId: (created.body as { identifier: string }).identifier };
}
/**
 * The owner's wallet with the payment password 123456 (made on first use), and a wallet
 * of the caller's own, without a password.
 */
async function ownersPaymentPassword(w: Cast, as: Caller): Promise<void> {
  await fresh(w, 'owner');
  await w.call('owner', 'POST', '/wallet');
  const set = await w.call('owner', 'PUT', '/wallet/password', { password: '123456' });
  expect([200, 409]).toContain(set.statusCode);
  if (as !== 'anonymous') await w.call(as, 'POST', '/wallet');
}
/** A payment password route: the caller's own password is checked, never the owner's. */
const NO_PASSWORD_OF_THEIR_OWN: Cells = {
  owner: OK,
  admin: 'PAYMENT_PASSWORD_NOT_SET',
  member: 'PAYMENT_PASSWORD_NOT_SET',
  blocked: 'PAYMENT_PASSWORD_NOT_SET',
  removed: 'PAYMENT_PASSWORD_NOT_SET',
  stranger: 'PAYMENT_PASSWORD_NOT_SET',
};

/** A registration ticket for a phone number nobody has. */
async function phoneTicket(w: Cast): Promise<string> {
  const destination = uniquePhone();
  const body = { purpose: 'register', channel: 'phone', destination };
  expect((await w.call('anonymous', 'POST', '/auth/codes', body)).statusCode).toBe(200);
  const code = w.t.codeFor(destination, 'register');
  const verified = await w.call('anonymous', 'POST', '/auth/codes/verify', { ...body, code });
  expect(verified.statusCode, verified.body).toBe(200);
  return verified.json<{ ticket: string }>().ticket;
}

/** A file (or a photo) the member sent into the group chat; its media id. */
async function groupMedia(w: Cast, kind: 'file' | 'image' = 'file'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'teltlk-media-'));
  try {
    const name = kind === 'file' ? 'notes.txt' : 'dot.png';
    const path = join(dir, name);
    await writeFile(
      path,
      kind === 'file' ? 'Notes of the meeting' : Buffer.from(PNG_DOT, 'base64'),
    );
    const media = await w.t.ctx.services.media.store(w.users.member.user.id, {
      id: newId(),
      kind,
      name,
      path,
    });
    const sent = await w.call('member', 'POST', '/messages', {
      conversationId: groupChat(w),
      clientMsgId: clientMsgId(),
      content: media,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    return mediaIdOf(media)!;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A one-pixel PNG. */
const PNG_DOT =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const base64 = (text: string) => Buffer.from(text).toString('base64');
/** A tus creation of a 5-byte file. */
const newUploadHeaders = {
  'upload-length': '5',
  'upload-metadata': `kind ${base64('file')},name ${base64('a.txt')}`,
};

/**
 * A tus request (the protocol's own header, the caller's token), over a real connection:
 * the protocol's handlers write to the socket's response as a server does.
 */
async function tus(
  w: Cast,
  as: Caller,
  method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE',
  path: string,
  headers: Record<string, string> = {},
  payload?: string,
): Promise<LightMyRequestResponse> {
  const token = as === 'anonymous' ? undefined : w.users[as].token;
  const { port } = w.t.app.server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method,
    headers: {
      'tus-resumable': '1.0.0',
      ...headers,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(payload === undefined ? {} : { body: payload }),
  });
  let body = await response.text();
  // A HEAD answer has no body: its status stands for the code, the only one it can be.
  const headCodes: Record<number, ErrorCode> = { 401: 'UNAUTHENTICATED', 404: 'NOT_FOUND' };
  const headCode = method === 'HEAD' ? headCodes[response.status] : undefined;
  if (headCode) body = JSON.stringify({ error: { code: headCode, message: '' } });
  const answered: Record<string, string> = {};
  response.headers.forEach((value, name) => (answered[name] = value));
  // The few fields of an injected response the matrix reads.
  return {
    statusCode: response.status,
    body,
    headers: answered,
    json: () => JSON.parse(body) as unknown,
  } as unknown as LightMyRequestResponse;
}

/** A new, unfinished upload of the owner's; its id. */
async function ownersUpload(w: Cast): Promise<string> {
  const created = await tus(w, 'owner', 'POST', '/uploads', newUploadHeaders);
  expect(created.statusCode, created.body).toBe(201);
  return String(created.headers.location).split('/').pop()!;
}
/** The one-to-one chat an actor acts on. */
const chatOf = (w: Cast, as: Caller) => (as === 'blocked' ? w.blockedChat : w.single);

/**
 * A new text in a conversation from someone other than the actor in it: the member in the
 * group and the owner's chat with the member (the owner when the member acts), the owner
 * in the blocked user's chat. Rows that need a seq take a new message so that clearing
 * history, in an earlier row, does not hide it.
 */
function newMessage(w: Cast, conversationId: string, as: Caller): Promise<Message> {
  const { owner, member } = w.users;
  const from = conversationId === w.blockedChat || as === 'member' ? owner : member;
  return w.send(from, conversationId, 'Good morning, everyone');
}
/** A new text of the member's (of the owner's, in the blocked user's chat). */
function membersMessage(w: Cast, conversationId: string): Promise<Message> {
  const { owner, member } = w.users;
  return w.send(conversationId === w.blockedChat ? owner : member, conversationId, 'Oops');
}

/** Rows for a conversation route, once on the group's and once on a one-to-one chat. */
function inBothChats(
  route: string,
  cells: { group: Cells; single: Cells },
  run: (w: Cast, as: Caller, conversationId: string) => Promise<LightMyRequestResponse>,
): Row[] {
  return [
    { route, on: 'group', cells: cells.group, run: (w, as) => run(w, as, groupChat(w)) },
    { route, on: 'one-to-one', cells: cells.single, run: (w, as) => run(w, as, chatOf(w, as)) },
  ];
}

async function mentionSeq(w: Cast, user: Actor, conversationId: string): Promise<number> {
  const row = await w.t.ctx.db
    .selectFrom('conversation_members')
    .select('mention_seq')
    .where('conversation_id', '=', conversationId)
    .where('user_id', '=', w.users[user].user.id)
    .executeTakeFirstOrThrow();
  return Number(row.mention_seq);
}

// ---------------------------------------------------------------------------- calls
// Calls' routes and frames, a block of their own (the frame attempts are made below by
// callAttempts, inside the socket frames' describe).

const NO_CALL = 'CALL_NOT_FOUND' satisfies ErrorCode;
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

const CALL_ROWS: Row[] = [
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
function unauthenticatedCall(frame: CallFrameType, conversationId: string): ClientFrame {
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

type CallFrameType = Extract<ClientFrame['t'], `call${string}`>;

const CALL_FRAME_ROWS: FrameRow[] = [
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
function callAttempts(
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

const ROWS: Row[] = [
  // ------------------------------------------------------------------ sessions
  {
    route: 'POST /api/v1/auth/logout',
    cells: SIGNED_IN,
    // A session of its own, so that the actor's token lives on for the other rows.
    run: async (w, as) => {
      const session =
        as === 'anonymous'
          ? undefined
          : await w.t.ctx.services.sessions.create(
              w.users[as].user.id,
              {
                ip: null,
                userAgent: null,
              },
              'password',
            );
      return w.t.call('POST', '/api/v1/auth/logout', { token: session?.token });
    },
  },
  {
    route: 'GET /api/v1/sessions',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/sessions'),
  },
  {
    route: 'DELETE /api/v1/sessions/:id',
    on: "a session of the owner's",
    cells: OWNER_ONLY_THING,
    run: async (w, as) => {
      const session = await w.t.ctx.services.sessions.create(
        w.users.owner.user.id,
        {
          ip: null,
          userAgent: null,
        },
        'password',
      );
      return w.call(as, 'DELETE', `/sessions/${session.id}`);
    },
  },

  // ------------------------------------------------------------------ step-up and activity
  {
    route: 'GET /api/v1/security/step-up',
    on: "the caller's own session",
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/security/step-up'),
  },
  {
    route: 'POST /api/v1/security/step-up/code',
    on: "the caller's own email",
    cells: SIGNED_IN,
    run: (w, as) => {
      // Resent within the minute it is CODE_TOO_FREQUENT: a new minute for each actor.
      w.t.clock.advance(61_000);
      return w.call(as, 'POST', '/security/step-up/code', { channel: 'email' });
    },
  },
  {
    route: 'POST /api/v1/security/step-up',
    on: "the caller's own password",
    cells: SIGNED_IN,
    run: (w, as) =>
      w.call(as, 'POST', '/security/step-up', { method: 'password', password: PASSWORD }),
  },
  {
    route: 'GET /api/v1/security/activity',
    on: "the caller's own account",
    cells: SIGNED_IN,
    async check(w, as, response) {
      // Only the caller's own entries: a sign-in of their own session is there.
      const items = response.json<{ items: { sessionId: string | null }[] }>().items;
      const own = await w.t.ctx.services.sessions.authenticate(w.users[as].token);
      expect(items.map((item) => item.sessionId)).toContain(own.sessionId);
      const mine = await w.t.ctx.db
        .selectFrom('security_events')
        .select('session_id')
        .where('user_id', '=', w.users[as].user.id)
        .execute();
      for (const item of items) {
        expect(mine.map((row) => row.session_id)).toContain(item.sessionId);
      }
    },
    run: (w, as) => w.call(as, 'GET', '/security/activity'),
  },

  // ------------------------------------------------------------------ own account
  { route: 'GET /api/v1/me', cells: SIGNED_IN, run: (w, as) => w.call(as, 'GET', '/me') },
  {
    route: 'PATCH /api/v1/me',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'PATCH', '/me', { country: 'CN' }),
  },
  {
    route: 'PUT /api/v1/me/teltlk-id',
    cells: SIGNED_IN,
    // The same ID again: the row asks who may call, and IDs change once a month.
    run: (w, as) =>
      w.call(as, 'PUT', '/me/teltlk-id', {
        teltlkId: w.users[as === 'anonymous' ? 'owner' : as].user.teltlkId,
      }),
  },
  {
    route: 'PUT /api/v1/me/password',
    cells: SIGNED_IN,
    run: (w, as) =>
      w.call(as, 'PUT', '/me/password', {
        currentPassword: w.users[as === 'anonymous' ? 'owner' : as].password,
        newPassword: w.users[as === 'anonymous' ? 'owner' : as].password,
      }),
  },
  {
    route: 'GET /api/v1/me/settings',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/me/settings'),
  },
  {
    route: 'PATCH /api/v1/me/settings',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'PATCH', '/me/settings', { notifications: true }),
  },
  {
    route: 'POST /api/v1/me/avatar',
    cells: SIGNED_IN,
    run: (w, as) => w.upload(as, '/me/avatar'),
  },
  {
    route: 'GET /api/v1/sync/events',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/sync/events?after=0'),
  },
  {
    route: 'GET /api/v1/sync/conversations',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/sync/conversations?since=0'),
  },

  // ------------------------------------------------------------------ people
  {
    route: 'GET /api/v1/users/search',
    on: 'the owner',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', `/users/search?q=${w.users.owner.user.teltlkId}`),
  },
  {
    route: 'GET /api/v1/users/:id',
    on: 'the owner',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', `/users/${w.users.owner.user.id}`),
  },
  {
    route: 'GET /api/v1/friend-requests',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/friend-requests'),
  },
  {
    route: 'POST /api/v1/friend-requests',
    on: 'to the owner',
    cells: {
      owner: 'CANNOT_ADD_SELF',
      admin: 'ALREADY_FRIENDS',
      member: 'ALREADY_FRIENDS',
      blocked: 'ALREADY_FRIENDS',
      removed: 'ALREADY_FRIENDS',
      // Renews the stranger's pending request.
      stranger: OK,
    },
    run: (w, as) =>
      w.call(as, 'POST', '/friend-requests', { userId: w.users.owner.user.id, greeting: 'Hi' }),
  },
  ...(['accept', 'reject'] as const).map((action): Row => ({
    route: `POST /api/v1/friend-requests/:id/${action}`,
    on: 'a request to the owner',
    // Only its recipient handles a request; to anyone else, its sender too, it does not exist.
    cells: {
      owner: OK,
      admin: 'NOT_FOUND',
      member: 'NOT_FOUND',
      blocked: 'NOT_FOUND',
      removed: 'NOT_FOUND',
      stranger: 'NOT_FOUND',
    },
    // The stranger tries their own; everyone else one from a newcomer, which the owner may take.
    run: async (w, as) => {
      const id =
        as === 'stranger' || as === 'anonymous'
          ? w.friendRequest.id
          : (
              await w.t.ctx.services.contacts.sendRequest(authOf(await w.newUser()), {
                userId: w.users.owner.user.id,
              })
            ).id;
      return w.call(as, 'POST', `/friend-requests/${id}/${action}`);
    },
  })),
  { route: 'GET /api/v1/friends', cells: SIGNED_IN, run: (w, as) => w.call(as, 'GET', '/friends') },
  {
    route: 'PATCH /api/v1/friends/:id',
    on: 'the owner',
    cells: { ...SIGNED_IN, owner: 'NOT_FOUND', stranger: 'NOT_FOUND' },
    run: (w, as) =>
      w.call(as, 'PATCH', `/friends/${w.users.owner.user.id}`, { remark: 'The boss' }),
  },
  {
    route: 'DELETE /api/v1/friends/:id',
    on: 'the owner',
    // Ending a friendship that does not exist changes nothing.
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'DELETE', `/friends/${w.users.owner.user.id}`),
    restore: async (w, as) => {
      if (as !== 'owner' && as !== 'stranger') await befriend(w.t, w.users.owner, w.users[as]);
    },
  },
  { route: 'GET /api/v1/blocks', cells: SIGNED_IN, run: (w, as) => w.call(as, 'GET', '/blocks') },
  {
    route: 'PUT /api/v1/blocks/:id',
    on: 'the owner',
    cells: { ...SIGNED_IN, owner: 'VALIDATION_FAILED' },
    run: (w, as) => w.call(as, 'PUT', `/blocks/${w.users.owner.user.id}`),
    restore: async (w, as) => {
      await w.t.ctx.services.contacts.unblock(authOf(w.users[as]), w.users.owner.user.id);
    },
  },
  {
    route: 'DELETE /api/v1/blocks/:id',
    on: 'the owner',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'DELETE', `/blocks/${w.users.owner.user.id}`),
    // Unblocking lifts only the caller's own block: the owner's block holds.
    check: async (w) => {
      const { blocked } = await w.t.ctx.services.contacts.blocks(authOf(w.users.owner));
      expect(blocked.map((user) => user.id)).toContain(w.users.blocked.user.id);
    },
  },
  {
    route: 'GET /api/v1/official-accounts',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/official-accounts'),
  },

  // ------------------------------------------------------------------ conversations
  ...inBothChats(
    'GET /api/v1/conversations/:id/messages',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    (w, as, id) => w.call(as, 'GET', `/conversations/${id}/messages`),
  ),
  ...inBothChats(
    'POST /api/v1/messages',
    { group: GROUP_CHAT, single: { ...SINGLE_CHAT, blocked: 'MESSAGE_REFUSED' } },
    (w, as, conversationId) =>
      w.call(as, 'POST', '/messages', {
        conversationId,
        clientMsgId: clientMsgId(),
        content: { kind: 'text', text: 'Hello there' },
      }),
  ),
  {
    route: 'POST /api/v1/messages',
    on: 'a one-to-one chat with the owner',
    cells: {
      // A chat with yourself is no chat.
      owner: NO_CHAT,
      admin: OK,
      member: OK,
      blocked: 'MESSAGE_REFUSED',
      removed: OK,
      stranger: 'NOT_FRIENDS',
    },
    run: (w, as) =>
      w.call(as, 'POST', '/messages', {
        conversationId: singleConversationId(
          w.users.owner.user.id,
          w.users[as === 'anonymous' ? 'member' : as].user.id,
        ),
        clientMsgId: clientMsgId(),
        content: { kind: 'text', text: 'Hello Olivia' },
      }),
  },
  {
    route: 'POST /api/v1/messages',
    on: 'one-to-one, its two ids the other way round',
    // A pair has one chat, its ids sorted: the other order names none, rather than a second one.
    cells: { ...SINGLE_CHAT, owner: NO_CHAT, member: NO_CHAT, blocked: NO_CHAT },
    run: (w, as) => {
      const [first, second] = singleMembersOf(chatOf(w, as))!;
      return w.call(as, 'POST', '/messages', {
        conversationId: `si_${second}_${first}`,
        clientMsgId: clientMsgId(),
        content: { kind: 'text', text: 'Hello again' },
      });
    },
  },
  {
    route: 'POST /api/v1/messages',
    on: 'group, mentioning the owner',
    cells: {
      ...GROUP_CHAT,
      // The message goes; the mention of the blocker is dropped (the group tests check that).
      blocked: OK,
    },
    run: (w, as) =>
      w.call(as, 'POST', '/messages', {
        conversationId: groupChat(w),
        clientMsgId: clientMsgId(),
        content: { kind: 'text', text: '@Olivia look', mentions: [w.users.owner.user.id] },
      }),
    check: async (w, as, response) => {
      if (response.statusCode >= 300) return;
      const { seq } = response.json<Message>();
      const mentioned = (await mentionSeq(w, 'owner', groupChat(w))) === seq;
      // Mentioning yourself marks nothing; a blocked user's mention of the blocker is dropped.
      expect(mentioned).toBe(as !== 'owner' && as !== 'blocked');
    },
  },
  ...inBothChats(
    'PATCH /api/v1/conversations/:id',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    (w, as, id) => w.call(as, 'PATCH', `/conversations/${id}`, { pinned: true }),
  ),
  ...inBothChats(
    'POST /api/v1/conversations/:id/clear',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    (w, as, id) => w.call(as, 'POST', `/conversations/${id}/clear`),
  ),
  ...inBothChats(
    'PUT /api/v1/conversations/:id/burn',
    {
      // Burn after reading is for one-to-one chats.
      group: {
        ...GROUP_CHAT,
        owner: 'VALIDATION_FAILED',
        admin: 'VALIDATION_FAILED',
        member: 'VALIDATION_FAILED',
        blocked: 'VALIDATION_FAILED',
      },
      // Its notice reaches the other person: a blocked user may not send one.
      single: { ...SINGLE_CHAT, blocked: 'MESSAGE_REFUSED' },
    },
    (w, as, id) => w.call(as, 'PUT', `/conversations/${id}/burn`, { seconds: 0 }),
  ),
  ...inBothChats(
    'POST /api/v1/conversations/:id/read',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    async (w, as, id) =>
      w.call(as, 'POST', `/conversations/${id}/read`, {
        seq: (await newMessage(w, id, as)).seq,
      }),
  ),
  ...inBothChats(
    'POST /api/v1/conversations/:id/messages/:seq/revoke',
    {
      // Only the sender revokes, in a group as anywhere.
      group: {
        ...GROUP_CHAT,
        owner: 'REVOKE_NOT_ALLOWED',
        admin: 'REVOKE_NOT_ALLOWED',
        blocked: 'REVOKE_NOT_ALLOWED',
      },
      single: { ...SINGLE_CHAT, owner: 'REVOKE_NOT_ALLOWED', blocked: 'REVOKE_NOT_ALLOWED' },
    },
    async (w, as, id) => {
      const { seq } = await membersMessage(w, id);
      return w.call(as, 'POST', `/conversations/${id}/messages/${seq}/revoke`);
    },
  ),
  ...inBothChats(
    'POST /api/v1/conversations/:id/messages/:seq/edit',
    {
      // Only the sender edits, in a group as anywhere.
      group: {
        ...GROUP_CHAT,
        owner: 'EDIT_NOT_ALLOWED',
        admin: 'EDIT_NOT_ALLOWED',
        blocked: 'EDIT_NOT_ALLOWED',
      },
      single: { ...SINGLE_CHAT, owner: 'EDIT_NOT_ALLOWED', blocked: 'EDIT_NOT_ALLOWED' },
    },
    async (w, as, id) => {
      const { seq } = await membersMessage(w, id);
      return w.call(as, 'POST', `/conversations/${id}/messages/${seq}/edit`, { text: 'Edited' });
    },
  ),
  {
    route: 'GET /api/v1/messages/search',
    on: 'in all chats',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/messages/search?q=hello'),
  },
  ...inBothChats(
    'GET /api/v1/messages/search',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    (w, as, id) => w.call(as, 'GET', `/messages/search?q=hello&conversationId=${id}`),
  ),
  ...inBothChats(
    'POST /api/v1/conversations/:id/messages/:seq/hide',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    async (w, as, id) => {
      const { seq } = await membersMessage(w, id);
      return w.call(as, 'POST', `/conversations/${id}/messages/${seq}/hide`);
    },
  ),

  // ------------------------------------------------------------------ translation
  {
    route: 'GET /api/v1/translations/info',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/translations/info'),
  },
  ...inBothChats(
    'POST /api/v1/translations',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    async (w, as, conversationId) =>
      w.call(as, 'POST', '/translations', {
        conversationId,
        seqs: [(await newMessage(w, conversationId, as)).seq],
      }),
  ),
  {
    route: 'POST /api/v1/translations/preview',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'POST', '/translations/preview', { text: 'Good night', to: 'fr' }),
  },

  // ------------------------------------------------------------------ groups
  {
    route: 'POST /api/v1/groups',
    on: 'with the owner',
    cells: {
      // With only yourself there is no group.
      owner: 'VALIDATION_FAILED',
      admin: OK,
      member: OK,
      blocked: 'GROUP_ADD_REFUSED',
      removed: OK,
      stranger: 'NOT_FRIENDS',
    },
    run: (w, as) => w.call(as, 'POST', '/groups', { memberIds: [w.users.owner.user.id] }),
  },
  { route: 'GET /api/v1/groups', cells: SIGNED_IN, run: (w, as) => w.call(as, 'GET', '/groups') },
  {
    route: 'GET /api/v1/groups/search',
    // What anyone may see of a group, by its number.
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', `/groups/search?no=${w.group.groupNo}`),
  },
  {
    route: 'GET /api/v1/groups/:id',
    cells: GROUP_MEMBERS,
    run: (w, as) => w.call(as, 'GET', `/groups/${w.group.id}`),
  },
  {
    route: 'PATCH /api/v1/groups/:id',
    cells: GROUP_STAFF,
    run: (w, as) => w.call(as, 'PATCH', `/groups/${w.group.id}`, { notice: 'Be kind' }),
  },
  {
    route: 'DELETE /api/v1/groups/:id',
    cells: GROUP_OWNER,
    run: async (w, as) => w.call(as, 'DELETE', `/groups/${(await w.freshGroup()).id}`),
  },
  {
    route: 'PATCH /api/v1/groups/:id/me',
    cells: GROUP_MEMBERS,
    run: (w, as) => w.call(as, 'PATCH', `/groups/${w.group.id}/me`, { remark: 'Work' }),
  },
  {
    route: 'POST /api/v1/groups/:id/members/:userId/friend-request',
    on: 'a plain member',
    // Private chat is on in the cast group: every member may ask another to be friends
    // (the owner already is the target's friend).
    cells: { ...GROUP_MEMBERS, owner: 'ALREADY_FRIENDS' },
    run: (w, as) =>
      w.call(as, 'POST', `/groups/${w.group.id}/members/${w.target.user.id}/friend-request`, {
        greeting: 'Hello from the group',
      }),
  },
  {
    route: 'GET /api/v1/groups/:id/members',
    cells: GROUP_MEMBERS,
    run: (w, as) => w.call(as, 'GET', `/groups/${w.group.id}/members`),
  },
  {
    route: 'POST /api/v1/groups/:id/members',
    on: 'a friend',
    cells: GROUP_MEMBERS,
    run: (w, as) =>
      w.call(as, 'POST', `/groups/${w.group.id}/members`, { userIds: [w.friend.user.id] }),
  },
  {
    route: 'POST /api/v1/groups/:id/members',
    on: "the owner, into the actor's own group",
    cells: {
      // Inviting yourself adds nobody.
      owner: OK,
      admin: OK,
      member: OK,
      blocked: 'GROUP_ADD_REFUSED',
      removed: OK,
      stranger: 'NOT_FRIENDS',
    },
    run: async (w, as) => {
      const creator = as === 'anonymous' ? 'owner' : as;
      const created = await w.call(creator, 'POST', '/groups', { memberIds: [w.friend.user.id] });
      expect(created.statusCode, created.body).toBe(200);
      const { id } = created.json<{ id: string }>();
      return w.call(as, 'POST', `/groups/${id}/members`, { userIds: [w.users.owner.user.id] });
    },
  },
  {
    route: 'DELETE /api/v1/groups/:id/members/:userId',
    on: 'a member',
    cells: GROUP_STAFF,
    run: async (w, as) =>
      w.call(as, 'DELETE', `/groups/${(await w.freshGroup()).id}/members/${w.target.user.id}`),
  },
  {
    route: 'PUT /api/v1/groups/:id/members/:userId/role',
    on: 'a member',
    cells: GROUP_OWNER,
    run: async (w, as) =>
      w.call(as, 'PUT', `/groups/${(await w.freshGroup()).id}/members/${w.target.user.id}/role`, {
        role: 'admin',
      }),
  },
  {
    route: 'PUT /api/v1/groups/:id/members/:userId/mute',
    on: 'a member',
    cells: GROUP_STAFF,
    run: async (w, as) =>
      w.call(as, 'PUT', `/groups/${(await w.freshGroup()).id}/members/${w.target.user.id}/mute`, {
        seconds: 600,
      }),
  },
  {
    route: 'POST /api/v1/groups/:id/transfer',
    on: 'to a member',
    cells: GROUP_OWNER,
    run: async (w, as) =>
      w.call(as, 'POST', `/groups/${(await w.freshGroup()).id}/transfer`, {
        userId: w.target.user.id,
      }),
  },
  {
    route: 'POST /api/v1/groups/:id/quit',
    cells: { ...GROUP_MEMBERS, owner: 'OWNER_CANNOT_QUIT' },
    run: async (w, as) => w.call(as, 'POST', `/groups/${(await w.freshGroup()).id}/quit`),
  },
  {
    route: 'POST /api/v1/groups/:id/join',
    cells: {
      owner: 'ALREADY_IN_GROUP',
      admin: 'ALREADY_IN_GROUP',
      member: 'ALREADY_IN_GROUP',
      blocked: 'ALREADY_IN_GROUP',
      // Outsiders apply (the group asks for approval); the stranger renews theirs.
      removed: OK,
      stranger: OK,
    },
    run: (w, as) => w.call(as, 'POST', `/groups/${w.group.id}/join`, { message: 'Hello' }),
  },
  {
    route: 'GET /api/v1/groups/:id/messages/:seq/reads',
    on: "a message of the member's",
    // Its sender, and the owner and admins.
    cells: { ...GROUP_MEMBERS, blocked: STAFF_ONLY },
    run: async (w, as) => {
      const { seq } = await membersMessage(w, groupChat(w));
      return w.call(as, 'GET', `/groups/${w.group.id}/messages/${seq}/reads`);
    },
  },
  {
    route: 'GET /api/v1/group-applications',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/group-applications'),
  },
  ...(['accept', 'reject'] as const).map((action): Row => ({
    route: `POST /api/v1/group-applications/:id/${action}`,
    on: 'an application to the group',
    // The applicant (the stranger) cannot handle their own.
    cells: GROUP_STAFF,
    // The stranger tries their own; everyone else a newcomer's, which staff may take in.
    run: async (w, as) => {
      const id =
        as === 'stranger' || as === 'anonymous' ? w.applicationId : await w.freshApplication();
      return w.call(as, 'POST', `/group-applications/${id}/${action}`);
    },
  })),
  {
    route: 'POST /api/v1/groups/:id/avatar',
    cells: GROUP_STAFF,
    run: (w, as) => w.upload(as, `/groups/${w.group.id}/avatar`),
  },
  {
    route: 'GET /api/v1/media/limits',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/media/limits'),
  },
  {
    route: 'GET /api/v1/media/:id',
    on: "a file of the member's in the group chat",
    cells: GROUP_MEDIA,
    run: async (w, as) => w.call(as, 'GET', `/media/${await groupMedia(w)}`),
  },
  {
    route: 'POST /api/v1/media/urls',
    on: "a file of the member's in the group chat",
    // Always answered; media the caller may not see is left out of the answer.
    cells: SIGNED_IN,
    run: async (w, as) => w.call(as, 'POST', '/media/urls', { ids: [await groupMedia(w)] }),
    check: (_w, as, response) => {
      const { urls } = response.json<MediaUrlsResult>();
      expect(urls.length).toBe(GROUP_MEDIA[as] === OK ? 1 : 0);
      return Promise.resolve();
    },
  },
  {
    route: 'GET /api/v1/faces/favourites',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/faces/favourites'),
  },
  {
    route: 'POST /api/v1/faces/favourites',
    on: "a photo of the member's in the group chat",
    cells: GROUP_MEDIA,
    run: async (w, as) =>
      w.call(as, 'POST', '/faces/favourites', { mediaId: await groupMedia(w, 'image') }),
  },
  {
    route: 'DELETE /api/v1/faces/favourites/:mediaId',
    on: "the owner's favourite",
    // Nobody else has it among theirs.
    cells: {
      ...OWNER_ONLY_THING,
      admin: 'MEDIA_NOT_FOUND',
      member: 'MEDIA_NOT_FOUND',
      blocked: 'MEDIA_NOT_FOUND',
      removed: 'MEDIA_NOT_FOUND',
      stranger: 'MEDIA_NOT_FOUND',
    },
    run: async (w, as) => {
      const mediaId = await groupMedia(w, 'image');
      const kept = await w.call('owner', 'POST', '/faces/favourites', { mediaId });
      expect(kept.statusCode, kept.body).toBe(200);
      return w.call(as, 'DELETE', `/faces/favourites/${mediaId}`);
    },
  },
  // ------------------------------------------------------------------ wallet
  { route: 'GET /api/v1/wallet', cells: SIGNED_IN, run: (w, as) => w.call(as, 'GET', '/wallet') },
  { route: 'POST /api/v1/wallet', cells: SIGNED_IN, run: (w, as) => w.call(as, 'POST', '/wallet') },
  {
    route: 'PUT /api/v1/wallet/password',
    on: "a new wallet of the caller's own",
    // Each caller's own wallet; a first password once, so each run starts a fresh person.
    cells: SIGNED_IN,
    run: async (w, as) => {
      const caller = as === 'anonymous' ? as : await w.newUser();
      if (caller !== 'anonymous') await w.call(caller, 'POST', '/wallet');
      return w.call(caller, 'PUT', '/wallet/password', { password: '123456' });
    },
  },
  {
    route: 'POST /api/v1/wallet/password/change',
    on: "the owner's payment password",
    // Everyone else has a wallet of their own but no password in it: the owner's is no key.
    cells: NO_PASSWORD_OF_THEIR_OWN,
    run: async (w, as) => {
      await ownersPaymentPassword(w, as);
      return w.call(as, 'POST', '/wallet/password/change', {
        currentPassword: '123456',
        password: '123456',
      });
    },
  },
  {
    route: 'POST /api/v1/wallet/password/verify',
    on: "the owner's payment password",
    cells: NO_PASSWORD_OF_THEIR_OWN,
    run: async (w, as) => {
      await ownersPaymentPassword(w, as);
      return w.call(as, 'POST', '/wallet/password/verify', { password: '123456' });
    },
  },
  {
    route: 'POST /api/v1/wallet/password/code',
    on: "the caller's own wallet and address",
    // Everyone else has a wallet of their own: the code goes to their own address.
    cells: SIGNED_IN,
    run: async (w, as) => {
      await ownersPaymentPassword(w, as);
      if (as !== 'anonymous') w.t.clock.advance(61_000);
      const channel = as === 'anonymous' ? 'email' : w.users[as].channel;
      return w.call(as, 'POST', '/wallet/password/code', { channel });
    },
  },
  {
    route: 'POST /api/v1/wallet/password/reset',
    on: "a code sent for the owner's wallet",
    // The code is for the owner's address: anyone else's own address has only the code
    // sent to it by the row before, long expired.
    cells: {
      owner: OK,
      admin: 'CODE_EXPIRED',
      member: 'CODE_EXPIRED',
      blocked: 'CODE_EXPIRED',
      removed: 'CODE_EXPIRED',
      stranger: 'CODE_EXPIRED',
    },
    run: async (w, as) => {
      await ownersPaymentPassword(w, as);
      w.t.clock.advance(6 * 60_000);
      const { channel, destination } = w.users.owner;
      const sent = await w.call('owner', 'POST', '/wallet/password/code', { channel });
      expect(sent.statusCode, sent.body).toBe(200);
      const code = w.t.codeFor(destination, 'wallet');
      const callerChannel = as === 'anonymous' ? channel : w.users[as].channel;
      return w.call(as, 'POST', '/wallet/password/reset', {
        channel: callerChannel,
        code,
        password: '123456',
      });
    },
  },
  // ------------------------------------------------------------------ Pi identity
  {
    route: 'POST /api/v1/me/pi',
    on: 'a Pi account nobody has bound',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'POST', '/me/pi', { accessToken: newPiAccount().accessToken }),
    restore: async (w, as) => {
      expect((await w.call(as, 'DELETE', '/me/pi')).statusCode).toBe(200);
    },
  },
  {
    route: 'DELETE /api/v1/me/pi',
    on: "the owner's Pi binding",
    // Everyone else has no binding of their own to remove.
    cells: OWNER_ONLY_THING,
    run: async (w, as) => {
      await bindOwnersPi(w);
      return w.call(as, 'DELETE', '/me/pi');
    },
  },
  {
    route: 'POST /api/v1/me/phone',
    on: 'a phone number just verified',
    cells: SIGNED_IN,
    run: async (w, as) => w.call(as, 'POST', '/me/phone', { ticket: await phoneTicket(w) }),
  },
  {
    route: 'POST /api/v1/pi/payments/incomplete',
    on: "an unfinished payment of the owner's Pi account",
    // Only a Pi account's own payments are taken, and only from someone bound to Pi.
    cells: {
      owner: OK,
      admin: 'PI_ONLY',
      member: 'PI_ONLY',
      blocked: 'PI_ONLY',
      removed: 'PI_ONLY',
      stranger: 'PI_ONLY',
    },
    run: async (w, as) => {
      const pi = await bindOwnersPi(w);
      const created = piSandbox.emulator.handle(
        'POST',
        '/v2/payments/user_to_app',
        `Bearer ${pi.accessToken}`,
        { payment: { amount: 1, memo: 'Recharge', metadata: {} } },
      ).body as { identifier: string };
      return w.call(as, 'POST', '/pi/payments/incomplete', { paymentId: created.identifier });
    },
  },
  // ------------------------------------------------------------------ money in chats
  {
    route: 'POST /api/v1/wallet/transfers',
    on: "the owner's chat with the member",
    // Only the two people of a chat transfer in it; to anyone else it does not exist.
    cells: {
      owner: OK,
      admin: NO_CHAT,
      member: OK,
      blocked: NO_CHAT,
      removed: NO_CHAT,
      stranger: NO_CHAT,
    },
    run: async (w, as) => {
      await moneyReady(w, as);
      return w.call(as, 'POST', '/wallet/transfers', {
        conversationId: w.single,
        clientMsgId: clientMsgId(),
        amount: '0.01',
        password: '123456',
      });
    },
  },
  {
    route: 'POST /api/v1/wallet/envelopes',
    on: "the owner's group",
    // A group nobody outside it may write to: to them the chat does not exist.
    cells: { ...GROUP_MEMBERS, removed: NO_CHAT, stranger: NO_CHAT },
    run: async (w, as) => {
      await moneyReady(w, as);
      return w.call(as, 'POST', '/wallet/envelopes', {
        conversationId: groupConversationId(w.group.id),
        clientMsgId: clientMsgId(),
        total: '0.01',
        count: 1,
        split: 'equal',
        password: '123456',
      });
    },
  },
  {
    route: 'GET /api/v1/wallet/envelopes/:id',
    on: "a red envelope in the owner's group",
    cells: { ...GROUP_MEMBERS, removed: 'NOT_FOUND', stranger: 'NOT_FOUND' },
    run: async (w, as) => w.call(as, 'GET', `/wallet/envelopes/${await ownersEnvelope(w)}`),
  },
  {
    route: 'POST /api/v1/wallet/envelopes/:id/open',
    on: "a red envelope of one share in the owner's group",
    cells: { ...GROUP_MEMBERS, removed: 'NOT_FOUND', stranger: 'NOT_FOUND' },
    run: async (w, as) => w.call(as, 'POST', `/wallet/envelopes/${await ownersEnvelope(w)}/open`),
  },
  // ------------------------------------------------------------------ NFT assets
  {
    route: 'GET /api/v1/wallet/nfts',
    on: "the caller's own items",
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/wallet/nfts'),
  },
  {
    route: 'GET /api/v1/wallet/nfts/:id',
    on: 'an item the owner holds',
    cells: {
      owner: OK,
      admin: 'NFT_NOT_FOUND',
      member: 'NFT_NOT_FOUND',
      blocked: 'NFT_NOT_FOUND',
      removed: 'NFT_NOT_FOUND',
      stranger: 'NFT_NOT_FOUND',
    },
    run: async (w, as) => w.call(as, 'GET', `/wallet/nfts/${await nftOf(w, 'owner')}`),
  },
  {
    route: 'POST /api/v1/wallet/nfts/:id/send',
    on: "an item the caller holds, into the owner's chat with the member",
    // Only the two people of a chat give in it; to anyone else it does not exist.
    cells: {
      owner: OK,
      admin: NO_CHAT,
      member: OK,
      blocked: NO_CHAT,
      removed: NO_CHAT,
      stranger: NO_CHAT,
    },
    run: async (w, as) => {
      await moneyReady(w, as);
      return w.call(as, 'POST', `/wallet/nfts/${await nftOf(w, as)}/send`, {
        conversationId: w.single,
        clientMsgId: clientMsgId(),
        password: '123456',
      });
    },
  },
  {
    route: 'POST /api/v1/wallet/nfts/:id/send',
    on: "an item the owner holds, by someone else into the owner's chat with the member",
    cells: {
      owner: OK,
      admin: NO_CHAT,
      member: 'NFT_NOT_FOUND',
      blocked: NO_CHAT,
      removed: NO_CHAT,
      stranger: NO_CHAT,
    },
    run: async (w, as) => {
      await moneyReady(w, as);
      return w.call(as, 'POST', `/wallet/nfts/${await nftOf(w, 'owner')}/send`, {
        conversationId: w.single,
        clientMsgId: clientMsgId(),
        password: '123456',
      });
    },
  },
  // ------------------------------------------------------------------ growth
  {
    route: 'GET /api/v1/growth/mining',
    on: "the caller's own mining",
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/mining'),
  },
  {
    route: 'POST /api/v1/growth/mining/checkin',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'POST', '/growth/mining/checkin'),
  },
  {
    route: 'PUT /api/v1/growth/mining/reminders',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'PUT', '/growth/mining/reminders', { on: true }),
  },
  {
    route: 'POST /api/v1/growth/mining/ad',
    on: 'a rewarded ad watched to the end, in the session the check-in row started',
    cells: SIGNED_IN,
    run: (w, as) =>
      w.call(as, 'POST', '/growth/mining/ad', {
        adId: piSandbox.emulator.showAd('rewarded', true).adId,
      }),
  },
  {
    route: 'GET /api/v1/growth/coin',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/coin'),
  },
  {
    route: 'GET /api/v1/growth/coin/history',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/coin/history'),
  },
  {
    route: 'GET /api/v1/growth/team',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/team'),
  },
  {
    route: 'GET /api/v1/growth/team/members',
    on: 'the people the caller invited',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/team/members'),
  },
  {
    route: 'POST /api/v1/growth/team/members/:id/nudge',
    on: 'a new person the owner invited',
    // Only the inviter reminds; to anyone else the person is in no team of theirs.
    cells: {
      owner: OK,
      admin: 'TEAM_MEMBER_NOT_FOUND',
      member: 'TEAM_MEMBER_NOT_FOUND',
      blocked: 'TEAM_MEMBER_NOT_FOUND',
      removed: 'TEAM_MEMBER_NOT_FOUND',
      stranger: 'TEAM_MEMBER_NOT_FOUND',
    },
    run: async (w, as) => {
      const owner = await w.t.ctx.services.users.get(w.users.owner.user.id);
      const invitee = await w.t.register({ inviteCode: owner.invite_code });
      return w.call(as, 'POST', `/growth/team/members/${invitee.user.id}/nudge`);
    },
  },
  {
    route: 'GET /api/v1/growth/rankings/:board',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/rankings/points'),
  },
  // ------------------------------------------------------------------ device login
  // A ticket's id is its capability (it is on the asking browser's screen): anyone signed
  // in who has it may look at and decide on it; the session goes to the browser alone.
  {
    route: 'GET /api/v1/device-logins/:id',
    cells: SIGNED_IN,
    run: async (w, as) => {
      const ticket = await w.t.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
      return w.call(as, 'GET', `/device-logins/${ticket.id}`);
    },
  },
  {
    route: 'POST /api/v1/device-logins/lookup',
    cells: SIGNED_IN,
    run: async (w, as) => {
      const ticket = await w.t.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
      return w.call(as, 'POST', '/device-logins/lookup', { code: ticket.code });
    },
  },
  {
    route: 'POST /api/v1/device-logins/:id/decision',
    cells: SIGNED_IN,
    run: async (w, as) => {
      const ticket = await w.t.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
      return w.call(as, 'POST', `/device-logins/${ticket.id}/decision`, { approve: false });
    },
  },
  // ------------------------------------------------------------------ web push
  // Each acts on the caller's own device (session) alone.
  {
    route: 'GET /api/v1/push/key',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/push/key'),
  },
  {
    route: 'PUT /api/v1/push/subscription',
    on: "the caller's own device",
    cells: SIGNED_IN,
    run: (w, as) =>
      w.call(as, 'PUT', '/push/subscription', {
        endpoint: `https://fcm.googleapis.com/fcm/send/matrix-${as}`,
        keys: {
          p256dh:
            'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
        },
      }),
  },
  {
    route: 'DELETE /api/v1/push/subscription',
    on: "the caller's own device",
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'DELETE', '/push/subscription'),
  },
  {
    route: 'POST /api/v1/push/test',
    on: 'a device with no subscription',
    cells: {
      owner: 'PUSH_NOT_SUBSCRIBED',
      admin: 'PUSH_NOT_SUBSCRIBED',
      member: 'PUSH_NOT_SUBSCRIBED',
      blocked: 'PUSH_NOT_SUBSCRIBED',
      removed: 'PUSH_NOT_SUBSCRIBED',
      stranger: 'PUSH_NOT_SUBSCRIBED',
    },
    run: (w, as) => w.call(as, 'POST', '/push/test'),
  },
  // ------------------------------------------------------------------ Pi payments
  {
    route: 'GET /api/v1/wallet/rules',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/wallet/rules'),
  },
  {
    route: 'GET /api/v1/wallet/payments',
    on: "the caller's own payments",
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/wallet/payments?kind=recharge'),
  },
  {
    route: 'POST /api/v1/wallet/recharge',
    on: "the owner's wallet, bound to Pi",
    // An order is for the caller's own Pi account: no one else here has one.
    cells: PI_USERS_ONLY,
    run: async (w, as) => {
      await ownersPiWallet(w);
      return w.call(as, 'POST', '/wallet/recharge', { amount: '1' });
    },
  },
  {
    route: 'POST /api/v1/wallet/recharge/approve',
    on: "a payment of the owner's recharge order",
    cells: PI_USERS_ONLY,
    run: async (w, as) => {
      const { paymentId } = await ownersRechargePayment(w);
      return w.call(as, 'POST', '/wallet/recharge/approve', { paymentId });
    },
  },
  {
    route: 'POST /api/v1/wallet/recharge/complete',
    on: "the owner's approved and signed recharge",
    cells: PI_USERS_ONLY,
    run: async (w, as) => {
      const { paymentId } = await ownersRechargePayment(w);
      const approved = await w.call('owner', 'POST', '/wallet/recharge/approve', { paymentId });
      expect(approved.statusCode, approved.body).toBe(200);
      const signed = piSandbox.emulator.handle(
        'POST',
        `/sandbox/payments/${paymentId}/sign`,
        undefined,
        {},
      ).body as { transaction: { txid: string } };
      return w.call(as, 'POST', '/wallet/recharge/complete', {
        paymentId,
        txid: signed.transaction.txid,
      });
    },
  },
  {
    route: 'POST /api/v1/wallet/recharge/cancel',
    on: "a payment of the owner's recharge order",
    cells: PI_USERS_ONLY,
    run: async (w, as) => {
      const { paymentId } = await ownersRechargePayment(w);
      return w.call(as, 'POST', '/wallet/recharge/cancel', { paymentId });
    },
  },
  {
    route: 'POST /api/v1/wallet/withdraw',
    on: "the owner's recharged wallet and payment password",
    cells: PI_USERS_ONLY,
    run: async (w, as) => {
      await ownersPiWallet(w);
      const { paymentId } = await ownersRechargePayment(w, '2');
      await w.call('owner', 'POST', '/wallet/recharge/approve', { paymentId });
      const signed = piSandbox.emulator.handle(
        'POST',
        `/sandbox/payments/${paymentId}/sign`,
        undefined,
        {},
      ).body as { transaction: { txid: string } };
      const done = await w.call('owner', 'POST', '/wallet/recharge/complete', {
        paymentId,
        txid: signed.transaction.txid,
      });
      expect(done.statusCode, done.body).toBe(200);
      return w.call(as, 'POST', '/wallet/withdraw', { amount: '1', password: '123456' });
    },
  },
  {
    route: 'POST /api/v1/uploads',
    cells: SIGNED_IN,
    run: (w, as) => tus(w, as, 'POST', '/uploads', newUploadHeaders),
  },
  {
    route: 'HEAD /api/v1/uploads/:id',
    on: "the owner's upload",
    cells: OWNER_ONLY_THING,
    run: async (w, as) => tus(w, as, 'HEAD', `/uploads/${await ownersUpload(w)}`),
  },
  {
    route: 'PATCH /api/v1/uploads/:id',
    on: "the owner's upload",
    cells: OWNER_ONLY_THING,
    run: async (w, as) =>
      tus(
        w,
        as,
        'PATCH',
        `/uploads/${await ownersUpload(w)}`,
        { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        'hello',
      ),
  },
  {
    route: 'DELETE /api/v1/uploads/:id',
    on: "the owner's upload",
    cells: OWNER_ONLY_THING,
    run: async (w, as) => tus(w, as, 'DELETE', `/uploads/${await ownersUpload(w)}`),
  },
  ...CALL_ROWS,
];

/**
 * Routes anyone may call without a session, each with the reason. A trailing `*` covers a
 * path and everything under it.
 */
const PUBLIC: Record<string, string> = {
  'GET /healthz': 'health checks of load balancers and orchestrators',
  'POST /api/v1/auth/codes': 'signing up and in comes before there is a session',
  'POST /api/v1/auth/codes/verify': 'signing up comes before there is a session',
  'POST /api/v1/auth/register': 'signing up comes before there is a session',
  'POST /api/v1/auth/login': 'signing in comes before there is a session',
  'POST /api/v1/auth/login/code': 'signing in comes before there is a session',
  'POST /api/v1/auth/password/reset': 'a forgotten password is reset without a session',
  'GET /api/v1/meta/countries': 'the sign-up form lists countries',
  'GET /api/v1/meta/version':
    'an app that cannot sign in (too old, maintenance) must still learn why',
  'POST /api/v1/auth/device-logins':
    'a signed-out browser asks for a QR code to sign in with: it has no session yet',
  'GET /api/v1/pi/config': 'the sign-in page asks whether Pi is on before anyone signs in',
  'POST /api/v1/auth/pi': 'signing in with Pi comes before there is a session',
  'POST /api/v1/auth/pi/register': 'signing up through Pi comes before there is a session',
  'POST /api/v1/auth/pi/bind': 'binding a Pi account signs in: it comes before there is a session',
  'GET /api/v1/dev/outbox': 'the development outbox: absent in production, guarded on its own',
  'GET /dev/outbox': 'the development outbox page: absent in production, guarded on its own',
  'GET /ws': 'the socket authenticates by its first frame: see the frame matrix below',
  'GET /files/*':
    'stored files under random names: avatars, which people outside a group see too (group search, profiles)',
  'GET /api/v1/media/:id/:variant':
    'media bytes by a short-lived signed address (an <img> sends no token), signed only for those who may see it',
  'GET /openapi.json': 'the API description: routes and schemas, no data',
  'GET /docs*': 'the API description: routes and schemas, no data',
  'GET /': 'the web app',
  'GET /home*': 'the landing site: public pages and the app download links',
  'POST /home/cooperate': "the landing site's partnership form, for people without an account",
  'GET /api/v1/security/address-undo/:token':
    'the undo link a replaced address is sent: its owner may have no session (the link is the secret)',
  'POST /api/v1/security/address-undo':
    'the undo link a replaced address is sent: its owner may have no session (the link is the secret)',
};

const covers = (entry: string, route: string) =>
  entry.endsWith('*') ? route.startsWith(entry.slice(0, -1)) : route === entry;
/** A HEAD route of its own is public where its GET would be. */
const isPublic = (route: string) =>
  Object.keys(PUBLIC).some((entry) => covers(entry, route.replace(/^HEAD /, 'GET ')));

const rowName = (row: { route: string; on?: string }) =>
  row.on ? `${row.route} (${row.on})` : row.route;

/**
 * How a socket frame may come out: answered, refused with a code (an error frame), dropped
 * in silence, or (before the auth frame) the socket closed.
 */
type FrameWant = Want | 'dropped' | 'closed';
interface FrameRow {
  frame: ClientFrame['t'];
  on?: 'group' | 'one-to-one';
  cells: Cells<FrameWant>;
}

const FRAME_ROWS: FrameRow[] = [
  { frame: 'auth', cells: SIGNED_IN },
  // Waiting on a device-login ticket takes its secret, which only the browser that asked
  // holds: with someone else's ticket id and any other secret the socket is closed.
  {
    frame: 'ticket',
    cells: {
      owner: 'closed',
      admin: 'closed',
      member: 'closed',
      blocked: 'closed',
      removed: 'closed',
      stranger: 'closed',
    },
  },
  { frame: 'ping', cells: SIGNED_IN },
  { frame: 'send', on: 'group', cells: GROUP_CHAT },
  { frame: 'send', on: 'one-to-one', cells: { ...SINGLE_CHAT, blocked: 'MESSAGE_REFUSED' } },
  { frame: 'read', on: 'group', cells: GROUP_CHAT },
  { frame: 'read', on: 'one-to-one', cells: SINGLE_CHAT },
  // Typing hints are relayed in one-to-one chats only, and never to someone who blocked you.
  {
    frame: 'typing',
    on: 'group',
    cells: {
      owner: 'dropped',
      admin: 'dropped',
      member: 'dropped',
      blocked: 'dropped',
      removed: 'dropped',
      stranger: 'dropped',
    },
  },
  {
    frame: 'typing',
    on: 'one-to-one',
    cells: {
      owner: OK,
      admin: 'dropped',
      member: OK,
      blocked: 'dropped',
      removed: 'dropped',
      stranger: 'dropped',
    },
  },
  ...CALL_FRAME_ROWS,
];

/** Every cell of a table, with the anonymous caller's. */
function cases<R extends { cells: Cells<W> }, W>(rows: readonly R[], anonymous: W) {
  return rows.flatMap((row) =>
    [...ACTORS, 'anonymous' as const].map((as) => {
      const cell: Cell<W> = as === 'anonymous' ? anonymous : row.cells[as];
      const todo = typeof cell === 'object' && cell !== null && 'todo' in cell ? cell : null;
      return { row, as, want: todo ? todo.want : (cell as W), todo: todo?.todo ?? null };
    }),
  );
}

// ---------------------------------------------------------------------------- sensitive

/** How recently a session proved who it is. */
type Proven = 'fresh' | 'stale' | 'held';

/**
 * Puts a session in a step-up state: `fresh`, proven now; `stale`, proven longer ago than
 * the step-up window; `held`, a new device (device login) that has not stepped up.
 */
async function provenAs(w: Cast, user: RegisteredUser, state: Proven): Promise<void> {
  const { sessions, stepUp } = w.t.ctx.services;
  const auth = await sessions.authenticate(user.token);
  const now = w.t.clock.now();
  await w.t.ctx.db
    .updateTable('sessions')
    .set(
      state === 'held'
        ? { proven_at: null, proof: null, held_until: now + 60 * 60_000 }
        : { held_until: null, proven_at: now - (STEP_UP_WINDOW_SECONDS + 1) * 1000 },
    )
    .where('id', '=', auth.sessionId)
    .execute();
  if (state === 'fresh') await stepUp.proven(auth, 'password');
}

/**
 * The sensitive column: every route that does something that cannot be undone, as its
 * route declares it (`config.sensitive`), and what its call gets from a session that
 * proved who it is too long ago (`stale`) and from a new device on hold (`held`). A proof
 * carried by the request itself (a payment password, the current password, a code)
 * stands for a stale session, but only an account proof lifts a hold. A sensitive route
 * with no row here, or a row whose route is not declared so, fails the suite.
 */
interface SensitiveRow {
  route: string;
  on: string;
  level: Sensitivity;
  proof: RouteSensitivity['proof'];
  /** Who acts: the owner (who has an email, a phone, Pi and a wallet), or someone new. */
  as?: (w: Cast) => Promise<RegisteredUser>;
  /** Makes what the call acts on, before each try. */
  arrange?(w: Cast, user: RegisteredUser): Promise<void>;
  run(w: Cast, user: RegisteredUser): Promise<LightMyRequestResponse>;
  stale: Want;
  held: Want;
}

const STEP_UP = 'STEP_UP_REQUIRED' satisfies ErrorCode;
const owner = (w: Cast) => Promise.resolve(w.users.owner);
const NEW_ENDPOINT = () => `https://fcm.googleapis.com/fcm/send/sensitive-${newId()}`;
const PUSH_KEYS = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

const SENSITIVE: SensitiveRow[] = [
  {
    route: 'POST /api/v1/me/phone',
    on: "replacing the owner's phone (a first one needs nothing)",
    level: 'account',
    proof: 'conditional',
    run: async (w, user) => w.call(user, 'POST', '/me/phone', { ticket: await phoneTicket(w) }),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'PUT /api/v1/me/password',
    on: 'the current password in the request',
    level: 'account',
    proof: 'inline',
    run: (w, user) =>
      w.call(user, 'PUT', '/me/password', { currentPassword: PASSWORD, newPassword: PASSWORD }),
    stale: OK,
    held: OK,
  },
  {
    route: 'POST /api/v1/me/pi',
    on: 'binding a Pi account nobody has bound',
    level: 'account',
    proof: 'session',
    as: (w) => w.newUser(),
    run: (w, user) => w.call(user, 'POST', '/me/pi', { accessToken: newPiAccount().accessToken }),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'DELETE /api/v1/me/pi',
    on: "the owner's Pi binding",
    level: 'account',
    proof: 'session',
    arrange: async (w) => {
      await bindOwnersPi(w);
    },
    run: (w, user) => w.call(user, 'DELETE', '/me/pi'),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'PUT /api/v1/wallet/password',
    on: 'a first payment password',
    level: 'account',
    proof: 'session',
    as: async (w) => {
      const user = await w.newUser();
      await w.call(user, 'POST', '/wallet');
      return user;
    },
    run: (w, user) => w.call(user, 'PUT', '/wallet/password', { password: '123456' }),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'POST /api/v1/wallet/password/change',
    on: 'the current payment password in the request',
    level: 'money',
    proof: 'inline',
    arrange: async (w) => {
      await ownersPaymentPassword(w, 'owner');
    },
    run: (w, user) =>
      w.call(user, 'POST', '/wallet/password/change', {
        currentPassword: '123456',
        password: '123456',
      }),
    stale: OK,
    held: STEP_UP,
  },
  {
    route: 'POST /api/v1/wallet/password/reset',
    on: "a code to the owner's own address in the request",
    level: 'account',
    proof: 'inline',
    arrange: async (w) => {
      await ownersPaymentPassword(w, 'owner');
      // A new day: the matrix has sent the owner's address its day's codes already.
      w.t.clock.advance(DAY + 61_000);
    },
    run: async (w, user) => {
      const sent = await w.call(user, 'POST', '/wallet/password/code', { channel: user.channel });
      expect(sent.statusCode, sent.body).toBe(200);
      return w.call(user, 'POST', '/wallet/password/reset', {
        channel: user.channel,
        code: w.t.codeFor(user.destination, 'wallet'),
        password: '123456',
      });
    },
    stale: OK,
    held: OK,
  },
  {
    route: 'POST /api/v1/wallet/withdraw',
    on: 'the payment password in the request',
    level: 'money',
    proof: 'inline',
    arrange: async (w) => {
      await ownersPiWallet(w);
      await fundOwner(w, 30_000_000);
    },
    run: (w, user) => w.call(user, 'POST', '/wallet/withdraw', { amount: '1', password: '123456' }),
    stale: OK,
    held: STEP_UP,
  },
  {
    route: 'PUT /api/v1/push/subscription',
    on: 'a new subscription (renewing the same one needs nothing)',
    level: 'account',
    proof: 'conditional',
    run: (w, user) =>
      w.call(user, 'PUT', '/push/subscription', { endpoint: NEW_ENDPOINT(), keys: PUSH_KEYS }),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'DELETE /api/v1/push/subscription',
    on: "the device's subscription (none to drop needs nothing)",
    level: 'account',
    proof: 'conditional',
    arrange: async (w, user) => {
      await provenAs(w, user, 'fresh');
      const on = await w.call(user, 'PUT', '/push/subscription', {
        endpoint: NEW_ENDPOINT(),
        keys: PUSH_KEYS,
      });
      expect(on.statusCode, on.body).toBe(204);
    },
    run: (w, user) => w.call(user, 'DELETE', '/push/subscription'),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'DELETE /api/v1/sessions/:id',
    on: "another session of the owner's (this one's own is signing out)",
    level: 'account',
    proof: 'conditional',
    run: async (w, user) => {
      const other = await w.t.ctx.services.sessions.create(
        user.user.id,
        { ip: null, userAgent: null },
        'password',
      );
      return w.call(user, 'DELETE', `/sessions/${other.id}`);
    },
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'POST /api/v1/device-logins/:id/decision',
    on: 'approving, with the number and the password in the request',
    level: 'account',
    proof: 'inline',
    run: async (w, user) => {
      const ticket = await w.t.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
      return w.call(user, 'POST', `/device-logins/${ticket.id}/decision`, {
        approve: true,
        match: ticket.match,
        proof: { method: 'password', password: PASSWORD },
      });
    },
    stale: OK,
    held: STEP_UP,
  },
  {
    route: 'POST /api/v1/auth/pi/bind',
    on: 'signed out: the password in the request is the proof (held and stale do not apply)',
    level: 'account',
    proof: 'inline',
    run: async (w, user) => {
      const signedIn = await w.call('anonymous', 'POST', '/auth/pi', {
        accessToken: newPiAccount().accessToken,
      });
      const { ticket } = signedIn.json<{ ticket: string }>();
      return w.call('anonymous', 'POST', '/auth/pi/bind', {
        proof: 'password',
        ticket,
        account: user.destination,
        password: 'Wr0ngPassword',
      });
    },
    stale: 'PASSWORD_INCORRECT',
    held: 'PASSWORD_INCORRECT',
  },
];

/** Pi in the owner's available balance, as a recharge would bring it. */
async function fundOwner(w: Cast, units: number): Promise<void> {
  await w.t.ctx.db.transaction().execute((trx) =>
    w.t.ctx.services.ledger.post(trx, {
      key: `matrix-fund:${newId()}`,
      kind: 'recharge',
      entries: [
        { account: { app: 'outside', currency: 'PI' }, amount: -units },
        {
          account: { user: w.users.owner.user.id, purpose: 'available', currency: 'PI' },
          amount: units,
        },
      ],
    }),
  );
}

const is =
  <T extends ServerFrame['t']>(t: T) =>
  (frame: ServerFrame): frame is Extract<ServerFrame, { t: T }> =>
    frame.t === t;

describe.each(dialects)('permission matrix on $dialect', ({ dialect }) => {
  let t: TestApp;
  let w: Cast;
  /** `METHOD /url` of every route the app registered. */
  const routes = new Set<string>();
  /** Each sensitive route and what proves it (its `config.sensitive`). */
  const sensitiveRoutes = new Map<string, RouteSensitivity>();
  const heads = new Set<string>();

  beforeAll(async () => {
    const initialization = channel('fastify.initialization');
    const collect = (message: unknown) => {
      const { fastify } = message as { fastify: FastifyInstance };
      fastify.addHook('onRoute', (route: RouteOptions) => {
        const sensitive = route.config?.sensitive;
        for (const method of [route.method].flat()) {
          if (method === 'HEAD') heads.add(route.url);
          else routes.add(`${method} ${route.url}`);
          if (sensitive && method !== 'HEAD')
            sensitiveRoutes.set(`${method} ${route.url}`, sensitive);
        }
      });
    };
    initialization.subscribe(collect);
    const started = await startClockedSandbox();
    piSandbox = started.sandbox;
    try {
      t = await createTestApp({
        dialect,
        translationProviders: [new FakeProvider()],
        env: piEnv(piSandbox),
        // Group calls' rooms, so that who gets one is tried (Janus has a test of its own).
        sfu: new MemorySfu(),
      });
    } finally {
      initialization.unsubscribe(collect);
    }
    started.clock.use(t.clock);
    // A HEAD route runs its GET route's hooks and handler; one of its own needs a row.
    for (const url of heads) if (!routes.has(`GET ${url}`)) routes.add(`HEAD ${url}`);
    // Listening: uploads (tus) and sockets are tried over real connections.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    w = await createCast(t);
  });

  afterAll(async () => {
    await t.ctx.services.translations.drain();
    await t.close();
    await piSandbox.close();
  });

  it('has a row or a public entry for every route, and none for a route that is gone', () => {
    expect(routes.size).toBeGreaterThan(50);
    const rowRoutes = new Set(ROWS.map((row) => row.route));
    const uncovered = [...routes].filter((route) => !rowRoutes.has(route) && !isPublic(route));
    expect(uncovered, 'routes with no row in the permission matrix').toEqual([]);
    const stale = [...rowRoutes].filter((route) => !routes.has(route));
    expect(stale, 'rows for routes the app does not have').toEqual([]);
    const unused = Object.keys(PUBLIC).filter(
      (entry) => ![...routes].some((route) => covers(entry, route)),
    );
    expect(unused, 'public entries for routes the app does not have').toEqual([]);
    expect([...rowRoutes].filter(isPublic), 'rows for public routes').toEqual([]);
  });

  describe('routes', () => {
    for (const { row, as, want, todo } of cases<Row, Want>(ROWS, 'UNAUTHENTICATED')) {
      const test = todo ? it.skip : it;
      test(`${rowName(row)} as ${as}${todo ? ` (todo: ${todo})` : ''}`, async () => {
        try {
          if (sensitiveRoutes.has(row.route)) await fresh(w, as);
          const response = await row.run(w, as);
          if (want === OK) expect(response.statusCode, response.body).toBeLessThan(300);
          else expectError(response, want);
          if (as !== 'anonymous') await row.check?.(w, as, response);
        } finally {
          if (as !== 'anonymous' && want === OK) await row.restore?.(w, as);
        }
      });
    }
  });

  describe('sensitive', () => {
    it('has a row for every sensitive route, as each route declares it', () => {
      const declared = Object.fromEntries(sensitiveRoutes);
      const rows = Object.fromEntries(
        SENSITIVE.map((row) => [row.route, { level: row.level, proof: row.proof }]),
      );
      expect(rows).toEqual(declared);
    });

    for (const row of SENSITIVE) {
      for (const state of ['stale', 'held'] as const) {
        it(`${row.route} (${row.on}) from a ${state} session`, async () => {
          const user = await (row.as ?? owner)(w);
          await row.arrange?.(w, user);
          await provenAs(w, user, state);
          try {
            const response = await row.run(w, user);
            const want = row[state];
            if (want === OK) expect(response.statusCode, response.body).toBeLessThan(300);
            else {
              const error = expectError(response, want);
              if (want === STEP_UP) {
                expect(error.params).toEqual({ reason: state === 'held' ? 'hold' : 'stale' });
              }
            }
          } finally {
            await provenAs(w, user, 'fresh');
          }
        });
      }
    }
  });

  describe('socket frames', () => {
    const sockets = {} as Record<Actor, TestSocket>;
    const extra: TestSocket[] = [];
    let url: string;
    let typing: MockInstance;
    let barriers = 0;

    beforeAll(async () => {
      url = socketUrl(t.app.server.address());
      for (const as of ACTORS) sockets[as] = await TestSocket.connect(url, w.users[as].token);
      typing = vi.spyOn(t.ctx.services.messages, 'typing');
    });
    afterAll(async () => {
      typing.mockRestore();
      await Promise.all([...Object.values(sockets), ...extra].map((socket) => socket.close()));
    });

    async function open(): Promise<TestSocket> {
      const socket = await TestSocket.open(url);
      extra.push(socket);
      return socket;
    }

    /** The people of a conversation: who must get nothing of a refused frame. */
    function membersOf(conversationId: string): Actor[] {
      if (conversationId === w.single) return ['owner', 'member'];
      if (conversationId === w.blockedChat) return ['owner', 'blocked'];
      return ['owner', 'admin', 'member', 'blocked'];
    }

    /** The other person of a one-to-one chat the actor is in. */
    function peerOf(conversationId: string, as: Actor): Actor {
      return membersOf(conversationId).find((member) => member !== as)!;
    }

    /** How many frames each actor's socket has had so far. */
    function marks(): Map<Actor, number> {
      return new Map(ACTORS.map((actor) => [actor, sockets[actor].frames.length]));
    }

    /**
     * Resolves once every frame a socket sent before has been handled: a send is answered
     * in the order of the socket's queue, after the reads before it.
     */
    async function handled(socket: TestSocket): Promise<void> {
      barriers += 1;
      const answer = await socket.sendMessage(`sg_nowhere${barriers}`, 'barrier');
      expect(answer).toMatchObject({ code: NO_CHAT });
    }

    /**
     * The frames each member got from `since` up to a notice the owner then posts in the
     * conversation: pushes leave in order, so anything a refused frame caused comes first.
     */
    async function framesUntilMarker(
      conversationId: string,
      since: Map<Actor, number>,
    ): Promise<ServerFrame[]> {
      const notice = await w.send(w.users.owner, conversationId, 'marker');
      const frames: ServerFrame[] = [];
      for (const member of membersOf(conversationId)) {
        const socket = sockets[member];
        await socket.next((f) => f.t === 'message' && f.message.id === notice.id);
        frames.push(...socket.frames.slice(since.get(member)));
      }
      return frames;
    }

    it('has a row for every frame a client may send', () => {
      const frames = clientFrameSchema.options.map((option) => option.shape.t.value);
      expect(frames.filter((frame) => !FRAME_ROWS.some((row) => row.frame === frame))).toEqual([]);
    });

    /** A frame as the first of a socket with no auth frame before it. */
    function unauthenticated(frame: ClientFrame['t'], conversationId: string): ClientFrame {
      switch (frame) {
        case 'auth':
          return { t: 'auth', token: 'x'.repeat(43) };
        case 'ticket':
          return { t: 'ticket', id: 'x'.repeat(20), secret: 'x'.repeat(43) };
        case 'ping':
          return { t: 'ping' };
        case 'send':
          return {
            t: 'send',
            rid: 'r1',
            conversationId,
            clientMsgId: clientMsgId(),
            content: { kind: 'text', text: 'Hello' },
          };
        case 'read':
          return { t: 'read', conversationId, seq: 1 };
        case 'typing':
          return { t: 'typing', conversationId };
        default:
          return unauthenticatedCall(frame, conversationId);
      }
    }

    /** Each frame tried by an actor on a conversation, checked against what the cell wants. */
    const attempts: Record<
      ClientFrame['t'],
      (as: Actor, conversationId: string, want: FrameWant) => Promise<void>
    > = {
      async auth(as) {
        const socket = await open();
        socket.send({ t: 'auth', token: w.users[as].token });
        expect(await socket.next(is('hello'))).toMatchObject({ userId: w.users[as].user.id });
      },
      async ticket(as) {
        // Someone else's pending ticket, tried with a secret of the actor's own making.
        const ticket = await t.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
        const approved = await w.call(as, 'POST', `/device-logins/${ticket.id}/decision`, {
          approve: true,
          match: ticket.match,
          proof: { method: 'password', password: PASSWORD },
        });
        expect(approved.statusCode, approved.body).toBe(200);
        const socket = await open();
        socket.send({ t: 'ticket', id: ticket.id, secret: 'y'.repeat(43) });
        expect((await socket.closed).code).toBe(SOCKET_CLOSE.tokenInvalid);
        expect(socket.frames.filter((f) => f.t === 'signedIn')).toEqual([]);
        // The approval still waits for the browser that holds the secret.
        const claim = await t.ctx.services.deviceLogins.claim(ticket.id, ticket.secret);
        expect(claim.state).toBe('approved');
      },
      async ping(as) {
        sockets[as].send({ t: 'ping' });
        await sockets[as].next(is('pong'));
      },
      async send(as, conversationId, want) {
        const since = marks();
        const id = clientMsgId();
        const answer = await sockets[as].sendMessage(conversationId, 'Hello over the socket', id);
        const isIt = (f: ServerFrame) => f.t === 'message' && f.message.clientMsgId === id;
        if (want === OK) {
          expect(answer).toMatchObject({ clientMsgId: id, conversationId });
          for (const member of membersOf(conversationId)) await sockets[member].next(isIt);
          return;
        }
        expect(answer).toMatchObject({ code: want });
        expect((await framesUntilMarker(conversationId, since)).filter(isIt)).toEqual([]);
        const stored = await t.ctx.db
          .selectFrom('messages')
          .select('id')
          .where('sender_id', '=', w.users[as].user.id)
          .where('client_msg_id', '=', id)
          .execute();
        expect(stored).toEqual([]);
      },
      async read(as, conversationId, want) {
        const socket = sockets[as];
        const { seq } = await newMessage(w, conversationId, as);
        const since = marks();
        socket.send({ t: 'read', conversationId, seq });
        await handled(socket);
        const errors = socket.frames
          .slice(since.get(as))
          .filter((f) => f.t === 'error' && f.rid === null);
        const receipt = (f: ServerFrame): f is Extract<ServerFrame, { t: 'read' }> =>
          f.t === 'read' && f.userId === w.users[as].user.id;
        if (want === OK) {
          expect(errors).toEqual([]);
          // Read receipts go to the other person of a one-to-one chat, not to a group.
          if (conversationId !== groupChat(w)) {
            await sockets[peerOf(conversationId, as)].next((f) => receipt(f) && f.seq === seq);
          }
          return;
        }
        expect(errors).toMatchObject([{ error: { code: want } }]);
        expect((await framesUntilMarker(conversationId, since)).filter(receipt)).toEqual([]);
      },
      async typing(as, conversationId, want) {
        const since = marks();
        typing.mockClear();
        sockets[as].send({ t: 'typing', conversationId });
        // A ping is answered as it is read, so the typing hint before it is under way.
        sockets[as].send({ t: 'ping' });
        await sockets[as].next(is('pong'));
        await Promise.all(typing.mock.results.map((result) => result.value as Promise<void>));
        const relayed = (f: ServerFrame) =>
          f.t === 'typing' &&
          f.userId === w.users[as].user.id &&
          f.conversationId === conversationId;
        if (want === OK) {
          await sockets[peerOf(conversationId, as)].next(relayed);
          return;
        }
        expect((await framesUntilMarker(conversationId, since)).filter(relayed)).toEqual([]);
      },
      ...callAttempts(() => w, sockets, handled),
    };

    for (const { row, as, want, todo } of cases<FrameRow, FrameWant>(FRAME_ROWS, 'closed')) {
      const test = todo ? it.skip : it;
      const name = row.on ? `${row.frame} (${row.on}) as ${as}` : `${row.frame} as ${as}`;
      test(`${name}${todo ? ` (todo: ${todo})` : ''}`, async () => {
        const conversationId = row.on === 'group' ? groupChat(w) : chatOf(w, as);
        if (as === 'anonymous') {
          // Before its auth frame a socket may send nothing else; a bad token closes it.
          const socket = await open();
          socket.send(unauthenticated(row.frame, conversationId));
          expect((await socket.closed).code).toBe(
            row.frame === 'auth' || row.frame === 'ticket'
              ? SOCKET_CLOSE.tokenInvalid
              : SOCKET_CLOSE.protocol,
          );
          return;
        }
        await attempts[row.frame](as, conversationId, want);
      });
    }
  });
});
