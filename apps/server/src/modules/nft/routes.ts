import { idParams, messageSchema, nftItemView, nftListResult, nftSendBody } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

const tags = ['wallet'];
const security = [{ bearer: [] }];

/** NFT assets: behind `requireSession`. Minting and grants are the operator's. */
export function nftRoutes(app: App, { services: { nfts }, limits }: AppContext): void {
  const reads = limitBy(limits, ['walletReadPerUser', byUser]);
  app.get(
    '/wallet/nfts',
    {
      schema: {
        tags,
        summary: 'The NFT assets you hold, newest first',
        security,
        response: { 200: nftListResult },
      },
      onRequest: reads,
    },
    async (request) => ({ items: await nfts.held(authOf(request)) }),
  );
  app.get(
    '/wallet/nfts/:id',
    {
      schema: {
        tags,
        summary: 'One NFT you hold',
        security,
        params: idParams,
        response: { 200: nftItemView },
      },
      onRequest: reads,
    },
    (request) => nfts.item(authOf(request), request.params.id),
  );
  app.post(
    '/wallet/nfts/:id/send',
    {
      schema: {
        tags,
        summary: 'Give an NFT you hold to the other person of a chat, with its message',
        security,
        params: idParams,
        body: nftSendBody,
        response: { 200: messageSchema },
      },
      // A gift is a payment password entry as well.
      onRequest: limitBy(limits, ['moneyPerUser', byUser], ['paymentPasswordPerUser', byUser]),
    },
    (request) => nfts.send(authOf(request), request.params.id, request.body),
  );
}
