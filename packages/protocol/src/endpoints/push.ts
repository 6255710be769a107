import { pushKeyResult, pushSubscriptionBody } from '../api.js';
import { endpoint } from '../contract.js';

/** This device's Web Push subscription, and a test push. */
export const pushEndpoints = {
  key: endpoint({
    method: 'GET',
    path: '/push/key',
    result: pushKeyResult,
    errors: [],
    access: 'session',
    limits: ['accountReadPerUser'],
    summary: "The server's VAPID public key, to subscribe with",
    tags: ['notifications'],
  }),
  subscribe: endpoint({
    method: 'PUT',
    path: '/push/subscription',
    body: pushSubscriptionBody,
    result: null,
    errors: ['PUSH_ENDPOINT_REFUSED', 'STEP_UP_REQUIRED', 'PUSH_ENDPOINT_IN_USE'],
    access: 'session',
    limits: ['pushPerUser'],
    sensitive: { level: 'account', proof: 'conditional' },
    summary: "This device's push subscription (replaces the one it had)",
    tags: ['notifications'],
  }),
  unsubscribe: endpoint({
    method: 'DELETE',
    path: '/push/subscription',
    result: null,
    errors: ['STEP_UP_REQUIRED'],
    access: 'session',
    limits: ['pushPerUser'],
    sensitive: { level: 'account', proof: 'conditional' },
    summary: 'No more pushes to this device',
    tags: ['notifications'],
  }),
  test: endpoint({
    method: 'POST',
    path: '/push/test',
    result: null,
    errors: ['PUSH_NOT_SUBSCRIBED', 'PUSH_FAILED'],
    access: 'session',
    limits: ['pushTestPerUser'],
    summary: 'A test notification to this device',
    tags: ['notifications'],
  }),
};
