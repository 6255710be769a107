import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { befriend, registerAccounts } from './accounts.js';
import { createGroup } from './group-fanout.js';
import { seed, startTeltlk } from './server-process.js';

/**
 * Persistence: messages per second that the send path stores (dedupe, permission,
 * language, sequence, insert, events, group-committed), against single-row inserts into a
 * scratch table of the same database, interleaved in one process (the seeding command
 * `persistence`). Members of a small group send one message after another each, as
 * many at once as `senders`. On SQLite, and on PostgreSQL when a database URL is given
 * (in a schema of its own, dropped afterwards).
 */

export interface PersistenceOptions {
  /** Messages per round, and single-row inserts per round. */
  messages: number;
  senders: number;
  rounds: number;
  /** PostgreSQL to measure too (TEST_DATABASE_URL by default); null: SQLite only. */
  postgresUrl: string | null;
}

export const PERSISTENCE_DEFAULTS: Omit<PersistenceOptions, 'postgresUrl'> = {
  messages: 5000,
  senders: 64,
  rounds: 3,
};

export interface PersistenceFigures {
  dialect: string;
  rawPerS: number;
  persistedPerS: number;
  ratio: number;
}

/** The URL with every connection's search_path set to `schema`. */
export function inSchema(url: string, schema: string): string {
  const separator = url.includes('?') ? '&' : '?';
  return `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

export async function onPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function measure(
  options: PersistenceOptions,
  env: Record<string, string>,
): Promise<PersistenceFigures> {
  const server = await startTeltlk({ env });
  try {
    const [owner, member] = await registerAccounts(server.baseUrl, 2);
    await befriend(server.baseUrl, owner!, member!);
    const groupId = await createGroup(server, owner!, [member!]);
    await seed(
      server,
      ['populate-group', '--group', groupId, '--members', String(options.senders)],
      env,
    );
    const output = await seed(
      server,
      [
        'persistence',
        ...['--group', groupId, '--messages', String(options.messages)],
        ...['--senders', String(options.senders), '--rounds', String(options.rounds)],
      ],
      // The senders send far faster than people: the per-user limits are raised, still checked.
      { ...env, RATE_LIMIT_SCALE: '100000' },
    );
    const line = output.split('\n').find((text) => text.startsWith('{'));
    if (!line) throw new Error(`seed persistence printed no figures: ${output}`);
    return JSON.parse(line) as PersistenceFigures;
  } finally {
    await server.stop();
  }
}

export function benchPersistence(options: PersistenceOptions): Promise<PersistenceFigures[]> {
  return onEachDatabase(options.postgresUrl, (env) => measure(options, env));
}

/**
 * Runs a measurement on SQLite, then on PostgreSQL when a URL is given, in a schema of
 * its own that is dropped afterwards.
 */
export async function onEachDatabase<T>(
  postgresUrl: string | null,
  measureOn: (env: Record<string, string>) => Promise<T>,
): Promise<T[]> {
  const figures = [await measureOn({})];
  if (postgresUrl) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    await onPostgres(postgresUrl, `CREATE SCHEMA ${schema}`);
    try {
      figures.push(await measureOn({ DATABASE_URL: inSchema(postgresUrl, schema) }));
    } finally {
      await onPostgres(postgresUrl, `DROP SCHEMA ${schema} CASCADE`);
    }
  }
  return figures;
}
