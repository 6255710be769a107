import { devEndpoints, metaEndpoints } from '../api.js';
import type { Endpoints } from '../contract.js';
import { favouriteEndpoints } from '../faces.js';
import { growthEndpoints } from '../growth.js';
import { mediaEndpoints } from '../media.js';
import { moneyEndpoints } from '../money.js';
import { piEndpoints } from '../pi.js';
import { securityEndpoints } from '../security.js';
import { translationEndpoints } from '../translation.js';
import { nftEndpoints, paymentEndpoints, walletEndpoints } from '../wallet.js';
import { callEndpoints } from './calls.js';
import { deviceLoginEndpoints } from './device-login.js';
import { pushEndpoints } from './push.js';
import { authEndpoints, sessionEndpoints } from './auth.js';
import { contactEndpoints } from './contacts.js';
import { groupEndpoints } from './groups.js';
import { eventEndpoints, messageEndpoints } from './messages.js';
import { userEndpoints } from './users.js';

export * from './auth.js';
export * from './calls.js';
export * from './contacts.js';
export * from './device-login.js';
export * from './push.js';
export * from './groups.js';
export * from './messages.js';
export * from './users.js';

/**
 * Every group of endpoints in the contract, by name: the contract's own checks, the
 * server's registration tests and the typed client read them all from here (the dev
 * outbox is served outside production only).
 */
export const ENDPOINT_GROUPS = {
  security: securityEndpoints,
  auth: authEndpoints,
  sessions: sessionEndpoints,
  users: userEndpoints,
  contacts: contactEndpoints,
  events: eventEndpoints,
  messages: messageEndpoints,
  translation: translationEndpoints,
  groups: groupEndpoints,
  meta: metaEndpoints,
  dev: devEndpoints,
  media: mediaEndpoints,
  favourites: favouriteEndpoints,
  pi: piEndpoints,
  wallet: walletEndpoints,
  payments: paymentEndpoints,
  money: moneyEndpoints,
  nfts: nftEndpoints,
  growth: growthEndpoints,
  deviceLogins: deviceLoginEndpoints,
  push: pushEndpoints,
  calls: callEndpoints,
} satisfies Record<string, Endpoints>;
