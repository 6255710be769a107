import {
  deviceLoginCodeBody,
  deviceLoginCreated,
  deviceLoginDecision,
  deviceLoginParams,
  deviceLoginView,
} from '../api.js';
import { endpoint } from '../contract.js';

/**
 * Device login: a signed-out browser shows a ticket (a QR code and a short code); a
 * signed-in device looks at it and approves or refuses it.
 */
export const deviceLoginEndpoints = {
  create: endpoint({
    method: 'POST',
    path: '/auth/device-logins',
    result: deviceLoginCreated,
    errors: [],
    access: 'public',
    limits: ['deviceLoginPerAddress'],
    summary: 'A device-login ticket (QR code and short code), valid 3 minutes',
    tags: ['device login'],
  }),
  view: endpoint({
    method: 'GET',
    path: '/device-logins/:id',
    params: deviceLoginParams,
    result: deviceLoginView,
    errors: ['NOT_FOUND', 'LOGIN_TICKET_EXPIRED'],
    access: 'session',
    limits: ['deviceLoginDecidePerUser'],
    summary: 'The device a scanned ticket signs in: browser, system, address',
    tags: ['device login'],
  }),
  lookup: endpoint({
    method: 'POST',
    path: '/device-logins/lookup',
    body: deviceLoginCodeBody,
    result: deviceLoginView,
    errors: ['LOGIN_CODE_INVALID', 'LOGIN_LOCKED'],
    access: 'session',
    limits: ['deviceLoginCodePerUser'],
    summary: 'The ticket of a typed short code',
    tags: ['device login'],
  }),
  decide: endpoint({
    method: 'POST',
    path: '/device-logins/:id/decision',
    params: deviceLoginParams,
    body: deviceLoginDecision,
    result: deviceLoginView,
    errors: [
      'STEP_UP_REQUIRED',
      'NOT_FOUND',
      'LOGIN_TICKET_DECIDED',
      'LOGIN_TICKET_EXPIRED',
      'DEVICE_MATCH_WRONG',
      'PASSWORD_INCORRECT',
      'LOGIN_LOCKED',
      'WALLET_NOT_FOUND',
      'PAYMENT_PASSWORD_NOT_SET',
      'PAYMENT_PASSWORD_LOCKED',
      'PAYMENT_PASSWORD_INCORRECT',
    ],
    access: 'session',
    limits: ['deviceLoginDecidePerUser'],
    sensitive: { level: 'account', proof: 'inline' },
    summary: 'Approve (sign that device in to my account) or refuse',
    tags: ['device login'],
  }),
};
