import {
  ENVELOPE_SHARES_MAX,
  GROUP_MAX_MEMBERS,
  singleConversationId,
  groupConversationId,
  type MessageContent,
} from '@teltlk/protocol';
import { writeFile } from 'node:fs/promises';
import { sql, type Insertable } from 'kysely';
import type { AppContext } from './context.js';
import type {
  ConversationMembersTable,
  Db,
  ConversationsTable,
  MessagesTable,
  UsersTable,
} from './db/schema.js';
import { AppError } from './errors.js';
import { newId, newSecret, newSortableId, randomFrom } from './lib/random.js';
import { searchColumns } from './modules/messages/search-text.js';
import { generateInviteCode } from './modules/users/rules.js';
import { newUserRow } from './modules/users/service.js';
import { parseOptions, UsageError, type OperatorCommand } from './operator-kit.js';

/*
 * The operator commands of the benchmarks, each refused in production: synthetic
 * populations made in bulk, and measurements that must run inside the server's own
 * context (the send path, the same database).
 */

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
  usage: 'bench:populate-group --group <groupId> --members <n> [--online <k> --out <file>]',
  summary:
    'For benchmarks, never in production: add n synthetic accounts that cannot sign in to a group as members; with --online, the first k also get a session each, whose tokens are written to the file as a JSON array',
  async run(args, open) {
    const options = parseOptions(args, ['group', 'members', 'online', 'out'], ['group', 'members']);
    const groupId = options.get('group')!.trim();
    const count = Number(options.get('members'));
    if (!Number.isInteger(count) || count < 1 || count > GROUP_MAX_MEMBERS) {
      throw new UsageError(`--members must be a whole number from 1 to ${GROUP_MAX_MEMBERS}`);
    }
    const online = onlineOption(options, count);
    const ctx = await open();
    if (ctx.config.production) {
      throw new UsageError('bench:populate-group is refused when NODE_ENV is production');
    }
    const { db } = ctx;
    const conversationId = groupConversationId(groupId);
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
    const tokens: string[] = [];
    const { tag, seconds } = await inSyntheticBatches(ctx, count, async (users, now) => {
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
          .set((eb) => ({ member_count: eb('member_count', '+', users.length), updated_at: now }))
          .where('id', '=', groupId)
          .execute();
        tokens.push(...(await sessionsFor(ctx, trx, users.slice(0, online.count - tokens.length))));
      });
    });
    await writeTokens(online.out, tokens);
    return [
      `added ${count} synthetic members to group ${groupId} (now ${group.member_count + count}) in ${seconds} s; Teltlk IDs b${tag}000000 onwards, none can sign in` +
        (tokens.length > 0 ? `; ${tokens.length} have a session (tokens in ${online.out})` : ''),
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
  return newUserRow(now, {
    teltlk_id: teltlkId,
    teltlk_id_changed_at: null,
    phone: null,
    email: null,
    // Not an argon2 hash, so every password check fails, as for official accounts.
    password_hash: `!bench!${newSecret()}`,
    nickname: `Member ${index + 1}`,
    country: 'CN',
    mother_tongue: 'en',
    invite_code: inviteCode,
    invited_by: null,
    ui_language: 'en_US',
    official: 0,
  });
}

/**
 * Makes `count` synthetic accounts in batches of POPULATE_BATCH, each batch handed to
 * `write` (with its time and how many came before it) to store in one transaction.
 * A random tag per run keeps Teltlk IDs unique across runs; the index within a run.
 */
export async function inSyntheticBatches(
  ctx: AppContext,
  count: number,
  write: (users: Insertable<UsersTable>[], now: number, done: number) => Promise<void>,
): Promise<{ tag: string; seconds: string }> {
  const tag = randomFrom('abcdefghjkmnpqrstuvwxyz', 5);
  const inviteCodes = new Set<string>();
  const started = Date.now();
  for (let done = 0; done < count;) {
    const size = Math.min(POPULATE_BATCH, count - done);
    const now = ctx.clock.now();
    const users: Insertable<UsersTable>[] = [];
    for (let i = 0; i < size; i += 1) users.push(syntheticUser(tag, done + i, now, inviteCodes));
    await write(users, now, done);
    done += size;
  }
  return { tag, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

/** A stored text message as the send path would write it, for rows written in bulk. */
export function textRow(
  conversationId: string,
  seq: number,
  senderId: string,
  text: string,
  at: number,
): Insertable<MessagesTable> {
  const content: MessageContent = { kind: 'text', text };
  return {
    id: newSortableId(at),
    conversation_id: conversationId,
    seq,
    sender_id: senderId,
    client_msg_id: `bench-${conversationId}-${seq}`,
    content: JSON.stringify(content),
    created_at: at,
    revoked_at: null,
    burn_at: null,
    burn_seconds: 0,
    lang: null,
    target_seq: null,
    edited_at: null,
    ...searchColumns(content),
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

export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Message rows per second of `count` single-row inserts into the messages table itself
 * (with its indexes), each its own statement and commit, by `senderId` into a scratch
 * conversation that is removed afterwards.
 */
export async function rawInsertRate(
  ctx: AppContext,
  senderId: string,
  count: number,
): Promise<number> {
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
        .values(textRow(conversationId, i + 1, senderId, `${PERSISTENCE_LINES[i % 6]} ${i}`, at))
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
    const conversationId = groupConversationId(options.get('group')!.trim());
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

/** The payment password the ledger benchmark gives the sender's wallet. */
const BENCH_PAYMENT_PASSWORD = '246802';

const benchLedger: OperatorCommand = {
  usage:
    'bench:ledger --group <groupId> --peer <userId> [--grabbers <n>] [--shares <n>] [--transfers <n>] [--rounds <n>]',
  summary:
    'For benchmarks, never in production: a red envelope of n shares opened by as many group members at once (how many got a share, and whether the ledger balances after), and transfers per second between 16 pairs of members made friends, through the transfer path, against single-row inserts of the same database; prints one JSON line',
  async run(args, open) {
    const options = parseOptions(
      args,
      ['group', 'peer', 'grabbers', 'shares', 'transfers', 'rounds'],
      ['group', 'peer'],
    );
    const whole = (name: string, fallback: number, max: number) => {
      const value = Number(options.get(name) ?? fallback);
      if (!Number.isInteger(value) || value < 1 || value > max) {
        throw new UsageError(`--${name} must be a whole number from 1 to ${max}`);
      }
      return value;
    };
    const grabbers = whole('grabbers', 1000, 100_000);
    if (grabbers < 32)
      throw new UsageError('--grabbers must be at least 32 (the transfers pair them up)');
    const shares = whole('shares', 100, ENVELOPE_SHARES_MAX);
    const transfers = whole('transfers', 2000, 100_000);
    const rounds = whole('rounds', 3, 20);
    const ctx = await open();
    if (ctx.config.production) {
      throw new UsageError('bench:ledger is refused when NODE_ENV is production');
    }
    const { db, services } = ctx;
    const conversationId = groupConversationId(options.get('group')!.trim());
    const owner = await db
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', conversationId)
      .where('role', '=', 'owner')
      .executeTakeFirst();
    if (!owner) throw new UsageError('no such group');
    const members = await db
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', conversationId)
      .where('role', '=', 'member')
      .where('user_id', '!=', options.get('peer')!.trim())
      .orderBy('user_id')
      .limit(grabbers)
      .execute();
    if (members.length < grabbers) {
      throw new UsageError(`the group has ${members.length} members to open it, not ${grabbers}`);
    }
    // A session of the sender's own, as the app has: money actions look at the caller's.
    const { id: sessionId } = await services.sessions.create(
      owner.user_id,
      { ip: '127.0.0.1', userAgent: 'teltlk-bench' },
      'password',
    );
    const sender = { userId: owner.user_id, sessionId };
    await services.wallets.create(sender);
    const wallet = await services.wallets.wallet(sender);
    if (!wallet.hasPassword) {
      await services.wallets.setPassword(sender, BENCH_PAYMENT_PASSWORD, {
        ip: null,
        userAgent: 'teltlk-bench',
      });
    }
    // Pi for the envelope and every transfer, as a recharge would bring it.
    const funds = 1_100_000_000;
    await db.transaction().execute((trx) =>
      services.ledger.post(trx, {
        key: `bench-fund:${newId()}`,
        kind: 'recharge',
        entries: [
          { account: { app: 'outside', currency: 'PI' }, amount: -funds },
          { account: { user: owner.user_id, purpose: 'available', currency: 'PI' }, amount: funds },
        ],
      }),
    );

    // Everyone at once on one envelope: exactly `shares` of them may get a share.
    const sent = await services.money.sendEnvelope(sender, {
      conversationId,
      clientMsgId: `bench-envelope-${newId()}`,
      total: '100',
      count: shares,
      split: 'random',
      greeting: 'bench',
      password: BENCH_PAYMENT_PASSWORD,
    });
    const envelopeId = (sent.content as { envelopeId: string }).envelopeId;
    const outcomes = await Promise.all(
      members.map(({ user_id }) =>
        services.money.open({ userId: user_id, sessionId: 'bench' }, envelopeId).then(
          (view) => (view.mine === null ? 'none' : 'share'),
          (error: unknown) => {
            if (error instanceof AppError && error.code === 'ENVELOPE_EMPTY') return 'empty';
            throw error;
          },
        ),
      ),
    );
    const grabsOk = outcomes.filter((outcome) => outcome === 'share').length;
    const problems = await services.ledger.verify(db);

    // Transfers between 16 pairs of friends at once (as many people pay at the same time),
    // one after another within each pair, against single-row inserts.
    const chains = 16;
    const pairs = Array.from({ length: chains }, (_, i) => ({
      from: members[2 * i]!.user_id,
      to: members[2 * i + 1]!.user_id,
    }));
    const now = Date.now();
    await db
      .insertInto('friendships')
      .values(
        pairs.flatMap(({ from, to }) => [
          { user_id: from, friend_id: to, remark: null, created_at: now },
          { user_id: to, friend_id: from, remark: null, created_at: now },
        ]),
      )
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    await db.transaction().execute(async (trx) => {
      for (const { from } of pairs) {
        await services.ledger.post(trx, {
          key: `bench-fund:${newId()}`,
          kind: 'recharge',
          entries: [
            { account: { app: 'outside', currency: 'PI' }, amount: -funds },
            { account: { user: from, purpose: 'available', currency: 'PI' }, amount: funds },
          ],
        });
      }
    });
    const transferRate = async (count: number, round: number) => {
      const perChain = Math.ceil(count / chains);
      const started = performance.now();
      await Promise.all(
        pairs.map(async ({ from, to }, chain) => {
          for (let i = 0; i < perChain; i += 1) {
            await services.money.transferChecked(
              { userId: from, sessionId: 'bench' },
              {
                conversationId: singleConversationId(from, to),
                clientMsgId: `bench-transfer-${round}-${chain}-${i}-${newId()}`,
                amount: '0.0001',
                note: PERSISTENCE_LINES[i % 6]!.slice(0, 40),
                password: BENCH_PAYMENT_PASSWORD,
              },
              to,
            );
          }
        }),
      );
      return (perChain * chains) / ((performance.now() - started) / 1000);
    };
    // Warm, then interleaved, so drift on a shared machine touches both alike.
    await transferRate(Math.min(200, transfers), -1);
    await rawInsertRate(ctx, owner.user_id, Math.min(transfers, 1000));
    const raw: number[] = [];
    const moved: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      raw.push(await rawInsertRate(ctx, owner.user_id, transfers));
      moved.push(await transferRate(transfers, round));
    }
    const rawPerS = median(raw);
    const transfersPerS = median(moved);
    const afterTransfers = await services.ledger.verify(db);
    return [
      JSON.stringify({
        dialect: ctx.dialect,
        grabbers,
        shares,
        grabsOk,
        ledgerProblems: [...problems, ...afterTransfers].slice(0, 5),
        transfersPerS,
        rawPerS,
        ratio: transfersPerS / rawPerS,
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
    const { db } = ctx;
    const owner = await db
      .selectFrom('users')
      .select('id')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!owner) throw new UsageError(`no user ${userId}`);
    const { seconds } = await inSyntheticBatches(ctx, count, async (peers, now, done) => {
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
          const text = `${PERSISTENCE_LINES[(done + i + seq) % 6]} ${seq}`;
          messages.push(textRow(conversationId, seq, senderId, text, at));
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
    });
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

/** `--online <k> --out <file>`: how many synthetic users get a session, and where their tokens go. */
function onlineOption(options: Map<string, string>, most: number): { count: number; out: string } {
  const given = options.get('online');
  const out = options.get('out')?.trim() ?? '';
  if (given === undefined) {
    if (out) throw new UsageError('--out goes with --online');
    return { count: 0, out };
  }
  const count = Number(given);
  if (!Number.isInteger(count) || count < 1 || count > most) {
    throw new UsageError(`--online must be a whole number from 1 to ${most}`);
  }
  if (!out) throw new UsageError('--online needs --out <file> for the tokens');
  return { count, out };
}

/** A session for each of these synthetic users, as sign-in makes one; answers the tokens. */
async function sessionsFor(
  ctx: AppContext,
  trx: Db,
  users: readonly Insertable<UsersTable>[],
): Promise<string[]> {
  const tokens: string[] = [];
  for (const user of users) {
    const session = await ctx.services.sessions.create(
      user.id,
      { ip: '127.0.0.1', userAgent: 'teltlk-bench' },
      'password',
      trx,
    );
    tokens.push(session.token);
  }
  return tokens;
}

async function writeTokens(file: string, tokens: readonly string[]): Promise<void> {
  if (tokens.length > 0) await writeFile(file, JSON.stringify(tokens), { mode: 0o600 });
}

const benchSessions: OperatorCommand = {
  usage: 'bench:sessions --users <n> --out <file>',
  summary:
    'For benchmarks, never in production: n synthetic accounts, each with a session, whose tokens are written to the file as a JSON array',
  async run(args, open) {
    const options = parseOptions(args, ['users', 'out'], ['users', 'out']);
    const count = Number(options.get('users'));
    if (!Number.isInteger(count) || count < 1 || count > BENCH_SESSIONS_MAX) {
      throw new UsageError(`--users must be a whole number from 1 to ${BENCH_SESSIONS_MAX}`);
    }
    const out = options.get('out')!.trim();
    const ctx = await open();
    if (ctx.config.production) {
      throw new UsageError('bench:sessions is refused when NODE_ENV is production');
    }
    const tokens: string[] = [];
    const { tag, seconds } = await inSyntheticBatches(ctx, count, async (users) => {
      await ctx.db.transaction().execute(async (trx) => {
        for (const rows of chunks(users)) await trx.insertInto('users').values(rows).execute();
        tokens.push(...(await sessionsFor(ctx, trx, users)));
      });
    });
    await writeTokens(out, tokens);
    return [
      `made ${count} synthetic accounts with a session each in ${seconds} s (Teltlk IDs b${tag}000000 onwards); tokens in ${out}`,
    ];
  },
};

/** More sessions than any benchmark opens sockets for. */
const BENCH_SESSIONS_MAX = 100_000;

/** More chats than any benchmark needs, far beyond what a person has. */
const POPULATE_CHATS_MAX = 100_000;

/** Rows split so that each INSERT stays under VALUES_PER_STATEMENT bound values. */
export function chunks<T extends object>(rows: readonly T[]): T[][] {
  if (rows.length === 0) return [];
  const size = Math.max(1, Math.floor(VALUES_PER_STATEMENT / Object.keys(rows[0]!).length));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export const benchCommands: Record<string, OperatorCommand> = {
  'bench:populate-group': benchPopulateGroup,
  'bench:persistence': benchPersistence,
  'bench:ledger': benchLedger,
  'bench:populate-chats': benchPopulateChats,
  'bench:read-chats': benchReadChats,
  'bench:sessions': benchSessions,
};
