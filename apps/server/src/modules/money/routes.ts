import {
  envelopeBody,
  envelopeView,
  idParams,
  messageSchema,
  transferBody,
} from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

const tags = ['wallet'];
const security = [{ bearer: [] }];

/** Transfers and red envelopes in chats: behind `requireSession`. */
export function moneyRoutes(app: App, { services: { money }, limits }: AppContext): void {
  // Each one is a payment password entry as well.
  const sends = limitBy(limits, ['moneyPerUser', byUser], ['paymentPasswordPerUser', byUser]);
  app.post(
    '/wallet/transfers',
    {
      schema: {
        tags,
        summary: 'Transfer Pi to the other person of a chat, with its message',
        security,
        body: transferBody,
        response: { 200: messageSchema },
      },
      onRequest: sends,
    },
    (request) => money.transfer(authOf(request), request.body),
  );
  app.post(
    '/wallet/envelopes',
    {
      schema: {
        tags,
        summary: 'Send a red envelope into a chat or group',
        security,
        body: envelopeBody,
        response: { 200: messageSchema },
      },
      onRequest: sends,
    },
    (request) => money.sendEnvelope(authOf(request), request.body),
  );
  app.get(
    '/wallet/envelopes/:id',
    {
      schema: {
        tags,
        summary: 'A red envelope of one of your chats: who opened which share',
        security,
        params: idParams,
        response: { 200: envelopeView },
      },
      onRequest: limitBy(limits, ['walletReadPerUser', byUser]),
    },
    (request) => money.view(authOf(request), request.params.id),
  );
  app.post(
    '/wallet/envelopes/:id/open',
    {
      schema: {
        tags,
        summary: 'Open a red envelope: your share, once',
        security,
        params: idParams,
        response: { 200: envelopeView },
      },
      onRequest: limitBy(limits, ['envelopeOpenPerUser', byUser]),
    },
    (request) => money.open(authOf(request), request.params.id),
  );
}
