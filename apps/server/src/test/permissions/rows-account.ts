import { expect } from 'vitest';
import { authOf, befriend } from '../fixtures.js';
import { PASSWORD } from '../harness.js';
import { OK, OWNER_ONLY_THING, type Row, SIGNED_IN } from './cells.js';

/** Sessions, step-up and activity, the own account, people and contacts. */
export const ACCOUNT_ROWS: Row[] = [
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
];
