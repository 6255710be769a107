import type { deviceLoginEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';

/** Device-login tickets: asked for by a signed-out browser, decided by a signed-in device. */
export function deviceLoginHandlers({
  services: { deviceLogins },
}: AppContext): Handlers<typeof deviceLoginEndpoints> {
  return {
    create: ({ client }) => deviceLogins.create(client),
    view: ({ params }) => deviceLogins.view(params.id),
    lookup: ({ auth, body }) => deviceLogins.viewByCode(auth.userId, body.code),
    decide: ({ auth, params, body, client }) => deviceLogins.decide(auth, params.id, body, client),
  };
}
