import {
  MESSAGE_TEXT_MAX_LENGTH,
  TELTLK_ID_PATTERN,
  isLanguageCode,
  messageTextSchema,
} from '@teltlk/protocol';
import type { AppContext } from './context.js';
import { isCountryCode } from './modules/meta/countries.js';
import { nftCommands } from './operator-nft.js';
import { growthCommands } from './operator-growth.js';
import {
  CommandFailed,
  commandLine,
  isEntryPoint,
  parseOptions,
  runCommands,
  usageOf,
  UsageError,
  type CommandOutput,
  type OperatorCommand,
} from './operator-kit.js';

/**
 * The operator command line: what only the people running the server may do, such as
 * creating the product's official accounts. It opens the same database as the server
 * (same environment), so it runs beside a live server or on its own.
 *
 *   node apps/server/dist/operator.js <command> [--option value ...]
 */

const OPERATOR = 'operator';

const officialCreate: OperatorCommand = {
  usage: 'official:create --teltlk-id <id> --nickname <name> [--country XX] [--language <code>]',
  summary: 'Create an official account (does nothing if that Teltlk ID is already official)',
  async run(args, open) {
    const options = parseOptions(
      args,
      ['teltlk-id', 'nickname', 'country', 'language'],
      ['teltlk-id', 'nickname'],
    );
    const teltlkId = options.get('teltlk-id')!.trim();
    const nickname = options.get('nickname')!.trim();
    const country = options.get('country')?.trim().toUpperCase();
    const language = options.get('language')?.trim();
    if (!TELTLK_ID_PATTERN.test(teltlkId)) {
      throw new UsageError(
        'the Teltlk ID must be 7 to 16 letters and digits and start with a letter',
      );
    }
    if (country !== undefined && !isCountryCode(country)) {
      throw new UsageError(`unknown country code: ${country}`);
    }
    if (language !== undefined && !isLanguageCode(language)) {
      throw new UsageError(`unknown language code: ${language}`);
    }
    const ctx = await open();
    const { card, created } = await ctx.services.contacts.createOfficial({
      teltlkId,
      nickname,
      ...(country ? { country } : {}),
      ...(language ? { language } : {}),
    });
    return [`${created ? 'created' : 'exists'} ${describe(card)}`];
  },
};

const officialList: OperatorCommand = {
  usage: 'official:list',
  summary: 'List the official accounts',
  async run(args, open) {
    parseOptions(args, []);
    const ctx = await open();
    const { accounts } = await ctx.services.contacts.officialAccounts();
    if (accounts.length === 0) return ['no official accounts'];
    return accounts.map(describe);
  },
};

const officialPost: OperatorCommand = {
  usage: 'official:post --from <teltlkId> --to <teltlkId>|all --text <text>',
  summary:
    'Post as an official account into its chat with one user, or with every user (all); those who blocked it are skipped',
  async run(args, open) {
    const options = parseOptions(args, ['from', 'to', 'text'], ['from', 'to', 'text']);
    const from = options.get('from')!.trim();
    const to = options.get('to')!.trim();
    const text = options.get('text')!;
    // Blank text is refused by the required check above.
    if (!messageTextSchema.safeParse(text).success) {
      throw new UsageError(`the text must be at most ${MESSAGE_TEXT_MAX_LENGTH} characters`);
    }
    const ctx = await open();
    const { users, messages } = ctx.services;
    const official = await users.findByAccount(from);
    if (!official || official.official !== 1) {
      throw new UsageError(`${from} is not an official account`);
    }
    let recipients: string[] | 'all' = 'all';
    if (to !== 'all') {
      const recipient = await users.findByAccount(to);
      if (!recipient) throw new UsageError(`no user with Teltlk ID ${to}`);
      recipients = [recipient.id];
    }
    const { sent, refused } = await messages.postAsOfficial(official.id, recipients, text);
    return [`sent ${sent}, refused ${refused}`];
  },
};

const ledgerVerify: OperatorCommand = {
  usage: 'ledger:verify',
  summary:
    'Check the ledger: every balance is the sum of its entries, every transaction sums to zero, nobody is below zero',
  async run(args, open) {
    parseOptions(args, []);
    const ctx = await open();
    const problems = await ctx.services.ledger.verify(ctx.db);
    if (problems.length > 0) {
      throw new CommandFailed([`the ledger does not balance (${problems.length}):`, ...problems]);
    }
    return ['the ledger balances'];
  },
};

const NOTE_MAX = 500;

const maintenanceOn: OperatorCommand = {
  usage: 'maintenance:on [--note <text>]',
  summary:
    "Put the service under maintenance: every node refuses API calls with 'This feature is currently under maintenance' (within 5 s)",
  async run(args, open) {
    const options = parseOptions(args, ['note']);
    const note = (options.get('note') ?? 'maintenance').trim().slice(0, NOTE_MAX) || 'maintenance';
    const ctx = await open();
    await ctx.services.flags.setMaintenance(note);
    return [`under maintenance (${note})`];
  },
};

const maintenanceOff: OperatorCommand = {
  usage: 'maintenance:off',
  summary: 'End maintenance: the service answers again',
  async run(args, open) {
    parseOptions(args, []);
    const ctx = await open();
    await ctx.services.flags.setMaintenance(null);
    return ['maintenance over'];
  },
};

const cooperationList: OperatorCommand = {
  usage: 'cooperation:list [--days <n>]',
  summary: "Partnership requests sent through the landing site's form (the last 30 days)",
  async run(args, open) {
    const options = parseOptions(args, ['days']);
    const days = Number(options.get('days') ?? 30);
    if (!Number.isInteger(days) || days < 1)
      throw new UsageError('--days is a whole number of days');
    const ctx = await open();
    const rows = await ctx.services.landing.cooperationRequests(days);
    if (rows.length === 0) return ['no partnership requests'];
    return rows.map((row) =>
      [
        new Date(row.created_at).toISOString(),
        row.kind,
        row.name,
        row.organisation || '-',
        row.email,
        row.message.replace(/\s+/g, ' '),
      ].join('\t'),
    );
  },
};

function describe(card: {
  id: string;
  teltlkId: string;
  nickname: string;
  country: string;
  motherTongue: string;
}): string {
  return [card.id, card.teltlkId, card.nickname, card.country, card.motherTongue].join('\t');
}

/** Every operator command by name; add new ones here. */
export const commands: Record<string, OperatorCommand> = {
  'official:create': officialCreate,
  'official:list': officialList,
  'official:post': officialPost,
  'ledger:verify': ledgerVerify,
  'maintenance:on': maintenanceOn,
  'maintenance:off': maintenanceOff,
  'cooperation:list': cooperationList,
  ...nftCommands,
  ...growthCommands,
};

export function usage(): string {
  return usageOf(OPERATOR, commands);
}

/** Runs one command line against a context; returns the process exit code. */
export function runOperator(
  argv: readonly string[],
  openContext: () => Promise<AppContext>,
  out: CommandOutput = console,
): Promise<number> {
  return runCommands(OPERATOR, commands, argv, openContext, out);
}

if (isEntryPoint(import.meta.url)) commandLine(OPERATOR, commands);
