import {
  GROUP_PERMISSIONS,
  mayInGroup,
  type ErrorCode,
  type GroupAction,
  type GroupApplicationListResult,
  type MyGroup,
} from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, type RegisteredUser } from '../../test/harness.js';
import { imageUpload } from '../../test/fixtures.js';
import { groupWorld } from '../../test/group-world.js';

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

describe.each(dialects)('group authorization on $dialect', ({ dialect }) => {
  const world = groupWorld(dialect);
  const { call, ok, send, cast } = world;

  describe('authorization matrix', () => {
    const users = (): Record<Actor, RegisteredUser> => {
      const { owner, admin, member, muted, removed, stranger } = world.people;
      return { owner, admin, member, muted, removed, stranger };
    };

    /** Performs one action of the table as `user` in a fresh group. */
    async function act(action: GroupAction, user: RegisteredUser, group: MyGroup) {
      const { t, target, applicant, friend } = world.people;
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
      const { owner, admin, stranger, target } = world.people;
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
});
