import { onEachDatabase } from './persistence.js';
import { seed, startTeltlk } from './server-process.js';

/**
 * Growth: rankings read at a million people (top 100 plus my place for random people, as
 * the Discover page asks, with the cards of the top), and check-ins per second through
 * the service against single-row inserts into the same database, interleaved in one
 * process (the seeding command `growth`). On SQLite, and on PostgreSQL when a
 * database URL is given; with a Redis URL, rankings are read from Redis (the product's
 * fast path) and from SQL alone, both from the same population.
 */

export interface GrowthOptions {
  users: number;
  reads: number;
  checkins: number;
  rounds: number;
  postgresUrl: string | null;
  redisUrl: string | null;
}

export const GROWTH_DEFAULTS: Omit<GrowthOptions, 'postgresUrl' | 'redisUrl'> = {
  users: 1_000_000,
  reads: 2_000,
  checkins: 2_000,
  rounds: 3,
};

export interface GrowthFigures {
  dialect: string;
  redis: boolean;
  users: number;
  reads: number;
  rankings: { store: string; p50Ms: number; p99Ms: number }[];
  populateSeconds: number;
  rebuildSeconds: number;
  checkinsPerS: number;
  rawPerS: number;
  ratio: number;
}

async function measure(
  options: GrowthOptions,
  env: Record<string, string>,
): Promise<GrowthFigures> {
  const server = await startTeltlk({ env });
  try {
    const output = await seed(
      server,
      [
        'growth',
        ...['--users', String(options.users), '--reads', String(options.reads)],
        ...['--checkins', String(options.checkins), '--rounds', String(options.rounds)],
      ],
      env,
    );
    const line = output.split('\n').find((text) => text.startsWith('{'));
    if (!line) throw new Error(`seed growth printed no figures: ${output}`);
    return JSON.parse(line) as GrowthFigures;
  } finally {
    await server.stop();
  }
}

export function benchGrowth(options: GrowthOptions): Promise<GrowthFigures[]> {
  const redis: Record<string, string> = options.redisUrl ? { REDIS_URL: options.redisUrl } : {};
  return onEachDatabase(options.postgresUrl, (env) => measure(options, { ...env, ...redis }));
}
