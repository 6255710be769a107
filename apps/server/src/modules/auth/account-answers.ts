import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { addressBucket } from '../../lib/address-bucket.js';
import { rateLimited, type RateLimiter } from '../limits/limiter.js';

/** Answers that tell whether an account exists, where the spec names them. */
const ACCOUNT_ANSWERS = new Set(['ACCOUNT_REGISTERED', 'ACCOUNT_NOT_FOUND']);

/**
 * Runs `work` and meters the answers that reveal whether an account exists, per address
 * and in all. Once either meter is empty the route answers nothing about accounts (any
 * answer, even a code sent, would tell) until it refills.
 */
export async function meteringAccountAnswers<T>(
  limits: RateLimiter,
  request: FastifyRequest,
  work: () => Promise<T>,
): Promise<T> {
  const address = addressBucket(request.ip);
  for (const [name, key] of [
    ['accountAnswersPerAddress', address],
    ['accountAnswersGlobal', 'all'],
  ] as const) {
    const decision = await limits.peek(name, key);
    if (!decision.allowed) throw rateLimited(decision.retryAfterMs);
  }
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && ACCOUNT_ANSWERS.has(error.code)) {
      await limits.attempt('accountAnswersPerAddress', address);
      await limits.attempt('accountAnswersGlobal', 'all');
    }
    throw error;
  }
}
