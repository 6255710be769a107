import {
  addPhoneBody,
  addressUndoBody,
  addressUndoParams,
  addressUndoView,
  meSchema,
  securityActivityQuery,
  securityActivityResult,
  stepUpBody,
  stepUpCodeBody,
  stepUpCodeResult,
  stepUpStatusSchema,
} from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import { authOf, clientOf, languageOf } from '../../http/auth.js';
import { byAddress, byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

const tags = ['security'];
const security = [{ bearer: [] }];

/** Step-up, security activity and addresses: behind `requireSession`. */
export function securityRoutes(
  app: App,
  { services: { security: service, securityActivity }, limits }: AppContext,
): void {
  const proofs = limitBy(limits, ['stepUpPerUser', byUser]);
  app.get(
    '/security/step-up',
    {
      schema: {
        tags,
        summary: 'Whether this session may do sensitive actions now, and how to prove it may',
        security,
        response: { 200: stepUpStatusSchema },
      },
      onRequest: limitBy(limits, ['stepUpStatusPerUser', byUser]),
    },
    (request) => service.status(authOf(request)),
  );
  app.post(
    '/security/step-up/code',
    {
      schema: {
        tags,
        summary: "Send a step-up code to one of the account's own addresses",
        security,
        body: stepUpCodeBody,
        response: { 200: stepUpCodeResult },
      },
      onRequest: limitBy(limits, ['stepUpPerUser', byUser], ['codeSendPerAddress', byAddress]),
    },
    (request) =>
      service.sendCode(authOf(request), request.body.channel, {
        ip: request.ip,
        language: languageOf(request),
      }),
  );
  app.post(
    '/security/step-up',
    {
      schema: {
        tags,
        summary: 'Prove it is you (password, code, payment password or Pi) for sensitive actions',
        security,
        body: stepUpBody,
        response: { 200: stepUpStatusSchema },
      },
      onRequest: proofs,
    },
    (request) => service.prove(authOf(request), request.body),
  );
  app.get(
    '/security/activity',
    {
      schema: {
        tags,
        summary: 'Sensitive actions and sign-ins on your account, newest first',
        security,
        querystring: securityActivityQuery,
        response: { 200: securityActivityResult },
      },
      onRequest: limitBy(limits, ['securityActivityPerUser', byUser]),
    },
    (request) => securityActivity.list(authOf(request).userId, request.query),
  );
  app.post(
    '/me/phone',
    {
      schema: {
        tags,
        summary:
          'Add a verified phone number or email (replacing one asks for a step-up and tells the old address)',
        security,
        body: addPhoneBody,
        response: { 200: meSchema },
      },
      onRequest: limitBy(limits, ['piAccountPerUser', byUser]),
      config: { sensitive: { level: 'account', proof: 'conditional' } },
    },
    (request) => service.setAddress(authOf(request), request.body.ticket, clientOf(request)),
  );
}

/** The link an old address is sent to undo its replacement: no session needed. */
export function addressUndoRoutes(
  app: App,
  { services: { security: service }, limits }: AppContext,
): void {
  const perAddress = limitBy(limits, ['addressUndoPerAddress', byAddress]);
  app.get(
    '/security/address-undo/:token',
    {
      schema: {
        tags,
        summary: 'What an address-undo link would put back',
        params: addressUndoParams,
        response: { 200: addressUndoView },
      },
      onRequest: perAddress,
    },
    (request) => service.undoView(request.params.token),
  );
  app.post(
    '/security/address-undo',
    {
      schema: {
        tags,
        summary: 'Put a replaced address back and sign every session of the account out',
        body: addressUndoBody,
        response: { 200: addressUndoView },
      },
      onRequest: perAddress,
    },
    (request) => service.undo(request.body.token, clientOf(request)),
  );
}
