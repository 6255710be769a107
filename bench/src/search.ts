import { randomBytes } from 'node:crypto';
import { call, registerAccounts } from './accounts.js';
import { inSchema, onPostgres } from './persistence.js';
import { seed, startTeltlk } from './server-process.js';
import { quantile } from './stats.js';

/**
 * Message search: a million messages in 2,000 one-to-one chats (a fifth of them the
 * searcher's), written in time order by the seeding command `populate-search`; then searches through
 * HTTP as the app makes them, across all the searcher's chats and within one, for common
 * and rare words, Chinese words of two characters and of three or more, and words no
 * message holds. The baseline is the same searches done by reading every message the
 * searcher can see, without the index (`search-scan`), in the same database.
 */

export interface SearchOptions {
  messages: number;
  /** Times each search is made. */
  rounds: number;
  /** PostgreSQL to measure too (TEST_DATABASE_URL by default); null: SQLite only. */
  postgresUrl: string | null;
}

export const SEARCH_DEFAULTS: Omit<SearchOptions, 'postgresUrl'> = {
  messages: 1_000_000,
  rounds: 10,
};

/** What people look for: frequent and rare words, in several languages and scripts. */
export const SEARCH_QUERIES = [
  'station',
  'harbour',
  'birthday',
  'mañana',
  'Москва',
  '北京',
  '烤鸭',
  '吃火锅',
  '明天见',
  'name4821',
  'dumplings near',
  'xylophone',
];

export interface SearchFigures {
  dialect: string;
  messages: number;
  searches: number;
  p50: number;
  p99: number;
  /** p99 of the same searches without the index. */
  scanP99: number;
  /** The slowest search: its words, where, and its time. */
  slowest: { q: string; where: string; ms: number };
}

async function measure(
  options: Omit<SearchOptions, 'postgresUrl'>,
  dialect: string,
  env: Record<string, string>,
): Promise<SearchFigures> {
  const server = await startTeltlk({ env });
  try {
    const [user] = await registerAccounts(server.baseUrl, 1);
    const populated = JSON.parse(
      await seed(
        server,
        ['populate-search', '--user', user!.userId, '--messages', String(options.messages)],
        env,
      ),
    ) as { messages: number; chats: string[] };
    const chat = populated.chats[0]!;
    const times: number[] = [];
    let slowest = { q: '', where: '', ms: 0 };
    let hits = 0;
    for (let round = 0; round < options.rounds; round += 1) {
      for (const q of SEARCH_QUERIES) {
        for (const scope of [{}, { conversationId: chat }] as Record<string, string>[]) {
          const query = new URLSearchParams({ q, ...scope });
          const started = performance.now();
          const page = await call<{ messages: unknown[] }>(
            server.baseUrl,
            'GET',
            `/messages/search?${query}`,
            { token: user!.token },
          );
          const ms = performance.now() - started;
          times.push(ms);
          if (ms > slowest.ms)
            slowest = { q, where: scope.conversationId ? 'one chat' : 'all', ms };
          hits += page.messages.length;
        }
      }
    }
    // Searches that found nothing at all would measure nothing.
    if (hits === 0) throw new Error('no search found anything');
    const scan = JSON.parse(
      await seed(
        server,
        ['search-scan', '--user', user!.userId, '--queries', SEARCH_QUERIES.join('|')],
        env,
      ),
    ) as { times: number[] };
    const sorted = [...times].sort((a, b) => a - b);
    return {
      dialect,
      messages: populated.messages,
      searches: times.length,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      scanP99: quantile(
        [...scan.times].sort((a, b) => a - b),
        0.99,
      ),
      slowest,
    };
  } finally {
    await server.stop();
  }
}

export async function benchSearch(options: SearchOptions): Promise<SearchFigures[]> {
  const figures = [await measure(options, 'sqlite', {})];
  if (options.postgresUrl) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    await onPostgres(options.postgresUrl, `CREATE SCHEMA ${schema}`);
    try {
      figures.push(
        await measure(options, 'postgres', {
          DATABASE_URL: inSchema(options.postgresUrl, schema),
        }),
      );
    } finally {
      await onPostgres(options.postgresUrl, `DROP SCHEMA ${schema} CASCADE`);
    }
  }
  return figures;
}
