import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql, type Insertable } from 'kysely';
import {
  GROUP_MAX_MEMBERS,
  MESSAGE_TEXT_MAX_LENGTH,
  TELTLK_ID_PATTERN,
  isLanguageCode,
  messageTextSchema,
  singleConversationId,
} from '@teltlk/protocol';
import { ConfigError, loadConfig } from './config.js';
import { createContext, type AppContext } from './context.js';
import { AppError } from './errors.js';
import { isCountryCode } from './modules/meta/countries.js';
import { generateInviteCode } from './modules/users/rules.js';
import { newId, newSecret, newSortableId, randomFrom } from './lib/random.js';
import type {
  ConversationMembersTable,
  ConversationsTable,
  MessagesTable,
  UsersTable,
} from './db/schema.js';

/**
 * The operator command line: what only the people running the server may do, such as
 * creating the product's official accounts. It opens the same database as the server
 * (same environment), so it runs beside a live server or on its own.
 *
 *   node apps/server/dist/operator.js <command> [--option value ...]
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

/**
 * Rows per INSERT statement: as many as fit in about 30,000 bound values, under SQLite's
 * 32,766 and PostgreSQL's 65,535 parameters per statement.
 */
const VALUES_PER_STATEMENT = 30_000;
/**
 * Accounts (and their member rows) per transaction: big enough to be fast, small enough
 * not to hold up a live server's writes for long.
 */
const POPULATE_BATCH = 5_000;

const benchPopulateGroup: OperatorCommand = {
  usage: 'bench:populate-group --group <groupId> --members <n>',
  summary:
    'For benchmarks, never in production: add n synthetic accounts that cannot sign in to a group as members',
  async run(args, open) {
    const options = parseOptions(args, ['group', 'members'], ['group', 'members']);
    const groupId = options.get('group')!.trim();
    const count = Number(options.get('members'));
    if (!Number.isInteger(count) || count < 1 || count > GROUP_MAX_MEMBERS) {
      throw new UsageError(`--members must be a whole number from 1 to ${GROUP_MAX_MEMBERS}`);
    }
    const ctx = await open();
    if (ctx.config.production) {
      throw new UsageError('bench:populate-group is refused when NODE_ENV is production');
    }
    const { db, clock } = ctx;
    const conversationId = `sg_${groupId}`;
    const group = await db
      .selectFrom('groups')
      .select(['member_count', 'dismissed_at'])
      .where('id', '=', groupId)
      .executeTakeFirst();
    const conversation = await db
      .selectFrom('conversations')
      .select('max_seq')
      .where('id', '=', conversationId)
      .executeTakeFirst();
    if (!group || !conversation || group.dismissed_at !== null) {
      throw new UsageError(`no group ${groupId}`);
    }
    if (group.member_count + count > GROUP_MAX_MEMBERS) {
      throw new UsageError(
        `the group has ${group.member_count} members; ${count} more would pass ${GROUP_MAX_MEMBERS}`,
      );
    }
    // New members see history from now on, as anyone who joins.
    const joinSeq = Number(conversation.max_seq);
    // A random tag per run keeps Teltlk IDs unique across runs; the index within a run.
    const tag = randomFrom('abcdefghjkmnpqrstuvwxyz', 5);
    const inviteCodes = new Set<string>();
    const started = Date.now();
    for (let done = 0; done < count;) {
      const size = Math.min(POPULATE_BATCH, count - done);
      const now = clock.now();
      const users: Insertable<UsersTable>[] = [];
      for (let i = 0; i < size; i += 1) users.push(syntheticUser(tag, done + i, now, inviteCodes));
      const members: Insertable<ConversationMembersTable>[] = users.map((user) => ({
        conversation_id: conversationId,
        user_id: user.id,
        read_seq: joinSeq,
        min_seq: joinSeq,
        joined_at: now,
        updated_at: now,
        role: 'member',
        group_nickname: null,
        group_remark: null,
        muted_until: null,
      }));
      await db.transaction().execute(async (trx) => {
        for (const rows of chunks(users)) await trx.insertInto('users').values(rows).execute();
        for (const rows of chunks(members)) {
          await trx.insertInto('conversation_members').values(rows).execute();
        }
        await trx
          .updateTable('groups')
          .set((eb) => ({ member_count: eb('member_count', '+', size), updated_at: now }))
          .where('id', '=', groupId)
          .execute();
      });
      done += size;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return [
      `added ${count} synthetic members to group ${groupId} (now ${group.member_count + count}) in ${seconds} s; Teltlk IDs b${tag}000000 onwards, none can sign in`,
    ];
  },
};

/**
 * A synthetic account of a benchmark, number `index` of a run tagged `tag` (Teltlk IDs
 * b<tag>000000 onwards): it cannot sign in, since its password hash is no argon2 hash.
 */
function syntheticUser(
  tag: string,
  index: number,
  now: number,
  inviteCodes: Set<string>,
): Insertable<UsersTable> {
  const teltlkId = `b${tag}${String(index).padStart(6, '0')}`;
  let inviteCode = generateInviteCode();
  while (inviteCodes.has(inviteCode)) inviteCode = generateInviteCode();
  inviteCodes.add(inviteCode);
  return {
    id: newId(),
    teltlk_id: teltlkId,
    teltlk_id_lower: teltlkId.toLowerCase(),
    teltlk_id_changed_at: null,
    phone: null,
    email: null,
    // Not an argon2 hash, so every password check fails, as for official accounts.
    password_hash: `!bench!${newSecret()}`,
    nickname: `Member ${index + 1}`,
    avatar_path: null,
    country: 'CN',
    mother_tongue: 'en',
    invite_code: inviteCode,
    invited_by: null,
    ui_language: 'en_US',
    mother_tongue_first: 1,
    notifications: 1,
    vibration: 1,
    alert_sound: 1,
    failed_logins: 0,
    login_locked_until: null,
    created_at: now,
    updated_at: now,
  };
}

/** Texts of the persistence benchmark's messages: varied, in the languages people write. */
const PERSISTENCE_LINES = [
  'See you at the station at eight',
  '¿Nos vemos mañana en la plaza?',
  '我下午三点到，到了给你打电话',
  '這個週末要不要一起去看電影？',
  'Thanks a lot, that really helped me',
  'Привет! Как дела, что нового?',
];

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Message rows per second of `count` single-row inserts into the messages table itself
 * (with its indexes), each its own statement and commit, by `senderId` into a scratch
 * conversation that is removed afterwards.
 */
async function rawInsertRate(ctx: AppContext, senderId: string, count: number): Promise<number> {
  const { db } = ctx;
  const conversationId = `bench_${newId()}`;
  const now = Date.now();
  await db
    .insertInto('conversations')
    .values({ id: conversationId, kind: 'group', created_at: now, updated_at: now })
    .execute();
  try {
    const started = performance.now();
    for (let i = 0; i < count; i += 1) {
      const at = Date.now();
      await db
        .insertInto('messages')
        .values({
          id: newSortableId(at),
          conversation_id: conversationId,
          seq: i + 1,
          sender_id: senderId,
          client_msg_id: `${conversationId}-${i}`,
          content: JSON.stringify({ kind: 'text', text: `${PERSISTENCE_LINES[i % 6]} ${i}` }),
          created_at: at,
          revoked_at: null,
          burn_at: null,
          burn_seconds: 0,
          lang: null,
          target_seq: null,
        })
        .execute();
    }
    return count / ((performance.now() - started) / 1000);
  } finally {
    await db.deleteFrom('messages').where('conversation_id', '=', conversationId).execute();
    await db.deleteFrom('conversations').where('id', '=', conversationId).execute();
  }
}

/** Messages per second through the send path, `senders` of them sending one after another. */
async function persistedRate(
  ctx: AppContext,
  conversationId: string,
  senders: readonly string[],
  count: number,
  round: number,
): Promise<number> {
  const perSender = Math.ceil(count / senders.length);
  const started = performance.now();
  await Promise.all(
    senders.map(async (userId, s) => {
      for (let i = 0; i < perSender; i += 1) {
        const n = s * perSender + i;
        await ctx.services.messages.send(userId, {
          conversationId,
          clientMsgId: `bench-${round < 0 ? 'warm' : round}-${n}`,
          content: { kind: 'text', text: `${PERSISTENCE_LINES[n % 6]} (${round}.${n})` },
        });
      }
    }),
  );
  return (perSender * senders.length) / ((performance.now() - started) / 1000);
}

const benchPersistence: OperatorCommand = {
  usage: 'bench:persistence --group <groupId> [--messages <n>] [--senders <n>] [--rounds <n>]',
  summary:
    'For benchmarks, never in production: messages persisted per second by members of a group through the send path, against single-row inserts of message rows into a scratch conversation of the same database; prints one JSON line',
  async run(args, open) {
    const options = parseOptions(args, ['group', 'messages', 'senders', 'rounds'], ['group']);
    const whole = (name: string, fallback: number, max: number) => {
      const value = Number(options.get(name) ?? fallback);
      if (!Number.isInteger(value) || value < 1 || value > max) {
        throw new UsageError(`--${name} must be a whole number from 1 to ${max}`);
      }
      return value;
    };
    const messages = whole('messages', 5000, 1_000_000);
    const senders = whole('senders', 64, 10_000);
    const rounds = whole('rounds', 3, 20);
    const ctx = await open();
    if (ctx.config.production) {
      throw new UsageError('bench:persistence is refused when NODE_ENV is production');
    }
    const conversationId = `sg_${options.get('group')!.trim()}`;
    const members = await ctx.db
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', conversationId)
      .where('role', '=', 'member')
      .orderBy('user_id')
      .limit(senders)
      .execute();
    if (members.length < senders) {
      throw new UsageError(`the group has ${members.length} members who may send, not ${senders}`);
    }
    const senderIds = members.map((member) => member.user_id);
    // Warm, as a running server is: the Chinese tables built (the server does it before it
    // listens), the detector's thread started, the code compiled; then interleaved, so drift
    // on a shared machine touches both alike.
    await ctx.services.scripts.preload();
    await persistedRate(ctx, conversationId, senderIds, senderIds.length * 8, -1);
    await rawInsertRate(ctx, senderIds[0]!, Math.min(messages, 1000));
    const raw: number[] = [];
    const persisted: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      raw.push(await rawInsertRate(ctx, senderIds[0]!, messages));
      persisted.push(await persistedRate(ctx, conversationId, senderIds, messages, round));
    }
    await ctx.services.messages.drain();
    const rawPerS = median(raw);
    const persistedPerS = median(persisted);
    return [
      JSON.stringify({
        dialect: ctx.dialect,
        rawPerS,
        persistedPerS,
        ratio: persistedPerS / rawPerS,
        senders,
        messages,
        rounds,
      }),
    ];
  },
};

const benchPopulateChats: OperatorCommand = {
  usage: 'bench:populate-chats --user <userId> --chats <n> [--messages <k>]',
  summary:
    'For benchmarks, never in production: give a user n one-to-one chats with n synthetic accounts that cannot sign in, k messages in each',
  async run(args, open) {
    const options = parseOptions(args, ['user', 'chats', 'messages'], ['user', 'chats']);
    const userId = options.get('user')!.trim();
    const count = Number(options.get('chats'));
    const perChat = Number(options.get('messages') ?? 3);
    if (!Number.isInteger(count) || count < 1 || count > POPULATE_CHATS_MAX) {
      throw new UsageError(`--chats must be a whole number from 1 to ${POPULATE_CHATS_MAX}`);
    }
    if (!Number.isInteger(perChat) || perChat < 1 || perChat > 100) {
      throw new UsageError('--messages must be a whole number from 1 to 100');
    }
    const ctx = await open();
    if (ctx.config.production) {
      throw new UsageError('bench:populate-chats is refused when NODE_ENV is production');
    }
    const { db, clock } = ctx;
    const owner = await db
      .selectFrom('users')
      .select('id')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!owner) throw new UsageError(`no user ${userId}`);
    const tag = randomFrom('abcdefghjkmnpqrstuvwxyz', 5);
    const inviteCodes = new Set<string>();
    const started = Date.now();
    for (let done = 0; done < count;) {
      const size = Math.min(POPULATE_BATCH, count - done);
      const now = clock.now();
      const peers: Insertable<UsersTable>[] = [];
      for (let i = 0; i < size; i += 1) peers.push(syntheticUser(tag, done + i, now, inviteCodes));
      const conversations: Insertable<ConversationsTable>[] = [];
      const members: Insertable<ConversationMembersTable>[] = [];
      const messages: Insertable<MessagesTable>[] = [];
      peers.forEach((peer, i) => {
        const conversationId = singleConversationId(userId, peer.id);
        // Each chat active at its own moment, the latest first in the list.
        const at = now - (count - (done + i)) * 1000;
        conversations.push({
          id: conversationId,
          kind: 'single',
          max_seq: perChat,
          created_at: at,
          updated_at: at,
        });
        for (const member of [userId, peer.id]) {
          members.push({
            conversation_id: conversationId,
            user_id: member,
            joined_at: at,
            updated_at: at,
          });
        }
        for (let seq = 1; seq <= perChat; seq += 1) {
          const senderId = seq % 2 === 1 ? peer.id : userId;
          messages.push({
            id: newSortableId(at),
            conversation_id: conversationId,
            seq,
            sender_id: senderId,
            client_msg_id: `bench-${conversationId}-${seq}`,
            content: JSON.stringify({
              kind: 'text',
              text: `${PERSISTENCE_LINES[(done + i + seq) % 6]} ${seq}`,
            }),
            created_at: at,
            revoked_at: null,
            burn_at: null,
            burn_seconds: 0,
            lang: null,
            target_seq: null,
          });
        }
      });
      await db.transaction().execute(async (trx) => {
        for (const rows of chunks(peers)) await trx.insertInto('users').values(rows).execute();
        for (const rows of chunks(conversations))
          await trx.insertInto('conversations').values(rows).execute();
        for (const rows of chunks(members))
          await trx.insertInto('conversation_members').values(rows).execute();
        for (const rows of chunks(messages))
          await trx.insertInto('messages').values(rows).execute();
      });
      done += size;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return [`gave user ${userId} ${count} chats of ${perChat} messages in ${seconds} s`];
  },
};

const benchReadChats: OperatorCommand = {
  usage: 'bench:read-chats --user <userId> [--rounds <n>]',
  summary:
    "For benchmarks, never in production: time one plain SQL read of a user's conversation list with each last message (the baseline of first sync); prints one JSON line",
  async run(args, open) {
    const options = parseOptions(args, ['user', 'rounds'], ['user']);
    const userId = options.get('user')!.trim();
    const rounds = Number(options.get('rounds') ?? 3);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) {
      throw new UsageError('--rounds must be a whole number from 1 to 20');
    }
    const ctx = await open();
    if (ctx.config.production) {
      throw new UsageError('bench:read-chats is refused when NODE_ENV is production');
    }
    const times: number[] = [];
    let rows = 0;
    for (let round = 0; round < rounds; round += 1) {
      const started = performance.now();
      const result = await sql`
        select cm.*, c.kind, c.max_seq, c.updated_at as conversation_updated_at, m.*
        from conversation_members cm
        inner join conversations c on c.id = cm.conversation_id
        left join messages m on m.conversation_id = c.id and m.seq = c.max_seq
        where cm.user_id = ${userId}
        order by cm.conversation_id`.execute(ctx.db);
      times.push(performance.now() - started);
      rows = result.rows.length;
    }
    return [JSON.stringify({ rows, ms: median(times) })];
  },
};

/** More chats than any benchmark needs, far beyond what a person has. */
const POPULATE_CHATS_MAX = 100_000;

/** Rows split so that each INSERT stays under VALUES_PER_STATEMENT bound values. */
function chunks<T extends object>(rows: readonly T[]): T[][] {
  if (rows.length === 0) return [];
  const size = Math.max(1, Math.floor(VALUES_PER_STATEMENT / Object.keys(rows[0]!).length));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

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
  'bench:populate-group': benchPopulateGroup,
  'bench:persistence': benchPersistence,
  'bench:populate-chats': benchPopulateChats,
  'bench:read-chats': benchReadChats,
};

export function usage(): string {
  const lines = Object.values(commands).map((c) => `  ${c.usage}\n      ${c.summary}`);
  return ['Usage: operator <command> [options]', '', 'Commands:', ...lines].join('\n');
}

/** Runs one command line against a context; returns the process exit code. */
export async function runOperator(
  argv: readonly string[],
  openContext: () => Promise<AppContext>,
  out: { log(line: string): void; error(line: string): void } = console,
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help') {
    out.log(usage());
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    out.error(`unknown command: ${name}\n\n${usage()}`);
    return 2;
  }
  if (args.includes('--help')) {
    out.log(`Usage: operator ${command.usage}\n      ${command.summary}`);
    return 0;
  }
  const opened: { ctx?: AppContext } = {};
  const open = async () => (opened.ctx ??= await openContext());
  try {
    for (const line of await command.run(args, open)) out.log(line);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      out.error(`${error.message}\nUsage: operator ${command.usage}`);
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

async function main(): Promise<void> {
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
  const code = await runOperator(process.argv.slice(2), async () => {
    const ctx = createContext({ ...config, logLevel: quiet });
    await ctx.migrate();
    return ctx;
  });
  process.exit(code);
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main().catch((error: unknown) => {
    console.error('operator command failed:', error);
    process.exit(1);
  });
}
