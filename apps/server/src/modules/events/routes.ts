import type { eventEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';

/** The caller's event stream, for catching up after `after`. */
export function eventHandlers({
  services: { events },
}: AppContext): Handlers<typeof eventEndpoints> {
  return {
    page: ({ auth, query }) => events.page(auth.userId, query.after, query.limit),
  };
}
