import {
  coinHistoryResult,
  coinResultSchema,
  idParams,
  miningAdBody,
  miningRemindersBody,
  miningStatusSchema,
  pageQuery,
  rankingParams,
  rankingQuery,
  rankingResultSchema,
  teamMembersResult,
  teamResultSchema,
} from '@teltlk/protocol';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

const tags = ['growth'];
const security = [{ bearer: [] }];

/** Mining, points, team and rankings (Discover): behind `requireSession`. */
export function growthRoutes(app: App, { services: { growth }, limits }: AppContext): void {
  const mining = limitBy(limits, ['miningPerUser', byUser]);
  const read = limitBy(limits, ['growthReadPerUser', byUser]);
  app.get(
    '/growth/mining',
    {
      schema: {
        tags,
        summary: 'My mining state: the session, its rate kind by kind, points so far',
        security,
        response: { 200: miningStatusSchema },
      },
      onRequest: read,
    },
    (request) => growth.status(authOf(request)),
  );
  app.post(
    '/growth/mining/checkin',
    {
      schema: {
        tags,
        summary: 'Daily check-in: starts a 24-hour mining session (answers the running one)',
        security,
        response: { 200: miningStatusSchema },
      },
      onRequest: mining,
    },
    (request) => growth.checkIn(authOf(request)),
  );
  app.put(
    '/growth/mining/reminders',
    {
      schema: {
        tags,
        summary: 'Reminders when a session ends: on or off',
        security,
        body: miningRemindersBody,
        response: { 200: miningStatusSchema },
      },
      onRequest: mining,
    },
    (request) => growth.setReminders(authOf(request), request.body.on),
  );
  app.post(
    '/growth/mining/ad',
    {
      schema: {
        tags,
        summary: "A rewarded ad watched in the Pi Browser: the ad booster for the session's rest",
        security,
        body: miningAdBody,
        response: { 200: miningStatusSchema },
      },
      onRequest: mining,
    },
    (request) => growth.adBoost(authOf(request), request.body.adId),
  );
  app.get(
    '/growth/coin',
    {
      schema: {
        tags,
        summary: 'My points, kind by kind and in all (thousandths)',
        security,
        response: { 200: coinResultSchema },
      },
      onRequest: read,
    },
    (request) => growth.coin(authOf(request)),
  );
  app.get(
    '/growth/coin/history',
    {
      schema: {
        tags,
        summary: 'Settlements and rewards, newest first',
        security,
        querystring: pageQuery,
        response: { 200: coinHistoryResult },
      },
      onRequest: read,
    },
    (request) => growth.history(authOf(request), request.query),
  );
  app.get(
    '/growth/team',
    {
      schema: {
        tags,
        summary: 'My team: who invited me, my invitation code, members and who mines now',
        security,
        response: { 200: teamResultSchema },
      },
      onRequest: read,
    },
    (request) => growth.team(authOf(request)),
  );
  app.get(
    '/growth/team/members',
    {
      schema: {
        tags,
        summary: 'The people I invited, newest first, with their mining state',
        security,
        querystring: pageQuery,
        response: { 200: teamMembersResult },
      },
      onRequest: read,
    },
    (request) => growth.members(authOf(request), request.query),
  );
  app.post(
    '/growth/team/members/:id/nudge',
    {
      schema: {
        tags,
        summary: 'Remind a member I invited to check in (once a day per member)',
        security,
        params: idParams,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
      onRequest: limitBy(limits, ['nudgePerUser', byUser]),
    },
    async (request) => {
      await growth.nudge(authOf(request), request.params.id);
      return { ok: true as const };
    },
  );
  app.get(
    '/growth/rankings/:board',
    {
      schema: {
        tags,
        summary: 'A ranking: the top 100 and my place, this period or the one before',
        security,
        params: rankingParams,
        querystring: rankingQuery,
        response: { 200: rankingResultSchema },
      },
      onRequest: read,
    },
    (request) => growth.ranking(authOf(request), request.params.board, request.query.period),
  );
}
