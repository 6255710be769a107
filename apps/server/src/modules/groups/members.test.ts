import {
  GROUP_READERS_DETAIL_MAX,
  type FriendRequest,
  type GroupMembersResult,
  type Message,
  type MessageReadsResult,
  type MyGroup,
  type ServerFrame,
} from '@teltlk/protocol';
import { describe, expect, it, vi } from 'vitest';
import { dialects, expectError, type RegisteredUser } from '../../test/harness.js';
import { clientId, groupWorld } from '../../test/group-world.js';

describe.each(dialects)('group members on $dialect', ({ dialect }) => {
  const world = groupWorld(dialect);
  const { befriend, call, ok, createGroup, send, pull, events, requestsOf, conversation } = world;

  it('stops a removed member at once: no pushes, no reads, no sends', async () => {
    const { t, owner, member, removed } = world.people;
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
    const { owner, member, stranger, target, friend } = world.people;
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
    const { t } = world.people;
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
    const { t, stranger } = world.people;
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
    const { t, owner, admin, member } = world.people;
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
    const { t, owner, admin, member, stranger, target } = world.people;
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

  it('pages and searches the member list: owner, admins, then members by joining', async () => {
    const { t, owner, admin, member, target, friend } = world.people;
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
});
