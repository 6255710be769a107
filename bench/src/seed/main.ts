import {
  commandLine,
  isEntryPoint,
  runCommands,
  type AppContext,
  type CommandOutput,
  type OperatorCommand,
} from '@teltlk/server/tools';
import { growthCommands } from './growth.js';
import { measureCommands } from './measure.js';
import { populateCommands } from './populate.js';
import { searchCommands } from './search.js';

/**
 * The benchmarks' seeding and in-process measurements, as commands against a server's
 * database (the same environment as the server: DATA_DIR, DATABASE_URL), each refused in
 * production: synthetic populations made in bulk, and measurements that must run inside
 * the server's own context (the send path, the same database). It opens the context the
 * server's built code makes (`@teltlk/server/tools`), as the operator command line does.
 *
 *   node --import tsx bench/src/seed/main.ts <command> [--option value ...]
 */

const SEED = 'seed';

export const seedCommands: Record<string, OperatorCommand> = {
  ...populateCommands,
  ...measureCommands,
  ...searchCommands,
  ...growthCommands,
};

/** Runs one command line against a context; returns the process exit code. */
export function runSeed(
  argv: readonly string[],
  openContext: () => Promise<AppContext>,
  out: CommandOutput = console,
): Promise<number> {
  return runCommands(SEED, seedCommands, argv, openContext, out);
}

if (isEntryPoint(import.meta.url)) commandLine(SEED, seedCommands);
