import { GROUP_MAX_MEMBERS, type GroupApplicationListResult, type MyGroup } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { dialects, expectError } from '../../test/harness.js';
import { groupWorld } from '../../test/group-world.js';

describe.each(dialects)('joining groups on $dialect', ({ dialect }) => {
  const world = groupWorld(dialect);
  const { call, ok, createGroup, send, pull, events, conversation } = world;

  it('joins in each verification mode, with applications live to admins', async () => {
    const { owner, admin, member, stranger, friend, applicant } = world.people;
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
    const { owner, member, friend } = world.people;
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

  it('refuses to grow past the member limit', async () => {
    const { t, owner, member, target, friend } = world.people;
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
});
