import type { pushEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';

/** This device's Web Push subscription, and a test push. */
export function pushHandlers({ services: { push } }: AppContext): Handlers<typeof pushEndpoints> {
  return {
    key: () => push.publicKey(),
    subscribe: ({ auth, body, client }) => push.subscribe(auth, body, client),
    unsubscribe: ({ auth, client }) => push.unsubscribe(auth, client),
    test: ({ auth }) => push.test(auth),
  };
}
