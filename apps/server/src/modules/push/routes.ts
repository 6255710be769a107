import { pushKeyResult, pushSubscriptionBody } from '@teltlk/protocol';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { authOf, clientOf } from '../../http/auth.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

const tags = ['notifications'];
const security = [{ bearer: [] }];
const noContent = { 204: z.null().describe('No content') };

/** This device's Web Push subscription, and a test push: behind `requireSession`. */
export function pushRoutes(app: App, { services: { push }, limits }: AppContext): void {
  const changes = limitBy(limits, ['pushPerUser', byUser]);
  app.get(
    '/push/key',
    {
      schema: {
        tags,
        summary: "The server's VAPID public key, to subscribe with",
        security,
        response: { 200: pushKeyResult },
      },
      onRequest: limitBy(limits, ['accountReadPerUser', byUser]),
    },
    () => push.publicKey(),
  );
  app.put(
    '/push/subscription',
    {
      schema: {
        tags,
        summary: "This device's push subscription (replaces the one it had)",
        security,
        body: pushSubscriptionBody,
        response: noContent,
      },
      onRequest: changes,
      config: { sensitive: { level: 'account', proof: 'conditional' } },
    },
    async (request, reply) => {
      await push.subscribe(authOf(request), request.body, clientOf(request));
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/push/subscription',
    {
      schema: {
        tags,
        summary: 'No more pushes to this device',
        security,
        response: noContent,
      },
      onRequest: changes,
      config: { sensitive: { level: 'account', proof: 'conditional' } },
    },
    async (request, reply) => {
      await push.unsubscribe(authOf(request), clientOf(request));
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/push/test',
    {
      schema: {
        tags,
        summary: 'A test notification to this device',
        security,
        response: noContent,
      },
      onRequest: limitBy(limits, ['pushTestPerUser', byUser]),
    },
    async (request, reply) => {
      await push.test(authOf(request));
      return reply.code(204).send(null);
    },
  );
}
