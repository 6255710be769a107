import {
  singleConversationId,
  type FriendRequest,
  type GroupApplicationListResult,
  type Message,
  type MyGroup,
  groupConversationId,
} from '@teltlk/protocol';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { authOf, befriend, imageUpload } from './fixtures.js';
import { uniquePhone, type RegisteredUser, type TestApp } from './harness.js';

/** Who acts in permission tests, each in a fixed relation to the owner's things. */
export const ACTORS = ['owner', 'admin', 'member', 'blocked', 'removed', 'stranger'] as const;
export type Actor = (typeof ACTORS)[number];
/** An actor, or a caller with no token at all. */
export type Caller = Actor | 'anonymous';

type Method = NonNullable<InjectOptions['method']>;

/**
 * One world around its owner, for tests of who may do what:
 * - the owner's group: the admin, the member, the blocked user and a target member in it,
 *   the removed member taken out of it; a message of the member's; a pending
 *   application of the stranger's;
 * - the owner's one-to-one chat with the member, with messages both ways;
 * - the blocked user: the owner's friend and a member of the group, with a one-to-one chat
 *   of their own with the owner, who then blocked them (blocking keeps the friendship);
 * - the stranger: signed in, no relation, with a pending friend request to the owner;
 * - a friend of everyone outside the group (to invite) and the owner's avatar;
 * - the owner with an email and a phone, the others with an email only.
 */
export interface Cast {
  t: TestApp;
  users: Record<Actor, RegisteredUser>;
  /** Everyone's friend, in no group of the cast's. */
  friend: RegisteredUser;
  /** A plain member of every cast group, for member actions to target. */
  target: RegisteredUser;
  group: MyGroup;
  /** The owner's one-to-one chat with the member. */
  single: string;
  /** The blocked user's one-to-one chat with the owner. */
  blockedChat: string;
  /** The stranger's pending friend request to the owner. */
  friendRequest: FriendRequest;
  /** The stranger's pending application to the group. */
  applicationId: string;
  /** The API as an actor (anonymous: no token); `path` is under /api/v1. */
  call(
    as: Caller | RegisteredUser,
    method: Method,
    path: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** A multipart image upload to an API path. */
  upload(as: Caller, path: string): Promise<LightMyRequestResponse>;
  /** A text sent through the API, which must succeed. */
  send(from: RegisteredUser, conversationId: string, text: string): Promise<Message>;
  /** A group of the owner's with the cast's roles (for actions that use a group up). */
  freshGroup(): Promise<MyGroup>;
  /** A new user with no relation to anyone. */
  newUser(): Promise<RegisteredUser>;
  /** A pending application of a new user to the group. */
  freshApplication(): Promise<string>;
}

let counter = 0;
/** A client message id no other send in the run has. */
export function clientMsgId(): string {
  counter += 1;
  return `cast-${Date.now().toString(36)}-${counter}`;
}

export async function createCast(t: TestApp): Promise<Cast> {
  const register = (nickname: string) => t.register({ nickname });
  const users: Record<Actor, RegisteredUser> = {
    owner: await register('Olivia'),
    admin: await register('Adam'),
    member: await register('Mia'),
    blocked: await register('Boris'),
    removed: await register('Rex'),
    stranger: await register('Sam'),
  };
  const friend = await register('Finn');
  const target = await register('Tara');
  const { owner, admin, member, blocked, removed, stranger } = users;

  const callerOf = (as: Caller | RegisteredUser) =>
    typeof as === 'string' ? (as === 'anonymous' ? null : users[as]) : as;
  const call: Cast['call'] = (as, method, path, body) =>
    t.call(method, `/api/v1${path}`, { token: callerOf(as)?.token, body });
  const ok = <T>(response: LightMyRequestResponse): T => {
    expect(response.statusCode, response.body).toBeLessThan(300);
    return (response.statusCode === 204 ? undefined : response.json()) as T;
  };
  const upload: Cast['upload'] = async (as, path) => {
    const { payload, headers } = await imageUpload();
    const token = callerOf(as)?.token;
    return t.app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      payload,
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  };
  const send: Cast['send'] = async (from, conversationId, text) =>
    ok<Message>(
      await call(from, 'POST', '/messages', {
        conversationId,
        clientMsgId: clientMsgId(),
        content: { kind: 'text', text },
      }),
    );

  for (const other of [admin, member, blocked, removed, target]) await befriend(t, owner, other);
  for (const other of [owner, admin, member, blocked, removed, stranger]) {
    await befriend(t, other, friend);
  }

  const freshGroup = async (): Promise<MyGroup> => {
    const group = ok<MyGroup>(
      await call(owner, 'POST', '/groups', {
        memberIds: [admin, member, blocked, removed, target].map((u) => u.user.id),
      }),
    );
    const path = `/groups/${group.id}/members`;
    ok(await call(owner, 'PUT', `${path}/${admin.user.id}/role`, { role: 'admin' }));
    ok(await call(owner, 'DELETE', `${path}/${removed.user.id}`));
    return group;
  };
  const group = await freshGroup();
  await send(owner, groupConversationId(group.id), 'Welcome, everyone');
  await send(member, groupConversationId(group.id), 'Glad to be here');

  const single = singleConversationId(owner.user.id, member.user.id);
  await send(owner, single, 'Hello Mia');
  await send(member, single, 'Hello Olivia');

  const blockedChat = singleConversationId(owner.user.id, blocked.user.id);
  await send(blocked, blockedChat, 'Hi Olivia');
  await send(owner, blockedChat, 'Hi Boris');
  await t.ctx.services.contacts.block(authOf(owner), blocked.user.id);

  const friendRequest = await t.ctx.services.contacts.sendRequest(authOf(stranger), {
    userId: owner.user.id,
  });
  const applicationOf = async (user: RegisteredUser) => {
    ok(await call(user, 'POST', `/groups/${group.id}/join`, { message: 'Let me in' }));
    const { mine } = ok<GroupApplicationListResult>(await call(user, 'GET', '/group-applications'));
    return mine.find((application) => application.group.id === group.id)!.id;
  };
  const applicationId = await applicationOf(stranger);
  ok(await upload('owner', '/me/avatar'));
  // The owner has both an email and a phone: replacing either is a sensitive action.
  const phone = uniquePhone();
  const verify = { purpose: 'register', channel: 'phone', destination: phone };
  ok(await call('anonymous', 'POST', '/auth/codes', verify));
  const { ticket } = ok<{ ticket: string }>(
    await call('anonymous', 'POST', '/auth/codes/verify', {
      ...verify,
      code: t.codeFor(phone, 'register'),
    }),
  );
  ok(await call(owner, 'POST', '/me/phone', { ticket }));

  const newUser = () => register('Newcomer');
  return {
    t,
    users,
    friend,
    target,
    group,
    single,
    blockedChat,
    friendRequest,
    applicationId,
    call,
    upload,
    send,
    freshGroup,
    newUser,
    freshApplication: async () => applicationOf(await newUser()),
  };
}
