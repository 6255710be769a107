import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../modules/limits/limiter.js';
import type { LimitName } from '../modules/limits/rules.js';
import { authOf } from './auth.js';
import { addressBucket } from '../lib/address-bucket.js';

/** What a bucket counts for one request; null: this check does not apply to it. */
export type LimitKey = (request: FastifyRequest) => string | null;

export const byAddress: LimitKey = (request) => addressBucket(request.ip);
export const byUser: LimitKey = (request) => authOf(request).userId;

/** A route hook that takes from rate-limit buckets, naming their classes. */
export interface LimitHook {
  (request: FastifyRequest): Promise<void>;
  /** The classes it takes from, in order: what a route's hooks say about how it is limited. */
  readonly limitClasses: readonly LimitName[];
}

/**
 * A route hook taking one token from each named bucket, in order; the first that is empty
 * refuses the request with RATE_LIMITED before any work is done. Name the narrowest bucket
 * first (a pair before its user), so a refusal there spends nothing from the wider one. As an `onRequest` hook it
 * runs before the body is read; as a `preHandler`, keys may read the parsed body.
 */
export function limitBy(limits: RateLimiter, ...checks: [LimitName, LimitKey][]): LimitHook {
  const hook = async (request: FastifyRequest): Promise<void> => {
    for (const [name, keyOf] of checks) {
      const key = keyOf(request);
      if (key !== null) await limits.consume(name, key);
    }
  };
  return Object.assign(hook, { limitClasses: checks.map(([name]) => name) });
}

/** The rate-limit classes a route hook carries (limitBy); none for any other hook. */
export function limitClassesOf(hook: unknown): readonly LimitName[] {
  if (typeof hook !== 'function') return [];
  return (hook as Partial<LimitHook>).limitClasses ?? [];
}

/**
 * Makes `hook` the first onRequest hook of every route registered in `scope` from now on:
 * for plugins that add routes of their own and take no hooks for them (static files, the
 * API docs' pages), so that those routes carry their limit class like any other.
 */
export function limitEveryRoute(scope: FastifyInstance, hook: LimitHook): void {
  scope.addHook('onRoute', (route) => {
    route.onRequest = [hook, ...[route.onRequest ?? []].flat()];
  });
}
