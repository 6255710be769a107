import type { AppContext } from './context.js';

/*
 * What every operator command is made of (operator.ts runs them): its usage and summary,
 * its options read one way, and its argument errors.
 */

/** Bad arguments: the message is printed with the command's usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface OperatorCommand {
  usage: string;
  summary: string;
  /**
   * Checks `args` first, then opens the context (so a typo fails before the database is
   * touched) and returns the lines to print.
   */
  run(args: readonly string[], open: () => Promise<AppContext>): Promise<string[]>;
}

/**
 * Reads `--name value` and `--name=value` pairs; every option must be in `known`, and
 * those in `required` must be present.
 */
export function parseOptions(
  args: readonly string[],
  known: readonly string[],
  required: readonly string[] = [],
): Map<string, string> {
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new UsageError(`unexpected argument: ${arg}`);
    const name = match[1]!;
    if (!known.includes(name)) throw new UsageError(`unknown option: --${name}`);
    let value = match[2];
    if (value === undefined) {
      value = args[i + 1];
      if (value === undefined || value.startsWith('--')) {
        throw new UsageError(`--${name} needs a value`);
      }
      i += 1;
    }
    if (options.has(name)) throw new UsageError(`--${name} is given twice`);
    options.set(name, value);
  }
  for (const name of required) {
    if (!options.get(name)?.trim()) throw new UsageError(`--${name} is required`);
  }
  return options;
}

/** A command that ran and found something wrong: its lines go to stderr, the exit code is 1. */
export class CommandFailed extends Error {
  override name = 'CommandFailed';
  constructor(readonly lines: string[]) {
    super(lines[0] ?? 'failed');
  }
}

/** A user by Teltlk ID, or a usage error naming it. */
export async function userOf(ctx: AppContext, teltlkId: string): Promise<string> {
  const user = await ctx.services.users.findByAccount(teltlkId.trim());
  if (!user) throw new UsageError(`no user with Teltlk ID ${teltlkId}`);
  return user.id;
}
