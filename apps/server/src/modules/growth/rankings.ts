import type { RankingBoard } from '@teltlk/protocol';
import type { ChainableCommander, Redis } from 'ioredis';
import type { Logger } from 'pino';
import { sql } from 'kysely';
import type { Db } from '../../db/schema.js';
import { DAY } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import { ALL_TIME } from './periods.js';

/**
 * Rankings: each board's value per person and period, in SQL (the record) and, when
 * REDIS_URL is set, in a Redis sorted set per board and period (the fast read). Both give
 * the same order: higher value first, equal values by the smaller user id (byte order).
 *
 * Values only grow, so every write to Redis is `ZADD LT` of the value the database holds
 * after its commit (the score is the value negated): writes arriving in any order, a retry
 * and a rebuild from SQL running beside live writes all end at the largest value, which
 * is the database's. A set is read only once a rebuild from SQL has filled it (its `ready`
 * mark); until then, and whenever Redis fails, the answer comes from SQL. The mark expires
 * daily, so a write Redis missed is mended by the next rebuild.
 */

export interface RankedValue {
  userId: string;
  value: number;
}

/** A place on a board (1 first; null when not on it) and the value there. */
export interface Place {
  rank: number | null;
  value: number;
}

/** ZRANGE … WITHSCORES as places in order (scores are values negated). */
function topOf(reply: unknown): RankedValue[] {
  const flat = reply as string[];
  const rows: RankedValue[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    rows.push({ userId: flat[i]!, value: -Number(flat[i + 1]) });
  }
  return rows;
}

/** ZRANK and ZSCORE of a person as their place. */
function placeOf(rank: unknown, score: unknown): Place {
  return rank === null || score === null
    ? { rank: null, value: 0 }
    : { rank: Number(rank) + 1, value: -Number(score) };
}

export interface RankUpdate extends RankedValue {
  board: RankingBoard;
  period: string;
}

/** The row of growth_settings naming this database (not a setting). */
const INSTANCE_KEY = 'rankingsInstance';
/** Rows read per page while rebuilding a set from SQL. */
const REBUILD_PAGE = 5_000;
/** How long a set is trusted before it is rebuilt from SQL. */
const READY_TTL_MS = DAY;
/** Sets of closed periods are dropped this long after their period (SQL keeps them). */
const PERIOD_TTL_MS: Record<RankingBoard, number | null> = {
  points: null,
  dayInvites: 3 * DAY,
  monthInvites: 70 * DAY,
};

export class Rankings {
  private scope: Promise<string> | null = null;
  /** Updates Redis missed, sent again with the next write. */
  private readonly missed = new Map<string, RankUpdate>();
  private readonly rebuilding = new Set<string>();
  /** Redis writes and rebuilds under way; each settles (failures are logged, not thrown). */
  private readonly underWay = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      db: Db;
      redis: Redis | null;
      logger: Logger;
      prefix: string;
    },
  ) {}

  /** Adds `delta` to a person's value inside the caller's transaction; the new value. */
  async add(
    trx: Db,
    board: RankingBoard,
    period: string,
    userId: string,
    delta: number,
  ): Promise<RankUpdate> {
    const row = await trx
      .insertInto('rank_values')
      .values({ board, period, user_id: userId, value: delta })
      .onConflict((c) =>
        c
          .columns(['board', 'period', 'user_id'])
          .doUpdateSet({ value: sql`rank_values.value + ${delta}` }),
      )
      .returning('value')
      .executeTakeFirstOrThrow();
    return { board, period, userId, value: Number(row.value) };
  }

  /** After the transaction of `add` committed: the new values to Redis. */
  publish(updates: readonly RankUpdate[]): void {
    const { redis } = this.deps;
    if (!redis || updates.length === 0) return;
    for (const update of updates) this.missed.set(this.memberKey(update), update);
    const batch = [...this.missed.values()];
    this.missed.clear();
    const write = this.scoped()
      .then(async (base) => {
        const pipeline = redis.pipeline();
        for (const update of batch) {
          const key = this.key(base, update.board, update.period);
          pipeline.zadd(key, 'LT', -update.value, update.userId);
          const ttl = PERIOD_TTL_MS[update.board];
          if (ttl !== null) pipeline.pexpire(key, ttl);
        }
        const results = await pipeline.exec();
        if (!results || results.some(([error]) => error)) throw new Error('a ranking write failed');
      })
      .catch((error: unknown) => {
        for (const update of batch) {
          const key = this.memberKey(update);
          const newer = this.missed.get(key);
          if (!newer || newer.value < update.value) this.missed.set(key, update);
        }
        this.deps.logger.warn({ err: error }, 'rankings: Redis write failed, sent again later');
      });
    this.track(write);
  }

  /** The top `n` of a board's period, and a person's place and value: one Redis round trip. */
  async standing(
    board: RankingBoard,
    period: string,
    userId: string,
    n: number,
  ): Promise<{ top: RankedValue[]; me: Place }> {
    const fast = await this.fromRedis(
      board,
      period,
      (pipeline, key) => {
        pipeline.zrange(key, '0', String(n - 1), 'WITHSCORES');
        pipeline.zrank(key, userId);
        pipeline.zscore(key, userId);
      },
      ([flat, rank, score]) => ({ top: topOf(flat), me: placeOf(rank, score) }),
    );
    if (fast) return fast;
    const [top, me] = await Promise.all([
      this.topInSql(board, period, n),
      this.rankInSql(board, period, userId),
    ]);
    return { top, me };
  }

  /** The top `n` of a board's period, in order. */
  async top(board: RankingBoard, period: string, n: number): Promise<RankedValue[]> {
    const fast = await this.fromRedis(
      board,
      period,
      (pipeline, key) => {
        pipeline.zrange(key, '0', String(n - 1), 'WITHSCORES');
      },
      ([flat]) => topOf(flat),
    );
    return fast ?? this.topInSql(board, period, n);
  }

  /** The top `n` from the record itself (rewards read it: a closed period's set may be gone). */
  async topInSql(board: RankingBoard, period: string, n: number): Promise<RankedValue[]> {
    const rows = await this.deps.db
      .selectFrom('rank_values')
      .select(['user_id', 'value'])
      .where('board', '=', board)
      .where('period', '=', period)
      .orderBy('value', 'desc')
      .orderBy('user_id')
      .limit(n)
      .execute();
    return rows.map((row) => ({ userId: row.user_id, value: Number(row.value) }));
  }

  /** A person's place (1 first; null when not on the board) and value. */
  async rankOf(board: RankingBoard, period: string, userId: string): Promise<Place> {
    const fast = await this.fromRedis(
      board,
      period,
      (pipeline, key) => {
        pipeline.zrank(key, userId);
        pipeline.zscore(key, userId);
      },
      ([rank, score]) => placeOf(rank, score),
    );
    return fast ?? this.rankInSql(board, period, userId);
  }

  private async rankInSql(board: RankingBoard, period: string, userId: string): Promise<Place> {
    const { db } = this.deps;
    const mine = await db
      .selectFrom('rank_values')
      .select('value')
      .where('board', '=', board)
      .where('period', '=', period)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!mine) return { rank: null, value: 0 };
    const value = Number(mine.value);
    // Two counts, each one range of the (board, period, value desc, user_id) index.
    const [above, tiedBefore] = await Promise.all([
      db
        .selectFrom('rank_values')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('board', '=', board)
        .where('period', '=', period)
        .where('value', '>', value)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('rank_values')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('board', '=', board)
        .where('period', '=', period)
        .where('value', '=', value)
        .where('user_id', '<', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rank: Number(above.n) + Number(tiedBefore.n) + 1, value };
  }

  /** Fills the set of a board's period from SQL (live writes may run beside it). */
  async rebuild(board: RankingBoard, period: string): Promise<void> {
    const { redis, db } = this.deps;
    if (!redis) return;
    const key = this.key(await this.scoped(), board, period);
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom('rank_values')
        .select(['user_id', 'value'])
        .where('board', '=', board)
        .where('period', '=', period)
        .where('user_id', '>', after)
        .orderBy('user_id')
        .limit(REBUILD_PAGE)
        .execute();
      if (rows.length === 0) break;
      const args: (string | number)[] = [];
      for (const row of rows) args.push(-Number(row.value), row.user_id);
      await redis.zadd(key, 'LT', ...args);
      after = rows[rows.length - 1]!.user_id;
      if (rows.length < REBUILD_PAGE) break;
    }
    const ttl = PERIOD_TTL_MS[board];
    if (ttl !== null) await redis.pexpire(key, ttl);
    await redis.set(`${key}:ready`, '1', 'PX', READY_TTL_MS);
  }

  /**
   * Reads from the board's set in one pipeline, behind its `ready` mark; null (answer from
   * SQL) while the set is not filled yet (a rebuild starts) or when Redis fails.
   */
  private async fromRedis<T>(
    board: RankingBoard,
    period: string,
    commands: (pipeline: ChainableCommander, key: string) => void,
    parse: (replies: unknown[]) => T,
  ): Promise<T | null> {
    const { redis, logger } = this.deps;
    if (!redis) return null;
    try {
      const key = this.key(await this.scoped(), board, period);
      const pipeline = redis.pipeline().exists(`${key}:ready`);
      commands(pipeline, key);
      const results = await pipeline.exec();
      if (!results || results.some(([error]) => error)) throw new Error('a ranking read failed');
      const [ready, ...replies] = results.map(([, reply]) => reply);
      if (ready === 0) {
        this.startRebuild(board, period);
        return null;
      }
      return parse(replies);
    } catch (error) {
      logger.warn({ err: error }, 'rankings: Redis read failed, answered from SQL');
      return null;
    }
  }

  /** One rebuild per set at a time on this node (a second node rebuilding too is harmless). */
  private startRebuild(board: RankingBoard, period: string): void {
    const key = `${board}\n${period}`;
    if (this.rebuilding.has(key)) return;
    this.rebuilding.add(key);
    this.track(
      this.rebuild(board, period)
        .catch((error: unknown) => {
          this.deps.logger.warn({ err: error, board, period }, 'rankings: rebuild failed');
        })
        .finally(() => this.rebuilding.delete(key)),
    );
  }

  private track(work: Promise<void>): void {
    this.underWay.add(work);
    void work.finally(() => this.underWay.delete(work));
  }

  /**
   * Resolves once the Redis writes and rebuilds under way have ended, those started
   * meanwhile included.
   */
  async settled(): Promise<void> {
    while (this.underWay.size > 0) await Promise.all(this.underWay);
  }

  private key(base: string, board: RankingBoard, period: string): string {
    return `${base}${board}:${period === ALL_TIME ? 'all' : period}`;
  }

  /**
   * Key prefix of this database's sets: the configured prefix and the database's own
   * id (made once, kept in growth_settings), so databases sharing one Redis (test runs,
   * benchmarks, staging beside production) never read each other's rankings.
   */
  private scoped(): Promise<string> {
    this.scope ??= (async () => {
      const { db, prefix } = this.deps;
      await db
        .insertInto('growth_settings')
        .values({ key: INSTANCE_KEY, value: JSON.stringify(newId()), updated_at: Date.now() })
        .onConflict((c) => c.column('key').doNothing())
        .execute();
      const row = await db
        .selectFrom('growth_settings')
        .select('value')
        .where('key', '=', INSTANCE_KEY)
        .executeTakeFirstOrThrow();
      return `${prefix}${JSON.parse(row.value) as string}:`;
    })();
    this.scope.catch(() => {
      this.scope = null;
    });
    return this.scope;
  }

  private memberKey(update: RankUpdate): string {
    return `${update.board}\n${update.period}\n${update.userId}`;
  }
}
