import type { securityEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';

/** Step-up, security activity, addresses and their undo links. */
export function securityHandlers({
  services: { security, securityActivity },
}: AppContext): Handlers<typeof securityEndpoints> {
  return {
    stepUpStatus: ({ auth }) => security.status(auth),
    sendStepUpCode: ({ auth, body, request, language }) =>
      security.sendCode(auth, body.channel, { ip: request.ip, language }),
    stepUp: ({ auth, body }) => security.prove(auth, body),
    activity: ({ auth, query }) => securityActivity.list(auth.userId, query),
    setAddress: ({ auth, body, client }) => security.setAddress(auth, body.ticket, client),
    addressUndoView: ({ params }) => security.undoView(params.token),
    undoAddress: ({ body, client }) => security.undo(body.token, client),
  };
}
