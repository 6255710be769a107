import { USER_SEARCHES_PER_MINUTE } from '@teltlk/protocol';
import { AppError } from '../../errors.js';
import { MINUTE, type Clock } from '../../lib/clock.js';

/**
 * Counts each user's look-ups in a sliding window of one minute. The window lives in this
 * process, so with several nodes a user gets the limit once per node; that still stops
 * bulk enumeration of phones and emails, which is what the limit is for.
 */
export class SearchLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly perMinute = USER_SEARCHES_PER_MINUTE,
  ) {}

  /** Counts one look-up; throws RATE_LIMITED once the window is full. */
  take(userId: string): void {
    const now = this.clock.now();
    const since = now - MINUTE;
    if (this.hits.size > 10_000) this.sweep(since);
    const recent = (this.hits.get(userId) ?? []).filter((at) => at > since);
    if (recent.length >= this.perMinute) {
      this.hits.set(userId, recent);
      throw new AppError('RATE_LIMITED');
    }
    recent.push(now);
    this.hits.set(userId, recent);
  }

  private sweep(since: number): void {
    for (const [userId, times] of this.hits) {
      if (times.every((at) => at <= since)) this.hits.delete(userId);
    }
  }
}
