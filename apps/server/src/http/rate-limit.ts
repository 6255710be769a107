import type { FastifyRequest } from 'fastify';
import type { RateLimiter } from '../modules/limits/limiter.js';
import type { LimitName } from '../modules/limits/rules.js';
import { authOf } from './auth.js';
import { addressBucket } from '../lib/address-bucket.js';

/** What a bucket counts for one request; null: this check does not apply to it. */
export type LimitKey = (request: FastifyRequest) => string | null;

export const byAddress: LimitKey = (request) => addressBucket(request.ip);
export const byUser: LimitKey = (request) => authOf(request).userId;

/**
 * A route hook taking one token from each named bucket, in order; the first that is empty
 * refuses the request with RATE_LIMITED before any work is done. Name the narrowest bucket
 * first (a pair before its user), so a refusal there spends nothing from the wider one. As an `onRequest` hook it
 * runs before the body is read; as a `preHandler`, keys may read the parsed body.
 */
export function limitBy(limits: RateLimiter, ...checks: [LimitName, LimitKey][]) {
  return async (request: FastifyRequest): Promise<void> => {
    for (const [name, keyOf] of checks) {
      const key = keyOf(request);
      if (key !== null) await limits.consume(name, key);
    }
  };
}
