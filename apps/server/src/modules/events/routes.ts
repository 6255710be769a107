import { eventPageQuery, eventPageResult } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

/** The caller's event stream, for catching up after `after` (behind `requireSession`). */
export function eventRoutes(app: App, { services: { events }, limits }: AppContext): void {
  app.get(
    '/sync/events',
    {
      schema: {
        tags: ['sync'],
        summary: "The caller's events after a seq",
        security: [{ bearer: [] }],
        querystring: eventPageQuery,
        response: { 200: eventPageResult },
      },
      onRequest: limitBy(limits, ['syncPerUser', byUser]),
    },
    (request) => events.page(authOf(request).userId, request.query.after, request.query.limit),
  );
}
