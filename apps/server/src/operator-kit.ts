import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.js';
import { createContext, type AppContext } from './context.js';
import { AppError } from './errors.js';

/*
 * What every operator command is made of (operator.ts runs them): its usage and summary,
 * its options read one way, and its argument errors; and the command line that runs a
 * set of them against the server's database.
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

export interface CommandOutput {
  log(line: string): void;
  error(line: string): void;
}

/** The usage of a program (`operator`) and its commands. */
export function usageOf(program: string, commands: Record<string, OperatorCommand>): string {
  const lines = Object.values(commands).map((c) => `  ${c.usage}\n      ${c.summary}`);
  return [`Usage: ${program} <command> [options]`, '', 'Commands:', ...lines].join('\n');
}

/** Runs one command line of `program` against a context; returns the process exit code. */
export async function runCommands(
  program: string,
  commands: Record<string, OperatorCommand>,
  argv: readonly string[],
  openContext: () => Promise<AppContext>,
  out: CommandOutput = console,
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help') {
    out.log(usageOf(program, commands));
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    out.error(`unknown command: ${name}\n\n${usageOf(program, commands)}`);
    return 2;
  }
  if (args.includes('--help')) {
    out.log(`Usage: ${program} ${command.usage}\n      ${command.summary}`);
    return 0;
  }
  const opened: { ctx?: AppContext } = {};
  const open = async () => (opened.ctx ??= await openContext());
  try {
    for (const line of await command.run(args, open)) out.log(line);
    return 0;
  } catch (error) {
    if (error instanceof CommandFailed) {
      for (const line of error.lines) out.error(line);
      return 1;
    }
    if (error instanceof UsageError) {
      out.error(`${error.message}\nUsage: ${program} ${command.usage}`);
      return 2;
    }
    if (error instanceof AppError) {
      const fields = error.issues?.map((issue) => `${issue.path}: ${issue.rule}`).join(', ');
      out.error(fields ? `${error.message} (${fields})` : error.message);
      return 1;
    }
    throw error;
  } finally {
    await opened.ctx?.close();
  }
}

/**
 * Runs the process's command line (`process.argv`) against the database the environment
 * names, as the server opens it, and exits with the command's code.
 */
export function commandLine(program: string, commands: Record<string, OperatorCommand>): void {
  const main = async () => {
    let config;
    try {
      config = loadConfig();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      console.error(error.message);
      process.exit(1);
    }
    // Commands print plain results; the server's informational log lines would only get in the way.
    const quiet = ['info', 'debug', 'trace'].includes(config.logLevel) ? 'warn' : config.logLevel;
    const code = await runCommands(program, commands, process.argv.slice(2), async () => {
      const ctx = createContext({ ...config, logLevel: quiet });
      await ctx.migrate();
      return ctx;
    });
    process.exit(code);
  };
  main().catch((error: unknown) => {
    console.error(`${program} command failed:`, error);
    process.exit(1);
  });
}

/** Whether the module at `moduleUrl` is the script node was started with. */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
