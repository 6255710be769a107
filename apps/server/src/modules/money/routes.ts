import type { moneyEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';

/** Transfers and red envelopes in chats. */
export function moneyHandlers({
  services: { money },
}: AppContext): Handlers<typeof moneyEndpoints> {
  return {
    transfer: ({ auth, body }) => money.transfer(auth, body),
    sendEnvelope: ({ auth, body }) => money.sendEnvelope(auth, body),
    envelope: ({ auth, params }) => money.view(auth, params.id),
    openEnvelope: ({ auth, params }) => money.open(auth, params.id),
  };
}
