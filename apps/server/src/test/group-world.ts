import type {
  ConversationSyncResult,
  EventPageResult,
  FriendRequestListResult,
  Message,
  MessagePageResult,
  MyGroup,
} from '@teltlk/protocol';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Dialect } from '../db/database.js';
import { authOf } from './fixtures.js';
import { createTestApp, type RegisteredUser, type TestApp } from './harness.js';

/** The people of the group tests, registered before a file's tests. */
export interface GroupPeople {
  t: TestApp;
  owner: RegisteredUser;
  admin: RegisteredUser;
  member: RegisteredUser;
  muted: RegisteredUser;
  removed: RegisteredUser;
  stranger: RegisteredUser;
  /** A member every action may target. */
  target: RegisteredUser;
  /** Everyone's friend, outside the groups: invited. */
  friend: RegisteredUser;
  /** Applies to join. */
  applicant: RegisteredUser;
}

let counter = 0;
/** A fresh client message id. */
export const clientId = () => `g-${Date.now().toString(36)}-${(counter += 1)}`;

/**
 * One test app on `dialect` with the group tests' people (the owner befriended with the
 * members-to-be, the friend with everyone), and the calls those tests make through the
 * API. `people` is filled in before the first test and the app closed after the last.
 */
export function groupWorld(dialect: Dialect) {
  const people = {} as GroupPeople;

  async function befriend(a: RegisteredUser, b: RegisteredUser): Promise<void> {
    const { contacts } = people.t.ctx.services;
    const request = await contacts.sendRequest(authOf(a), { userId: b.user.id });
    await contacts.acceptRequest(authOf(b), request.id);
  }

  function call(
    user: RegisteredUser,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ) {
    return people.t.call(method, `/api/v1${url}`, { token: user.token, body });
  }

  function ok<T>(response: Awaited<ReturnType<typeof call>>): T {
    expect(response.statusCode, response.body).toBeLessThan(300);
    return (response.statusCode === 204 ? undefined : response.json()) as T;
  }

  async function createGroup(
    by: RegisteredUser,
    members: readonly RegisteredUser[],
    name?: string,
  ): Promise<MyGroup> {
    return ok<MyGroup>(
      await call(by, 'POST', '/groups', {
        memberIds: members.map((m) => m.user.id),
        ...(name ? { name } : {}),
      }),
    );
  }

  function send(from: RegisteredUser, groupId: string, text: string, extra: object = {}) {
    return call(from, 'POST', '/messages', {
      conversationId: `sg_${groupId}`,
      clientMsgId: clientId(),
      content: { kind: 'text', text, ...extra },
    });
  }

  async function pull(user: RegisteredUser, groupId: string): Promise<Message[]> {
    return ok<MessagePageResult>(await call(user, 'GET', `/conversations/sg_${groupId}/messages`))
      .messages;
  }

  async function events(user: RegisteredUser): Promise<EventPageResult['events']> {
    const all: EventPageResult['events'] = [];
    for (;;) {
      const page = ok<EventPageResult>(
        await call(user, 'GET', `/sync/events?after=${all.at(-1)?.seq ?? 0}&limit=200`),
      );
      all.push(...page.events);
      if (!page.hasMore) return all;
    }
  }

  async function requestsOf(user: RegisteredUser): Promise<FriendRequestListResult> {
    return ok<FriendRequestListResult>(await call(user, 'GET', '/friend-requests'));
  }

  async function conversation(user: RegisteredUser, conversationId: string) {
    const { conversations } = ok<ConversationSyncResult>(
      await call(user, 'GET', '/sync/conversations?since=0&limit=200'),
    );
    return conversations.find((c) => c.id === conversationId);
  }

  /** The standard cast: owner, an admin, a member, a muted member, a removed one, a target. */
  async function cast(): Promise<MyGroup> {
    const { owner, admin, member, muted, removed, target } = people;
    const group = await createGroup(owner, [admin, member, muted, removed, target]);
    const path = `/groups/${group.id}/members`;
    ok(await call(owner, 'PUT', `${path}/${admin.user.id}/role`, { role: 'admin' }));
    ok(await call(owner, 'PUT', `${path}/${muted.user.id}/mute`, { seconds: 600 }));
    ok(await call(owner, 'DELETE', `${path}/${removed.user.id}`));
    return group;
  }

  beforeAll(async () => {
    const t = await createTestApp({ dialect });
    people.t = t;
    people.owner = await t.register({ nickname: 'Olivia' });
    people.admin = await t.register({ nickname: 'Adam' });
    people.member = await t.register({ nickname: 'Mia' });
    people.muted = await t.register({ nickname: 'Quiet' });
    people.removed = await t.register({ nickname: 'Rex' });
    people.stranger = await t.register({ nickname: 'Sam' });
    people.target = await t.register({ nickname: 'Tara' });
    people.friend = await t.register({ nickname: 'Finn' });
    people.applicant = await t.register({ nickname: 'Pat' });
    const { owner, admin, member, muted, removed, stranger, target, friend } = people;
    for (const other of [admin, member, muted, removed, target]) await befriend(owner, other);
    for (const actor of [owner, admin, member, muted, removed, stranger]) {
      await befriend(actor, friend);
    }
  });

  afterAll(async () => {
    await people.t.close();
  });

  return {
    people,
    befriend,
    call,
    ok,
    createGroup,
    send,
    pull,
    events,
    requestsOf,
    conversation,
    cast,
  };
}
