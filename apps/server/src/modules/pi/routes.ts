import type { piEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers, Serving } from '../../http/endpoints.js';
import { byAddress } from '../../http/rate-limit.js';
import { meteringAccountAnswers } from '../auth/routes.js';

/** Pi sign-in and sign-up, the signed-in account's Pi binding, and unfinished Pi payments. */
export function piHandlers({
  services: { pi, recharges },
  limits,
}: AppContext): Handlers<typeof piEndpoints> {
  return {
    config: () => pi.config(),
    login: ({ body, client }) => pi.login(body, client),
    register: ({ body, client }) => pi.register(body, client),
    bind: ({ body, client, request }) =>
      meteringAccountAnswers(limits, request, () => pi.bind(body, client)),
    bindSignedIn: ({ auth, body, client }) => pi.bindSignedIn(auth, body.accessToken, client),
    unbind: ({ auth, client }) => pi.unbind(auth, client),
    resolveIncompletePayment: ({ auth, body }) => recharges.resolveIncomplete(auth, body.paymentId),
  };
}

export const piServing: Partial<Record<keyof typeof piEndpoints, Serving>> = {
  // Counted with the destination's class once the body is read: a request the schema
  // refuses costs neither.
  bind: { keys: { piBindPerAddress: byAddress } },
};
