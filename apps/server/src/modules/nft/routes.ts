import type { nftEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';

/** NFT assets the signed-in person holds. Minting and grants are the operator's. */
export function nftHandlers({ services: { nfts } }: AppContext): Handlers<typeof nftEndpoints> {
  return {
    held: async ({ auth }) => ({ items: await nfts.held(auth) }),
    item: ({ auth, params }) => nfts.item(auth, params.id),
    send: ({ auth, params, body }) => nfts.send(auth, params.id, body),
  };
}
