import { expect } from 'vitest';
import { membersMessage } from './arrange.js';
import {
  GROUP_MEMBERS,
  GROUP_OWNER,
  GROUP_STAFF,
  groupChat,
  OK,
  type Row,
  SIGNED_IN,
  STAFF_ONLY,
} from './cells.js';

/** Groups: their settings, members, roles, applications and avatars. */
export const GROUP_ROWS: Row[] = [
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
];
