import type { IceServersResult } from '@teltlk/protocol';
import { createHmac } from 'node:crypto';

/** STUN and TURN as configured (CallsConfig.ice). */
export interface IceConfig {
  stunUrls: readonly string[];
  turnUrls: readonly string[];
  /** The secret coturn shares (`static-auth-secret`); null: no TURN. */
  turnSecret: string | null;
  /** How long credentials work, so a call outlives them only if it lasts longer. */
  turnTtlSeconds: number;
  /** Media only through TURN (with TURN configured): no host or reflexive candidates. */
  relayOnly: boolean;
}

/**
 * TURN credentials of the TURN REST scheme coturn implements (`use-auth-secret`): the
 * username is `<expiry in Unix seconds>:<user id>`, the password the base64 of its
 * HMAC-SHA1 under the shared secret. coturn checks both itself, so no password is kept,
 * and one a client leaks stops working at its expiry.
 */
export function turnCredential(
  secret: string,
  userId: string,
  expiresAtSeconds: number,
): { username: string; credential: string } {
  const username = `${expiresAtSeconds}:${userId}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential };
}

/** The ICE servers a user's browser is given now: STUN, and TURN with its own credentials. */
export function iceServersFor(config: IceConfig, userId: string, now: number): IceServersResult {
  const iceServers: IceServersResult['iceServers'] = [];
  if (config.stunUrls.length > 0) iceServers.push({ urls: [...config.stunUrls] });
  if (config.turnSecret === null || config.turnUrls.length === 0) {
    return { iceServers, expiresAt: null, iceTransportPolicy: 'all' };
  }
  const expires = Math.floor(now / 1000) + config.turnTtlSeconds;
  iceServers.push({
    urls: [...config.turnUrls],
    ...turnCredential(config.turnSecret, userId, expires),
  });
  return {
    iceServers,
    expiresAt: expires * 1000,
    iceTransportPolicy: config.relayOnly ? 'relay' : 'all',
  };
}
