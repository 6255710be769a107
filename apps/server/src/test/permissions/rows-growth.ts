import { piSandbox } from './arrange.js';
import { OK, type Row, SIGNED_IN } from './cells.js';

/** Mining, coin, team and rankings. */
export const GROWTH_ROWS: Row[] = [
  // ------------------------------------------------------------------ growth
  {
    route: 'GET /api/v1/growth/mining',
    on: "the caller's own mining",
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/mining'),
  },
  {
    route: 'POST /api/v1/growth/mining/checkin',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'POST', '/growth/mining/checkin'),
  },
  {
    route: 'PUT /api/v1/growth/mining/reminders',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'PUT', '/growth/mining/reminders', { on: true }),
  },
  {
    route: 'POST /api/v1/growth/mining/ad',
    on: 'a rewarded ad watched to the end, in the session the check-in row started',
    cells: SIGNED_IN,
    run: (w, as) =>
      w.call(as, 'POST', '/growth/mining/ad', {
        adId: piSandbox.emulator.showAd('rewarded', true).adId,
      }),
  },
  {
    route: 'GET /api/v1/growth/coin',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/coin'),
  },
  {
    route: 'GET /api/v1/growth/coin/history',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/coin/history'),
  },
  {
    route: 'GET /api/v1/growth/team',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/team'),
  },
  {
    route: 'GET /api/v1/growth/team/members',
    on: 'the people the caller invited',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/team/members'),
  },
  {
    route: 'POST /api/v1/growth/team/members/:id/nudge',
    on: 'a new person the owner invited',
    // Only the inviter reminds; to anyone else the person is in no team of theirs.
    cells: {
      owner: OK,
      admin: 'TEAM_MEMBER_NOT_FOUND',
      member: 'TEAM_MEMBER_NOT_FOUND',
      blocked: 'TEAM_MEMBER_NOT_FOUND',
      removed: 'TEAM_MEMBER_NOT_FOUND',
      stranger: 'TEAM_MEMBER_NOT_FOUND',
    },
    run: async (w, as) => {
      const owner = await w.t.ctx.services.users.get(w.users.owner.user.id);
      const invitee = await w.t.register({ inviteCode: owner.invite_code });
      return w.call(as, 'POST', `/growth/team/members/${invitee.user.id}/nudge`);
    },
  },
  {
    route: 'GET /api/v1/growth/rankings/:board',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/growth/rankings/points'),
  },
];
