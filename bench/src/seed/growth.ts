import { RANKING_TOP, type RankingBoard } from '@teltlk/protocol';
import {
  ALL_TIME,
  dayOf,
  monthOf,
  parseOptions,
  periodOf,
  randomFrom,
  Rankings,
  UsageError,
  type AppContext,
  type OperatorCommand,
  type RankValuesTable,
} from '@teltlk/server/tools';
import { sql, type Insertable } from 'kysely';
import { inSyntheticBatches, median, rawInsertRate, refuseInProduction } from './rows.js';

/**
 * The growth benchmark: rankings read at a million people (top 100
 * plus my place, with the cards of the top), and check-ins per second through the
 * service against single-row inserts of the same database.
 */

const ROWS_PER_STATEMENT = 5_000;
/** Real accounts at the top of each board, so the top 100's cards are read as in use. */
const TOP_ACCOUNTS = 150;
const CHECKIN_CHAINS = 16;
/** Account rows per statement: within SQLite's bound parameters (about 25 columns each). */
const USERS_PER_STATEMENT = 1_000;

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** A skewed value with many ties, as points and invites are: most small, few large. */
function skewed(max: number, step: number): number {
  return Math.max(step, Math.round((max * Math.random() ** 3) / step) * step);
}

async function populate(
  ctx: AppContext,
  users: number,
): Promise<{ ids: string[]; seconds: number }> {
  const { db } = ctx;
  const started = performance.now();
  const tag = randomFrom('abcdefghjkmnpqrstuvwxyz', 5);
  const now = ctx.clock.now();
  const boards: [RankingBoard, string, number, (i: number) => number | null][] = [
    // Everyone has points (thousandths; many at the same values).
    ['points', ALL_TIME, users, () => skewed(5_000_000, 250)],
    // A fifth invited someone this month, a twentieth today.
    ['monthInvites', monthOf(now), users, (i) => (i % 5 === 0 ? skewed(60, 1) : null)],
    ['dayInvites', dayOf(now), users, (i) => (i % 20 === 0 ? skewed(8, 1) : null)],
  ];
  const ids: string[] = [];
  for (let i = 0; i < users; i += 1) ids.push(`bg${tag}${String(i).padStart(8, '0')}`);
  for (const [board, period, count, valueOf] of boards) {
    for (let start = 0; start < count; start += ROWS_PER_STATEMENT) {
      const rows: Insertable<RankValuesTable>[] = [];
      for (let i = start; i < Math.min(count, start + ROWS_PER_STATEMENT); i += 1) {
        const value = valueOf(i);
        if (value !== null) rows.push({ board, period, user_id: ids[i]!, value });
      }
      if (rows.length > 0) await db.insertInto('rank_values').values(rows).execute();
    }
  }
  // Real accounts above everyone, whose cards the top 100 shows.
  await inSyntheticBatches(ctx, TOP_ACCOUNTS, async (accounts) => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(accounts).execute();
      for (const [board, period, ,] of boards) {
        await trx
          .insertInto('rank_values')
          .values(
            accounts.map((account, index) => ({
              board,
              period,
              user_id: account.id,
              value: (board === 'points' ? 10_000_000 : 1_000) + index,
            })),
          )
          .execute();
      }
    });
  });
  // After a bulk load, as an operator would: PostgreSQL's planner statistics and
  // visibility map (index-only scans) are otherwise left to autovacuum's next round.
  if (ctx.dialect === 'postgres') await sql`VACUUM ANALYZE rank_values`.execute(db);
  return { ids, seconds: (performance.now() - started) / 1000 };
}

const growth: OperatorCommand = {
  usage: 'growth [--users <n>] [--reads <n>] [--checkins <n>] [--rounds <n>]',
  summary:
    'Put n people on the rankings (points, month and day invites); the p99 of top 100 plus my place for random people, and check-ins per second against single-row inserts; prints one JSON line',
  async run(args, open) {
    const options = parseOptions(args, ['users', 'reads', 'checkins', 'rounds']);
    const whole = (name: string, fallback: number, min: number, max: number) => {
      const value = Number(options.get(name) ?? fallback);
      if (!Number.isInteger(value) || value < min || value > max) {
        throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
      }
      return value;
    };
    const users = whole('users', 1_000_000, 1_000, 10_000_000);
    const reads = whole('reads', 2_000, 100, 1_000_000);
    const checkins = whole('checkins', 2_000, CHECKIN_CHAINS, 100_000);
    const rounds = whole('rounds', 3, 1, 20);
    const ctx = await open();
    refuseInProduction(ctx, 'growth');
    const { db, services } = ctx;
    const { ids, seconds: populateSeconds } = await populate(ctx, users);

    // Rankings: with Redis, its sets are filled from SQL first (as a node does on its own).
    const redis = ctx.config.redisUrl !== null;
    let rebuildSeconds = 0;
    if (redis) {
      const started = performance.now();
      const now = ctx.clock.now();
      await services.growth.rebuildRankings([
        ['points', ALL_TIME],
        ['monthInvites', monthOf(now)],
        ['dayInvites', dayOf(now)],
      ]);
      rebuildSeconds = (performance.now() - started) / 1000;
    }
    const boards: RankingBoard[] = ['points', 'monthInvites', 'dayInvites'];
    // Through the service (Redis when configured), and with Redis also the SQL path alone.
    const stores: [string, (userId: string, board: RankingBoard) => Promise<number>][] = [
      [
        redis ? 'redis' : 'sql',
        async (userId, board) =>
          (await services.growth.ranking({ userId, sessionId: 'bench' }, board, 'current')).top
            .length,
      ],
    ];
    if (redis) {
      const sqlOnly = new Rankings({ db, redis: null, logger: ctx.logger, prefix: '' });
      stores.push([
        'sql',
        async (userId, board) => {
          const period = periodOf(board, ctx.clock.now());
          const { top } = await sqlOnly.standing(board, period, userId, RANKING_TOP);
          return (await services.users.cardsOf(top.map((row) => row.userId))).size;
        },
      ]);
    }
    const rankings = [];
    for (const [store, readOne] of stores) {
      const read = async (i: number) => {
        // Random people, most of them far down the board (as most people are).
        const me = ids[Math.floor(Math.random() * ids.length)]!;
        const started = performance.now();
        const shown = await readOne(me, boards[i % boards.length]!);
        if (shown !== RANKING_TOP) throw new Error(`a top of ${shown}, not ${RANKING_TOP}`);
        return performance.now() - started;
      };
      for (let i = 0; i < Math.min(200, reads); i += 1) await read(i);
      const times: number[] = [];
      for (let i = 0; i < reads; i += 1) times.push(await read(i));
      times.sort((a, b) => a - b);
      rankings.push({ store, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) });
    }

    // Check-ins: new people, 16 at a time, interleaved with single-row inserts.
    const people: string[] = [];
    await inSyntheticBatches(ctx, checkins * (rounds + 1), async (accounts) => {
      for (let start = 0; start < accounts.length; start += USERS_PER_STATEMENT) {
        await db
          .insertInto('users')
          .values(accounts.slice(start, start + USERS_PER_STATEMENT))
          .execute();
      }
      for (const account of accounts) people.push(account.id);
    });
    let next = 0;
    const checkInRate = async (count: number) => {
      const batch = people.slice(next, next + count);
      next += count;
      const perChain = Math.ceil(batch.length / CHECKIN_CHAINS);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CHECKIN_CHAINS }, async (_, chain) => {
          for (const userId of batch.slice(chain * perChain, (chain + 1) * perChain)) {
            const status = await services.growth.checkIn({ userId, sessionId: 'bench' });
            if (status.state !== 'mining') throw new Error('a check-in started no session');
          }
        }),
      );
      return batch.length / ((performance.now() - started) / 1000);
    };
    await checkInRate(checkins);
    await rawInsertRate(ctx, people[0]!, Math.min(checkins, 1000));
    const raw: number[] = [];
    const checked: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      raw.push(await rawInsertRate(ctx, people[0]!, checkins));
      checked.push(await checkInRate(checkins));
    }
    const checkinsPerS = median(checked);
    const rawPerS = median(raw);
    return [
      JSON.stringify({
        dialect: ctx.dialect,
        redis,
        users: users + TOP_ACCOUNTS,
        reads,
        rankings,
        populateSeconds,
        rebuildSeconds,
        checkinsPerS,
        rawPerS,
        ratio: checkinsPerS / rawPerS,
      }),
    ];
  },
};

export const growthCommands: Record<string, OperatorCommand> = { growth };
