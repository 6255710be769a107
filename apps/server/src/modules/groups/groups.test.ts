import {
  GROUP_MAX_MEMBERS,
  GROUP_PERMISSIONS,
  GROUP_READERS_DETAIL_MAX,
  mayInGroup,
  type ConversationSyncResult,
  type ErrorCode,
  type EventPageResult,
  type FriendRequest,
  type FriendRequestListResult,
  type GroupAction,
  type GroupApplicationListResult,
  type GroupMembersResult,
  type Message,
  type MessagePageResult,
  type MessageReadsResult,
  type MyGroup,
  type ServerFrame,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { imageUpload } from '../../test/fixtures.js';

let counter = 0;
const clientId = () => `g-${Date.now().toString(36)}-${(counter += 1)}`;

/** Who acts in the authorization matrix. */
const ACTORS = ['owner', 'admin', 'member', 'muted', 'removed', 'stranger'] as const;
type Actor = (typeof ACTORS)[number];
/** Every action of the table. */
const ACTIONS = Object.keys(GROUP_PERMISSIONS) as GroupAction[];

/**
 * What the table and the ranks say each actor gets: outsiders see no group (and no
 * conversation, on the message path); a muted member may not speak; everyone else as
 * GROUP_PERMISSIONS says, naming who may.
 */
function expected(actor: Actor, action: GroupAction): ErrorCode | null {
  const viaMessages = action === 'send' || action === 'mentionAll';
  if (actor === 'removed' || actor === 'stranger') {
    return viaMessages ? 'CONVERSATION_NOT_FOUND' : 'GROUP_NOT_FOUND';
  }
  const role = actor === 'muted' ? 'member' : actor;
  if (action === 'quit' && role === 'owner') return 'OWNER_CANNOT_QUIT';
  if (actor === 'muted' && viaMessages) return 'MUTED_IN_GROUP';
  if (mayInGroup(role, action)) return null;
  const allowed: readonly string[] = GROUP_PERMISSIONS[action];
  return allowed.length === 1 ? 'GROUP_OWNER_REQUIRED' : 'GROUP_ROLE_REQUIRED';
}

describe.each(dialects)('groups on $dialect', ({ dialect }) => {
  let t: TestApp;
  let owner: RegisteredUser;
  let admin: RegisteredUser;
  let member: RegisteredUser;
  let muted: RegisteredUser;
  let removed: RegisteredUser;
  let stranger: RegisteredUser;
  /** A member every action may target. */
  let target: RegisteredUser;
  /** Everyone's friend, outside the groups: invited. */
  let friend: RegisteredUser;
  /** Applies to join. */
  let applicant: RegisteredUser;

  const auth = (user: RegisteredUser) => ({ userId: user.user.id, sessionId: 'test' });

  async function befriend(a: RegisteredUser, b: RegisteredUser): Promise<void> {
    const { contacts } = t.ctx.services;
    const request = await contacts.sendRequest(auth(a), { userId: b.user.id });
    await contacts.acceptRequest(auth(b), request.id);
  }

  function call(
    user: RegisteredUser,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ) {
    return t.call(method, `/api/v1${url}`, { token: user.token, body });
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
    const group = await createGroup(owner, [admin, member, muted, removed, target]);
    const path = `/groups/${group.id}/members`;
    ok(await call(owner, 'PUT', `${path}/${admin.user.id}/role`, { role: 'admin' }));
    ok(await call(owner, 'PUT', `${path}/${muted.user.id}/mute`, { seconds: 600 }));
    ok(await call(owner, 'DELETE', `${path}/${removed.user.id}`));
    return group;
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    owner = await t.register({ nickname: 'Olivia' });
    admin = await t.register({ nickname: 'Adam' });
    member = await t.register({ nickname: 'Mia' });
    muted = await t.register({ nickname: 'Quiet' });
    removed = await t.register({ nickname: 'Rex' });
    stranger = await t.register({ nickname: 'Sam' });
    target = await t.register({ nickname: 'Tara' });
    friend = await t.register({ nickname: 'Finn' });
    applicant = await t.register({ nickname: 'Pat' });
    for (const other of [admin, member, muted, removed, target]) await befriend(owner, other);
    for (const actor of [owner, admin, member, muted, removed, stranger]) {
      await befriend(actor, friend);
    }
  });

  afterAll(async () => {
    await t.close();
  });

  describe('authorization matrix', () => {
    const users = (): Record<Actor, RegisteredUser> => ({
      owner,
      admin,
      member,
      muted,
      removed,
      stranger,
    });

    /** Performs one action of the table as `user` in a fresh group. */
    async function act(action: GroupAction, user: RegisteredUser, group: MyGroup) {
      const id = group.id;
      const on = `/groups/${id}/members/${target.user.id}`;
      switch (action) {
        case 'rename':
          return call(user, 'PATCH', `/groups/${id}`, { name: 'Renamed' });
        case 'setAvatar': {
          const { payload, headers } = await imageUpload();
          return t.app.inject({
            method: 'POST',
            url: `/api/v1/groups/${id}/avatar`,
            payload,
            headers: { ...headers, authorization: `Bearer ${user.token}` },
          });
        }
        case 'setNotice':
          return call(user, 'PATCH', `/groups/${id}`, { notice: 'Welcome' });
        case 'setVerification':
          return call(user, 'PATCH', `/groups/${id}`, { verification: 'open' });
        case 'setPrivateChat':
          return call(user, 'PATCH', `/groups/${id}`, { privateChat: false });
        case 'setMessageKinds':
          return call(user, 'PATCH', `/groups/${id}`, { allowedKinds: [] });
        case 'setCallPolicy':
          return call(user, 'PATCH', `/groups/${id}`, { callPolicy: 'admins' });
        case 'muteAll':
          return call(user, 'PATCH', `/groups/${id}`, { allMuted: true });
        case 'muteMember':
          return call(user, 'PUT', `${on}/mute`, { seconds: 3600 });
        case 'removeMember':
          return call(user, 'DELETE', on);
        case 'reviewApplications': {
          ok(await call(applicant, 'POST', `/groups/${id}/join`, { message: 'hi' }));
          const list = ok<GroupApplicationListResult>(
            await call(applicant, 'GET', '/group-applications'),
          );
          const application = list.mine.find((a) => a.group.id === id)!;
          return call(user, 'POST', `/group-applications/${application.id}/accept`);
        }
        case 'mentionAll':
          return send(user, id, 'everyone!', { mentionAll: true });
        case 'invite':
          return call(user, 'POST', `/groups/${id}/members`, { userIds: [friend.user.id] });
        case 'setRole':
          return call(user, 'PUT', `${on}/role`, { role: 'admin' });
        case 'transferOwnership':
          return call(user, 'POST', `/groups/${id}/transfer`, { userId: target.user.id });
        case 'dismiss':
          return call(user, 'DELETE', `/groups/${id}`);
        case 'quit':
          return call(user, 'POST', `/groups/${id}/quit`);
        case 'send':
          return send(user, id, 'hello');
      }
    }

    const cases = ACTIONS.flatMap((action) => ACTORS.map((actor) => ({ action, actor })));
    it.each(cases)('$action by $actor', async ({ action, actor }) => {
      const group = await cast();
      const response = await act(action, users()[actor], group);
      const code = expected(actor, action);
      if (code) expectError(response, code);
      else expect(response.statusCode, response.body).toBeLessThan(300);
    });

    it('lets admins act on members only, and the owner on everyone', async () => {
      const group = await cast();
      const path = `/groups/${group.id}/members`;
      ok(await call(owner, 'PUT', `${path}/${target.user.id}/role`, { role: 'admin' }));
      // An admin on another admin, or on the owner.
      for (const other of [target, owner]) {
        expectError(
          await call(admin, 'PUT', `${path}/${other.user.id}/mute`, { seconds: 600 }),
          'GROUP_OWNER_REQUIRED',
        );
        expectError(
          await call(admin, 'DELETE', `${path}/${other.user.id}`),
          'GROUP_OWNER_REQUIRED',
        );
      }
      // On themselves, or on someone outside the group.
      expectError(await call(owner, 'DELETE', `${path}/${owner.user.id}`), 'VALIDATION_FAILED');
      expectError(await call(owner, 'DELETE', `${path}/${stranger.user.id}`), 'VALIDATION_FAILED');
      // The owner removes an admin; a transfer leaves the old owner as an admin.
      ok(await call(owner, 'DELETE', `${path}/${target.user.id}`));
      ok(await call(owner, 'POST', `/groups/${group.id}/transfer`, { userId: admin.user.id }));
      const mine = ok<MyGroup>(await call(owner, 'GET', `/groups/${group.id}`));
      expect(mine.me.role).toBe('admin');
      expect(mine.ownerId).toBe(admin.user.id);
      ok(await call(owner, 'POST', `/groups/${group.id}/quit`));
    });
  });

  it('creates a group from friends only, named after its first members', async () => {
    expectError(
      await call(owner, 'POST', '/groups', { memberIds: [stranger.user.id] }),
      'NOT_FRIENDS',
    );
    const group = await createGroup(owner, [admin, member]);
    expect(group.name).toBe('Olivia, Adam, Mia');
    expect(group.groupNo).toMatch(/^[1-9]\d{7,9}$/);
    expect(group.memberCount).toBe(3);
    expect(group.me.role).toBe('owner');
    const listed = ok<{ groups: MyGroup[] }>(await call(member, 'GET', '/groups'));
    expect(listed.groups.map((g) => g.id)).toContain(group.id);
    expect((await events(member)).map((e) => e.data)).toContainEqual({
      type: 'groupJoined',
      groupId: group.id,
    });
    const [created] = await pull(member, group.id);
    expect(created?.content).toMatchObject({ kind: 'system', event: 'created' });
    const view = await conversation(member, `sg_${group.id}`);
    expect(view?.group).toEqual({
      id: group.id,
      name: group.name,
      avatarUrl: null,
      memberCount: 3,
    });
    expectError(await call(stranger, 'GET', `/groups/${group.id}`), 'GROUP_NOT_FOUND');
  });

  it('joins in each verification mode, with applications live to admins', async () => {
    const group = await createGroup(owner, [admin]);
    ok(
      await call(owner, 'PUT', `/groups/${group.id}/members/${admin.user.id}/role`, {
        role: 'admin',
      }),
    );
    const found = await call(stranger, 'GET', `/groups/search?no=${group.groupNo}`);
    expect(ok<{ group: { id: string; joined: boolean } }>(found).group).toMatchObject({
      id: group.id,
      joined: false,
    });
    expectError(await call(stranger, 'GET', '/groups/search?no=00000000'), 'GROUP_NOT_FOUND');

    // Approval (the default): a pending application, shown to the owner and admins.
    const before = (await events(admin)).length;
    expect(
      ok(await call(stranger, 'POST', `/groups/${group.id}/join`, { message: 'Hi!' })),
    ).toEqual({ status: 'pending' });
    const live = (await events(admin)).slice(before);
    expect(live.map((e) => e.data.type)).toContain('groupApplication');
    const list = ok<GroupApplicationListResult>(await call(admin, 'GET', '/group-applications'));
    const application = list.toReview.find((a) => a.group.id === group.id)!;
    expect(application).toMatchObject({ message: 'Hi!', status: 'pending' });
    expect(application.user.id).toBe(stranger.user.id);
    expect(
      ok<GroupApplicationListResult>(await call(member, 'GET', '/group-applications')).toReview,
    ).toEqual([]);
    expectError(
      await call(stranger, 'POST', `/group-applications/${application.id}/accept`),
      'GROUP_NOT_FOUND',
    );
    ok(await call(admin, 'POST', `/group-applications/${application.id}/reject`));
    expectError(
      await call(owner, 'POST', `/group-applications/${application.id}/accept`),
      'GROUP_APPLICATION_HANDLED',
    );
    expectError(await call(stranger, 'GET', `/groups/${group.id}`), 'GROUP_NOT_FOUND');
    // Applying again reopens it; accepted, the applicant is in.
    ok(await call(stranger, 'POST', `/groups/${group.id}/join`, {}));
    const again = ok<GroupApplicationListResult>(
      await call(stranger, 'GET', '/group-applications'),
    );
    const reopened = again.mine.find((a) => a.group.id === group.id)!;
    expect(reopened.status).toBe('pending');
    ok(await call(owner, 'POST', `/group-applications/${reopened.id}/accept`));
    expect(ok<MyGroup>(await call(stranger, 'GET', `/groups/${group.id}`)).memberCount).toBe(3);
    expectError(await call(stranger, 'POST', `/groups/${group.id}/join`, {}), 'ALREADY_IN_GROUP');

    // Open: joined at once. Invitation only: refused.
    ok(await call(owner, 'PATCH', `/groups/${group.id}`, { verification: 'open' }));
    expect(ok(await call(applicant, 'POST', `/groups/${group.id}/join`, {}))).toEqual({
      status: 'joined',
    });
    ok(await call(owner, 'PATCH', `/groups/${group.id}`, { verification: 'invite' }));
    expectError(await call(friend, 'POST', `/groups/${group.id}/join`, {}), 'GROUP_INVITE_ONLY');
    expectError(await call(friend, 'POST', `/groups/nosuchgroup/join`, {}), 'GROUP_NOT_FOUND');
  });

  it('shows a new member history from the join point on', async () => {
    const group = await createGroup(owner, [member]);
    ok(await send(owner, group.id, 'before'));
    ok(await call(owner, 'POST', `/groups/${group.id}/members`, { userIds: [friend.user.id] }));
    ok(await send(member, group.id, 'after'));
    const seen = await pull(friend, group.id);
    expect(seen.map((m) => (m.content.kind === 'text' ? m.content.text : m.content.kind))).toEqual([
      'system',
      'after',
    ]);
    expect(seen[0]?.content).toMatchObject({ event: 'invited', targetIds: [friend.user.id] });
    const view = await conversation(friend, `sg_${group.id}`);
    expect(view!.maxSeq - view!.readSeq).toBe(2);
  });

  it('stops a removed member at once: no pushes, no reads, no sends', async () => {
    const group = await createGroup(owner, [member, removed]);
    // Only this group's messages after its creation notices count: pushes of those, and of
    // earlier tests to the same people, may still be on the way.
    const conversationId = `sg_${group.id}`;
    const created = (await conversation(owner, conversationId))!.maxSeq;
    const frames: { userId: string; frame: ServerFrame }[] = [];
    const sockets = [member, removed].map((user) => ({
      userId: user.user.id,
      sessionId: `s-${user.user.id}`,
      send: (data: string) =>
        frames.push({ userId: user.user.id, frame: JSON.parse(data) as ServerFrame }),
      close: () => undefined,
    }));
    for (const socket of sockets) t.ctx.hub.add(socket);
    try {
      const messages = (userId: string) =>
        frames.filter(
          ({ userId: to, frame }) =>
            to === userId &&
            frame.t === 'message' &&
            frame.message.conversationId === conversationId &&
            frame.message.seq > created,
        ).length;
      ok(await send(owner, group.id, 'one'));
      await vi.waitFor(() => {
        expect(messages(member.user.id)).toBe(1);
        expect(messages(removed.user.id)).toBe(1);
      });

      ok(await call(owner, 'DELETE', `/groups/${group.id}/members/${removed.user.id}`));
      ok(await send(owner, group.id, 'two'));
      // The removal notice and the new message.
      await vi.waitFor(() => expect(messages(member.user.id)).toBe(3));
      expect(messages(removed.user.id)).toBe(1);
      expect(frames.some((f) => f.userId === removed.user.id && f.frame.t === 'event')).toBe(true);
    } finally {
      for (const socket of sockets) t.ctx.hub.remove(socket);
    }
    expect((await events(removed)).map((e) => e.data)).toContainEqual({
      type: 'groupLeft',
      groupId: group.id,
      reason: 'removed',
    });
    expectError(
      await call(removed, 'GET', `/conversations/sg_${group.id}/messages`),
      'CONVERSATION_NOT_FOUND',
    );
    expectError(await send(removed, group.id, 'let me in'), 'CONVERSATION_NOT_FOUND');
    expect(await conversation(removed, `sg_${group.id}`)).toBeUndefined();
    expect(ok<MyGroup>(await call(owner, 'GET', `/groups/${group.id}`)).memberCount).toBe(2);
  });

  it('marks mentions by name and @all, and never in single chats', async () => {
    const group = await createGroup(owner, [member, target]);
    const conversationId = `sg_${group.id}`;
    const named = ok<Message>(
      await send(member, group.id, '@Olivia look', {
        mentions: [owner.user.id, stranger.user.id],
      }),
    );
    expect((await conversation(owner, conversationId))?.mentionSeq).toBe(named.seq);
    expect((await conversation(target, conversationId))?.mentionSeq).toBe(0);
    expectError(await send(member, group.id, '@all', { mentionAll: true }), 'GROUP_ROLE_REQUIRED');
    const all = ok<Message>(await send(owner, group.id, '@all', { mentionAll: true }));
    expect((await conversation(target, conversationId))?.mentionSeq).toBe(all.seq);
    // A member who joins later was not there for that @all.
    ok(await call(owner, 'POST', `/groups/${group.id}/members`, { userIds: [friend.user.id] }));
    expect((await conversation(friend, conversationId))?.mentionSeq).toBe(0);

    await befriend(member, stranger);
    const single = [member.user.id, stranger.user.id].sort();
    const singleId = `si_${single[0]}_${single[1]}`;
    ok(
      await call(member, 'POST', '/messages', {
        conversationId: singleId,
        clientMsgId: clientId(),
        content: { kind: 'text', text: 'hi', mentions: [stranger.user.id] },
      }),
    );
    const view = await conversation(stranger, singleId);
    expect(view).toMatchObject({ group: null, mentionSeq: 0 });
  });

  it('holds blocks in group flows: no group, invitation or @mention to whoever blocked you', async () => {
    const blocker = await t.register({ nickname: 'Bea' });
    const blocked = await t.register({ nickname: 'Ben' });
    const other = await t.register({ nickname: 'Oli' });
    // A block does not end a friendship: they stay friends of each other.
    await befriend(blocked, blocker);
    await befriend(blocked, other);
    await befriend(blocker, other);
    ok(await call(blocker, 'PUT', `/blocks/${blocked.user.id}`));

    expectError(
      await call(blocked, 'POST', '/groups', { memberIds: [blocker.user.id, other.user.id] }),
      'GROUP_ADD_REFUSED',
    );
    const own = await createGroup(blocked, [other]);
    expectError(
      await call(blocked, 'POST', `/groups/${own.id}/members`, {
        userIds: [other.user.id, blocker.user.id],
      }),
      'GROUP_ADD_REFUSED',
    );
    expect(ok<MyGroup>(await call(blocked, 'GET', `/groups/${own.id}`)).memberCount).toBe(2);

    // In a group the blocker made themselves, the blocked member's mention of them is
    // dropped; the message, and the mention of anyone else, still go.
    const theirs = await createGroup(blocker, [blocked, other]);
    const conversationId = `sg_${theirs.id}`;
    const said = ok<Message>(
      await send(blocked, theirs.id, '@Bea @Oli look', {
        mentions: [blocker.user.id, other.user.id],
      }),
    );
    expect(said.content).toMatchObject({ text: '@Bea @Oli look', mentions: [other.user.id] });
    expect((await pull(blocker, theirs.id)).at(-1)?.content).toMatchObject({
      text: '@Bea @Oli look',
      mentions: [other.user.id],
    });
    expect((await conversation(blocker, conversationId))?.mentionSeq).toBe(0);
    expect((await conversation(other, conversationId))?.mentionSeq).toBe(said.seq);
    const alone = ok<Message>(
      await send(blocked, theirs.id, '@Bea?', { mentions: [blocker.user.id] }),
    );
    expect(alone.content).toEqual({ kind: 'text', text: '@Bea?' });

    // Unblocked, everything is allowed again.
    ok(await call(blocker, 'DELETE', `/blocks/${blocked.user.id}`));
    ok(await call(blocked, 'POST', `/groups/${own.id}/members`, { userIds: [blocker.user.id] }));
    const again = ok<Message>(
      await send(blocked, theirs.id, '@Bea hi', { mentions: [blocker.user.id] }),
    );
    expect((await conversation(blocker, conversationId))?.mentionSeq).toBe(again.seq);
  });

  it('enforces private chat: with it off, only the owner and admins add members as friends from the group', async () => {
    const [boss, deputy, one, two, three, four] = await Promise.all(
      ['Bo', 'De', 'On', 'Tw', 'Th', 'Fo'].map((nickname) => t.register({ nickname })),
    );
    for (const other of [deputy!, one!, two!, three!]) await befriend(boss!, other);
    const group = await createGroup(boss!, [deputy!, one!, two!, three!]);
    const path = `/groups/${group.id}/members`;
    // Brought in by a member: no friend of the owner's.
    await befriend(one!, four!);
    ok(await call(one!, 'POST', path, { userIds: [four!.user.id] }));
    ok(await call(boss!, 'PUT', `${path}/${deputy!.user.id}/role`, { role: 'admin' }));
    const ask = (from: RegisteredUser, to: RegisteredUser) =>
      call(from, 'POST', `${path}/${to.user.id}/friend-request`, { greeting: 'Hello' });

    // On (the default): any member may.
    expect(ok<FriendRequest>(await ask(one!, two!))).toMatchObject({
      from: { id: one!.user.id },
      to: { id: two!.user.id },
      greeting: 'Hello',
      status: 'pending',
    });
    ok(await call(deputy!, 'PATCH', `/groups/${group.id}`, { privateChat: false }));
    expectError(await ask(one!, three!), 'GROUP_PRIVATE_CHAT_OFF');
    expectError(await ask(three!, one!), 'GROUP_PRIVATE_CHAT_OFF');
    const pendingFrom = async (to: RegisteredUser, from: RegisteredUser) =>
      (await requestsOf(to)).received.filter(
        (request) => request.from.id === from.user.id && request.status === 'pending',
      );
    expect(await pendingFrom(three!, one!)).toEqual([]);
    // The owner and admins still may.
    ok(await ask(deputy!, three!));
    ok(await ask(boss!, four!));
    expect(await pendingFrom(four!, boss!)).toHaveLength(1);
    // Only between members, and only by members.
    expectError(await ask(boss!, stranger), 'VALIDATION_FAILED');
    expectError(await ask(boss!, boss!), 'VALIDATION_FAILED');
    expectError(await ask(stranger, one!), 'GROUP_NOT_FOUND');
    ok(await call(boss!, 'PATCH', `/groups/${group.id}`, { privateChat: true }));
    ok(await ask(one!, three!));
  });

  it('applies mutes, mute-all and message kinds to members, not to admins', async () => {
    const group = await createGroup(owner, [admin, member]);
    ok(
      await call(owner, 'PUT', `/groups/${group.id}/members/${admin.user.id}/role`, {
        role: 'admin',
      }),
    );
    ok(
      await call(admin, 'PUT', `/groups/${group.id}/members/${member.user.id}/mute`, {
        seconds: 600,
      }),
    );
    expectError(await send(member, group.id, 'hm'), 'MUTED_IN_GROUP');
    t.clock.advance(601_000);
    ok(await send(member, group.id, 'free again'));

    ok(await call(admin, 'PATCH', `/groups/${group.id}`, { allMuted: true }));
    expectError(await send(member, group.id, 'hm'), 'GROUP_ALL_MUTED');
    ok(await send(admin, group.id, 'admins speak'));
    // A new group allows every kind; each can be turned off on its own.
    expect(group.allowedKinds).toEqual([
      'text',
      'image',
      'voice',
      'video',
      'file',
      'location',
      'card',
      'face',
      'merged',
    ]);
    ok(await call(admin, 'PATCH', `/groups/${group.id}`, { allMuted: false }));
    const place = { kind: 'location', latitude: 1.5, longitude: 103.8, name: 'Marina' };
    const sendPlace = (from: RegisteredUser) =>
      call(from, 'POST', '/messages', {
        conversationId: `sg_${group.id}`,
        clientMsgId: clientId(),
        content: place,
      });
    ok(await sendPlace(member));
    ok(await call(admin, 'PATCH', `/groups/${group.id}`, { allowedKinds: ['text'] }));
    expectError(await sendPlace(member), 'MESSAGE_KIND_NOT_ALLOWED');
    ok(await send(member, group.id, 'text still goes'));
    ok(await sendPlace(admin));
    ok(await call(admin, 'PATCH', `/groups/${group.id}`, { allMuted: false, allowedKinds: [] }));
    expectError(await send(member, group.id, 'text'), 'MESSAGE_KIND_NOT_ALLOWED');
    ok(await send(owner, group.id, 'owners too'));

    const events = (await pull(member, group.id)).flatMap((m) =>
      m.content.kind === 'system' ? [m.content.event] : [],
    );
    expect(events).toEqual(['created', 'adminAdded', 'muted', 'allMuted', 'allUnmuted']);
  });

  it('counts readers from read marks, naming them in small groups', async () => {
    const group = await createGroup(owner, [admin, member, target]);
    ok(
      await call(owner, 'PUT', `/groups/${group.id}/members/${admin.user.id}/role`, {
        role: 'admin',
      }),
    );
    const message = ok<Message>(await send(member, group.id, 'read me'));
    ok(await call(target, 'POST', `/conversations/sg_${group.id}/read`, { seq: message.seq }));
    const reads = `/groups/${group.id}/messages/${message.seq}/reads`;
    const mine = ok<MessageReadsResult>(await call(member, 'GET', reads));
    expect(mine.readCount).toBe(1);
    expect(mine.memberCount).toBe(3);
    expect(mine.readers?.map((r) => r.id)).toEqual([target.user.id]);
    expect(ok<MessageReadsResult>(await call(admin, 'GET', reads)).readCount).toBe(1);
    expectError(await call(target, 'GET', reads), 'GROUP_ROLE_REQUIRED');
    expectError(await call(stranger, 'GET', reads), 'GROUP_NOT_FOUND');
    expectError(
      await call(member, 'GET', `/groups/${group.id}/messages/999/reads`),
      'MESSAGE_NOT_FOUND',
    );
    // Past the detail limit only the count is given.
    await t.ctx.db
      .updateTable('groups')
      .set({ member_count: GROUP_READERS_DETAIL_MAX + 1 })
      .where('id', '=', group.id)
      .execute();
    const big = ok<MessageReadsResult>(await call(member, 'GET', reads));
    expect(big).toMatchObject({ readCount: 1, readers: null });
  });

  it('refuses to grow past the member limit', async () => {
    const group = await createGroup(owner, [member]);
    // Stands in for a nearly full group: the limit is checked against member_count.
    await t.ctx.db
      .updateTable('groups')
      .set({ member_count: GROUP_MAX_MEMBERS - 1 })
      .where('id', '=', group.id)
      .execute();
    const full = expectError(
      await call(owner, 'POST', `/groups/${group.id}/members`, {
        userIds: [friend.user.id, target.user.id],
      }),
      'GROUP_FULL',
    );
    expect(full.message).toContain(String(GROUP_MAX_MEMBERS));
    expect(
      ok(await call(owner, 'POST', `/groups/${group.id}/members`, { userIds: [target.user.id] })),
    ).toEqual({ added: 1 });
    ok(await call(owner, 'PATCH', `/groups/${group.id}`, { verification: 'open' }));
    expectError(await call(friend, 'POST', `/groups/${group.id}/join`, {}), 'GROUP_FULL');
  });

  it('pages and searches the member list: owner, admins, then members by joining', async () => {
    const group = await createGroup(owner, [member, admin, target]);
    ok(
      await call(owner, 'PUT', `/groups/${group.id}/members/${target.user.id}/role`, {
        role: 'admin',
      }),
    );
    t.clock.advance(1000);
    ok(await call(owner, 'POST', `/groups/${group.id}/members`, { userIds: [friend.user.id] }));
    ok(await call(friend, 'PATCH', `/groups/${group.id}/me`, { nickname: 'Captain' }));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const page: GroupMembersResult = ok<GroupMembersResult>(
        await call(member, 'GET', `/groups/${group.id}/members?limit=2${query}`),
      );
      expect(page.members.length).toBeLessThanOrEqual(2);
      seen.push(...page.members.map((m) => `${m.role}:${m.user.nickname}`));
      cursor = page.nextCursor;
    } while (cursor);
    const members = seen.slice(2, 4).sort();
    expect(seen.slice(0, 2)).toEqual(['owner:Olivia', 'admin:Tara']);
    expect(members).toEqual(['member:Adam', 'member:Mia']);
    expect(seen[4]).toBe('member:Finn');

    const search = async (q: string) =>
      ok<GroupMembersResult>(
        await call(member, 'GET', `/groups/${group.id}/members?q=${encodeURIComponent(q)}`),
      ).members.map((m) => m.user.nickname);
    expect(await search('tar')).toEqual(['Tara']);
    expect(await search('capt')).toEqual(['Finn']);
    expect(await search(friend.user.teltlkId)).toEqual(['Finn']);
    expect(await search('%')).toEqual([]);
    expectError(
      await call(member, 'GET', `/groups/${group.id}/members?cursor=nonsense`),
      'VALIDATION_FAILED',
    );
    const mine = ok<MyGroup>(
      await call(friend, 'PATCH', `/groups/${group.id}/me`, { remark: 'Work', nickname: '' }),
    );
    expect(mine.me).toMatchObject({ nickname: null, remark: 'Work' });
  });

  it('refuses names with control or text-direction characters, where they are set', async () => {
    const group = await createGroup(owner, [member]);
    // U+202E turns what follows a name around: "Ana<RLO>gnp.exe" shows as "Anaexe.png".
    const spoof = 'Ana\u202Egnp.exe';
    const refused = [
      await call(owner, 'POST', '/groups', { memberIds: [member.user.id], name: spoof }),
      await call(owner, 'PATCH', `/groups/${group.id}`, { name: spoof }),
      await call(member, 'PATCH', `/groups/${group.id}/me`, { nickname: 'Mia\u2066' }),
      await call(member, 'PATCH', `/groups/${group.id}/me`, { remark: 'Work\u200f' }),
      await call(owner, 'PATCH', `/friends/${member.user.id}`, { remark: 'Mia\u0085' }),
      // (A NUL anywhere in a request is refused before any field rule: see http/nul.test.ts.)
      await call(member, 'PATCH', '/me', { nickname: 'Mia\u0007' }),
    ];
    for (const response of refused) {
      expect(expectError(response, 'VALIDATION_FAILED').issues?.map((i) => i.rule)).toEqual([
        'nameCharacters',
      ]);
    }
    expect(ok<MyGroup>(await call(owner, 'GET', `/groups/${group.id}`)).name).not.toBe(spoof);
  });

  it('writes setting changes as notices, and tells every member of a dismissal', async () => {
    const group = await createGroup(owner, [member]);
    const updated = ok<MyGroup>(
      await call(owner, 'PATCH', `/groups/${group.id}`, { name: 'Pioneers', notice: 'Be kind' }),
    );
    expect(updated).toMatchObject({ name: 'Pioneers', notice: 'Be kind' });
    expect(updated.noticeAt).not.toBeNull();
    const notices = (await pull(member, group.id)).map((m) => m.content);
    expect(notices).toContainEqual({
      kind: 'system',
      event: 'renamed',
      actorId: owner.user.id,
      targetIds: [],
      text: 'Pioneers',
    });
    expect(notices).toContainEqual(
      expect.objectContaining({ event: 'noticeChanged', text: 'Be kind' }),
    );
    const { payload, headers } = await imageUpload();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/groups/${group.id}/avatar`,
      payload,
      headers: { ...headers, authorization: `Bearer ${owner.token}` },
    });
    const { avatarUrl } = ok<MyGroup>(uploaded);
    expect(avatarUrl).toMatch(/^\/files\/group-avatars\/[0-9a-z]+\.webp$/);
    expect((await t.call('GET', avatarUrl ?? '')).statusCode).toBe(200);
    expect((await conversation(member, `sg_${group.id}`))?.group?.avatarUrl).toBe(avatarUrl);
    ok(await call(owner, 'DELETE', `/groups/${group.id}`));
    for (const user of [owner, member]) {
      expect((await events(user)).map((e) => e.data)).toContainEqual({
        type: 'groupLeft',
        groupId: group.id,
        reason: 'dismissed',
      });
      expectError(await call(user, 'GET', `/groups/${group.id}`), 'GROUP_NOT_FOUND');
    }
  });
});
