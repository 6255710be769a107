import type { growthEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';

/** Mining, points, team and rankings (Discover). */
export function growthHandlers({
  services: { growth },
}: AppContext): Handlers<typeof growthEndpoints> {
  return {
    mining: ({ auth }) => growth.status(auth),
    checkIn: ({ auth }) => growth.checkIn(auth),
    setReminders: ({ auth, body }) => growth.setReminders(auth, body.on),
    adBoost: ({ auth, body }) => growth.adBoost(auth, body.adId),
    coin: ({ auth }) => growth.coin(auth),
    coinHistory: ({ auth, query }) => growth.history(auth, query),
    team: ({ auth }) => growth.team(auth),
    members: ({ auth, query }) => growth.members(auth, query),
    nudge: async ({ auth, params }) => {
      await growth.nudge(auth, params.id);
      return { ok: true as const };
    },
    ranking: ({ auth, params, query }) => growth.ranking(auth, params.board, query.period),
  };
}
