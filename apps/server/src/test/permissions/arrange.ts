import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningPiSandbox } from '@teltlk/pi-sandbox';
import { type ErrorCode, groupConversationId, mediaIdOf, type Message } from '@teltlk/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { newId } from '../../lib/random.js';
import { type Actor, type Caller, type Cast, clientMsgId } from '../cast.js';
import { type RegisteredUser, uniquePhone } from '../harness.js';
import { type Cells, chatOf, groupChat, type Row } from './cells.js';

/**
 * Gives the actor's session a proof made now (a step-up with its password), so a row of a
 * sensitive route tries who may act, not how recently they proved it: that is the
 * sensitive table's to try (below).
 */
export async function fresh(w: Cast, as: Caller | RegisteredUser): Promise<void> {
  if (as === 'anonymous') return;
  const { sessions, stepUp } = w.t.ctx.services;
  const user = typeof as === 'string' ? w.users[as] : as;
  await stepUp.proven(await sessions.authenticate(user.token), 'password');
}

/** The local Pi sandbox the matrix's app talks to (started per dialect). */
export let piSandbox: RunningPiSandbox;
/** Points the helpers and rows at the sandbox the matrix's app was started with. */
export function usePiSandbox(sandbox: RunningPiSandbox): void {
  piSandbox = sandbox;
}
let piPeople = 0;
/** A Pi account nobody has bound yet, signed in to the sandbox. */
export const newPiAccount = () =>
  piSandbox.emulator.signIn(`matrix_${(piPeople += 1)}_${Date.now()}`);
/** The Pi account bound to the owner (bound now if the owner has none). */
let ownersPi: ReturnType<typeof newPiAccount> | null = null;
export async function bindOwnersPi(w: Cast): Promise<NonNullable<typeof ownersPi>> {
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
export async function moneyReady(w: Cast, as: Caller): Promise<void> {
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
export async function ownersEnvelope(w: Cast): Promise<string> {
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
export async function nftOf(w: Cast, as: Caller): Promise<string> {
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
/** The owner bound to Pi, with a wallet and the payment password 123456. */
export async function ownersPiWallet(w: Cast): Promise<NonNullable<typeof ownersPi>> {
  const pi = await bindOwnersPi(w);
  await fresh(w, 'owner');
  await w.call('owner', 'POST', '/wallet');
  const set = await w.call('owner', 'PUT', '/wallet/password', { password: '123456' });
  expect([200, 409]).toContain(set.statusCode);
  return pi;
}
/** A recharge order of the owner's, and the Pi payment their browser made for it. */
export async function ownersRechargePayment(w: Cast, amount = '1'): Promise<{ paymentId: string }> {
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
export async function ownersPaymentPassword(w: Cast, as: Caller): Promise<void> {
  await fresh(w, 'owner');
  await w.call('owner', 'POST', '/wallet');
  const set = await w.call('owner', 'PUT', '/wallet/password', { password: '123456' });
  expect([200, 409]).toContain(set.statusCode);
  if (as !== 'anonymous') await w.call(as, 'POST', '/wallet');
}
/** A registration ticket for a phone number nobody has. */
export async function phoneTicket(w: Cast): Promise<string> {
  const destination = uniquePhone();
  const body = { purpose: 'register', channel: 'phone', destination };
  expect((await w.call('anonymous', 'POST', '/auth/codes', body)).statusCode).toBe(200);
  const code = w.t.codeFor(destination, 'register');
  const verified = await w.call('anonymous', 'POST', '/auth/codes/verify', { ...body, code });
  expect(verified.statusCode, verified.body).toBe(200);
  return verified.json<{ ticket: string }>().ticket;
}

/** A file (or a photo) the member sent into the group chat; its media id. */
export async function groupMedia(w: Cast, kind: 'file' | 'image' = 'file'): Promise<string> {
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
export const newUploadHeaders = {
  'upload-length': '5',
  'upload-metadata': `kind ${base64('file')},name ${base64('a.txt')}`,
};

/**
 * A tus request (the protocol's own header, the caller's token), over a real connection:
 * the protocol's handlers write to the socket's response as a server does.
 */
export async function tus(
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
export async function ownersUpload(w: Cast): Promise<string> {
  const created = await tus(w, 'owner', 'POST', '/uploads', newUploadHeaders);
  expect(created.statusCode, created.body).toBe(201);
  return String(created.headers.location).split('/').pop()!;
}

/**
 * A new text in a conversation from someone other than the actor in it: the member in the
 * group and the owner's chat with the member (the owner when the member acts), the owner
 * in the blocked user's chat. Rows that need a seq take a new message so that clearing
 * history, in an earlier row, does not hide it.
 */
export function newMessage(w: Cast, conversationId: string, as: Caller): Promise<Message> {
  const { owner, member } = w.users;
  const from = conversationId === w.blockedChat || as === 'member' ? owner : member;
  return w.send(from, conversationId, 'Good morning, everyone');
}
/** A new text of the member's (of the owner's, in the blocked user's chat). */
export function membersMessage(w: Cast, conversationId: string): Promise<Message> {
  const { owner, member } = w.users;
  return w.send(conversationId === w.blockedChat ? owner : member, conversationId, 'Oops');
}

/** Rows for a conversation route, once on the group's and once on a one-to-one chat. */
export function inBothChats(
  route: string,
  cells: { group: Cells; single: Cells },
  run: (w: Cast, as: Caller, conversationId: string) => Promise<LightMyRequestResponse>,
): Row[] {
  return [
    { route, on: 'group', cells: cells.group, run: (w, as) => run(w, as, groupChat(w)) },
    { route, on: 'one-to-one', cells: cells.single, run: (w, as) => run(w, as, chatOf(w, as)) },
  ];
}

export async function mentionSeq(w: Cast, user: Actor, conversationId: string): Promise<number> {
  const row = await w.t.ctx.db
    .selectFrom('conversation_members')
    .select('mention_seq')
    .where('conversation_id', '=', conversationId)
    .where('user_id', '=', w.users[user].user.id)
    .executeTakeFirstOrThrow();
  return Number(row.mention_seq);
}
