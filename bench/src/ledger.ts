import { befriend, registerAccounts } from './accounts.js';
import { createGroup } from './group-fanout.js';
import { onEachDatabase } from './persistence.js';
import { seed, startTeltlk } from './server-process.js';

/**
 * The ledger: 1,000 members of a group open a 100-share red envelope at once (exactly 100
 * may get a share, and the ledger must balance after), and transfers per second through
 * the transfer path (the message and the money in one transaction, the payment password
 * checked once beforehand, as an unlock would) against single-row inserts into the same
 * database, interleaved in one process (the seeding command `ledger`). On SQLite,
 * and on PostgreSQL when a database URL is given (in a schema of its own, dropped after).
 */

export interface LedgerOptions {
  grabbers: number;
  shares: number;
  transfers: number;
  rounds: number;
  postgresUrl: string | null;
}

export const LEDGER_DEFAULTS: Omit<LedgerOptions, 'postgresUrl'> = {
  grabbers: 1000,
  shares: 100,
  transfers: 2000,
  rounds: 3,
};

export interface LedgerFigures {
  dialect: string;
  grabbers: number;
  shares: number;
  grabsOk: number;
  ledgerProblems: string[];
  transfersPerS: number;
  rawPerS: number;
  ratio: number;
}

async function measure(
  options: LedgerOptions,
  env: Record<string, string>,
): Promise<LedgerFigures> {
  const server = await startTeltlk({ env });
  try {
    const [owner, friend] = await registerAccounts(server.baseUrl, 2);
    await befriend(server.baseUrl, owner!, friend!);
    const groupId = await createGroup(server, owner!, [friend!]);
    await seed(
      server,
      ['populate-group', '--group', groupId, '--members', String(options.grabbers + 2)],
      env,
    );
    const output = await seed(
      server,
      [
        'ledger',
        ...['--group', groupId, '--peer', friend!.userId],
        ...['--grabbers', String(options.grabbers), '--shares', String(options.shares)],
        ...['--transfers', String(options.transfers), '--rounds', String(options.rounds)],
      ],
      { ...env, RATE_LIMIT_SCALE: '100000' },
    );
    const line = output.split('\n').find((text) => text.startsWith('{'));
    if (!line) throw new Error(`seed ledger printed no figures: ${output}`);
    return JSON.parse(line) as LedgerFigures;
  } finally {
    await server.stop();
  }
}

export function benchLedger(options: LedgerOptions): Promise<LedgerFigures[]> {
  return onEachDatabase(options.postgresUrl, (env) => measure(options, env));
}
