import type { messageEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers, Servings } from '../../http/endpoints.js';
import { blankAware } from './service.js';

/** Conversations and messages; the socket's `send` is the fast path. */
export function messageHandlers({
  services: { messages },
}: AppContext): Handlers<typeof messageEndpoints> {
  return {
    syncConversations: ({ auth, query }) => messages.sync(auth.userId, query),
    page: ({ auth, params, query }) => messages.page(auth.userId, params.id, query),
    send: ({ auth, body }) => messages.send(auth.userId, body),
    update: ({ auth, params, body }) => messages.update(auth.userId, params.id, body),
    clear: ({ auth, params }) => messages.clear(auth.userId, params.id),
    setBurn: ({ auth, params, body }) => messages.setBurn(auth.userId, params.id, body.seconds),
    read: ({ auth, params, body }) => messages.read(auth.userId, params.id, body.seq),
    revoke: ({ auth, params }) => messages.revoke(auth.userId, params.id, params.seq),
    search: ({ auth, query }) => messages.search(auth.userId, query),
    edit: ({ auth, params, body }) => messages.edit(auth.userId, params.id, params.seq, body.text),
    hide: ({ auth, params }) => messages.hide(auth.userId, params.id, params.seq),
  };
}

/** Blank text is answered as BLANK_MESSAGE, its schema's refusal included. */
export const messageServing: Servings<typeof messageEndpoints> = {
  send: { mapError: blankAware },
  edit: { mapError: blankAware },
};
