import {
  deviceLoginCodeBody,
  deviceLoginCreated,
  deviceLoginDecision,
  deviceLoginParams,
  deviceLoginView,
} from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import { authOf, clientOf } from '../../http/auth.js';
import { byAddress, byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

const tags = ['device login'];
const security = [{ bearer: [] }];

/** A signed-out browser asks for a device-login ticket to show as a QR code. */
export function deviceLoginTicketRoutes(
  app: App,
  { services: { deviceLogins }, limits }: AppContext,
): void {
  app.post(
    '/auth/device-logins',
    {
      schema: {
        tags,
        summary: 'A device-login ticket (QR code and short code), valid 3 minutes',
        response: { 200: deviceLoginCreated },
      },
      onRequest: limitBy(limits, ['deviceLoginPerAddress', byAddress]),
    },
    (request) => deviceLogins.create(clientOf(request)),
  );
}

/** A signed-in device looks at a ticket and approves or refuses it: behind `requireSession`. */
export function deviceLoginRoutes(app: App, { services: { deviceLogins }, limits }: AppContext) {
  const decide = limitBy(limits, ['deviceLoginDecidePerUser', byUser]);
  app.get(
    '/device-logins/:id',
    {
      schema: {
        tags,
        summary: 'The device a scanned ticket signs in: browser, system, address',
        security,
        params: deviceLoginParams,
        response: { 200: deviceLoginView },
      },
      onRequest: decide,
    },
    (request) => deviceLogins.view(request.params.id),
  );
  app.post(
    '/device-logins/lookup',
    {
      schema: {
        tags,
        summary: 'The ticket of a typed short code',
        security,
        body: deviceLoginCodeBody,
        response: { 200: deviceLoginView },
      },
      onRequest: limitBy(limits, ['deviceLoginCodePerUser', byUser]),
    },
    (request) => deviceLogins.viewByCode(authOf(request).userId, request.body.code),
  );
  app.post(
    '/device-logins/:id/decision',
    {
      schema: {
        tags,
        summary: 'Approve (sign that device in to my account) or refuse',
        security,
        params: deviceLoginParams,
        body: deviceLoginDecision,
        response: { 200: deviceLoginView },
      },
      onRequest: decide,
      config: { sensitive: { level: 'account', proof: 'inline' } },
    },
    (request) =>
      deviceLogins.decide(authOf(request), request.params.id, request.body, clientOf(request)),
  );
}
