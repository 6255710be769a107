import { type MyGroup } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { dialects, expectError } from '../../test/harness.js';
import { imageUpload } from '../../test/fixtures.js';
import { groupWorld } from '../../test/group-world.js';

describe.each(dialects)('group settings on $dialect', ({ dialect }) => {
  const world = groupWorld(dialect);
  const { call, ok, createGroup, pull, events, conversation } = world;

  it('creates a group from friends only, named after its first members', async () => {
    const { owner, admin, member, stranger } = world.people;
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

  it('refuses names with control or text-direction characters, where they are set', async () => {
    const { owner, member } = world.people;
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
    const { t, owner, member } = world.people;
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
