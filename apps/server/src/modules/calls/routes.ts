import type { callEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';

/** What a calling device reads over HTTP; the transitions are socket frames (gateway). */
export function callHandlers({ services: { calls } }: AppContext): Handlers<typeof callEndpoints> {
  return {
    current: ({ auth }) => calls.current(auth.userId),
    iceServers: ({ auth }) => calls.iceServers(auth.userId),
    sfu: ({ auth, params }) => calls.sfuJoin(auth, params.id),
  };
}
