import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** A mark outlives its node by at most this long (a node refreshes its marks every third). */
const MARK_TTL_MS = 90_000;
const REFRESH_MS = MARK_TTL_MS / 3;
const PREFIX = 'teltlk:presence:';

/**
 * Which devices (sessions) have a socket open on some node, for pushes that must not go
 * to a device that is online. Each node marks the sessions it holds sockets of in Redis,
 * with an expiry it keeps refreshing, so a crashed node's marks lapse on their own.
 * Redis failing answers "not online": a push too many beats a message missed.
 */
export class SessionPresence {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly local: () => Iterable<string>,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  mark(sessionId: string): void {
    this.redis
      .set(PREFIX + sessionId, '1', 'PX', MARK_TTL_MS)
      .catch((error: unknown) => this.logger.debug({ err: error }, 'presence mark failed'));
  }

  unmark(sessionId: string): void {
    this.redis
      .del(PREFIX + sessionId)
      .catch((error: unknown) => this.logger.debug({ err: error }, 'presence unmark failed'));
  }

  async isOnline(sessionId: string): Promise<boolean> {
    try {
      return (await this.redis.exists(PREFIX + sessionId)) === 1;
    } catch {
      return false;
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.redis.disconnect();
  }

  private refresh(): void {
    const pipeline = this.redis.pipeline();
    let count = 0;
    for (const sessionId of this.local()) {
      pipeline.set(PREFIX + sessionId, '1', 'PX', MARK_TTL_MS);
      count += 1;
    }
    if (count === 0) return;
    pipeline
      .exec()
      .catch((error: unknown) => this.logger.debug({ err: error }, 'presence refresh failed'));
  }
}
