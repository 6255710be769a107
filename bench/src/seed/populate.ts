import { GROUP_MAX_MEMBERS, groupConversationId, singleConversationId } from '@teltlk/protocol';
import {
  parseOptions,
  UsageError,
  type AppContext,
  type ConversationMembersTable,
  type ConversationsTable,
  type Db,
  type MessagesTable,
  type OperatorCommand,
  type UsersTable,
} from '@teltlk/server/tools';
import { sql, type Insertable } from 'kysely';
import { writeFile } from 'node:fs/promises';
import {
  chunks,
  inSyntheticBatches,
  median,
  PERSISTENCE_LINES,
  refuseInProduction,
  textRow,
} from './rows.js';

/*
 * Synthetic populations made in bulk: members of a group, a person's chats, accounts with a
 * session each; and the plain SQL read that first sync is measured against.
 */

/** More sessions than any benchmark opens sockets for. */
const SESSIONS_MAX = 100_000;
/** More chats than any benchmark needs, far beyond what a person has. */
const POPULATE_CHATS_MAX = 100_000;

const populateGroup: OperatorCommand = {
  usage: 'populate-group --group <groupId> --members <n> [--online <k> --out <file>]',
  summary:
    'Add n synthetic accounts that cannot sign in to a group as members; with --online, the first k also get a session each, whose tokens are written to the file as a JSON array',
  async run(args, open) {
    const options = parseOptions(args, ['group', 'members', 'online', 'out'], ['group', 'members']);
    const groupId = options.get('group')!.trim();
    const count = Number(options.get('members'));
    if (!Number.isInteger(count) || count < 1 || count > GROUP_MAX_MEMBERS) {
      throw new UsageError(`--members must be a whole number from 1 to ${GROUP_MAX_MEMBERS}`);
    }
    const online = onlineOption(options, count);
    const ctx = await open();
    refuseInProduction(ctx, 'populate-group');
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

const populateChats: OperatorCommand = {
  usage: 'populate-chats --user <userId> --chats <n> [--messages <k>]',
  summary:
    'Give a user n one-to-one chats with n synthetic accounts that cannot sign in, k messages in each',
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
    refuseInProduction(ctx, 'populate-chats');
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

const readChats: OperatorCommand = {
  usage: 'read-chats --user <userId> [--rounds <n>]',
  summary:
    "Time one plain SQL read of a user's conversation list with each last message (the baseline of first sync); prints one JSON line",
  async run(args, open) {
    const options = parseOptions(args, ['user', 'rounds'], ['user']);
    const userId = options.get('user')!.trim();
    const rounds = Number(options.get('rounds') ?? 3);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) {
      throw new UsageError('--rounds must be a whole number from 1 to 20');
    }
    const ctx = await open();
    refuseInProduction(ctx, 'read-chats');
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

const sessions: OperatorCommand = {
  usage: 'sessions --users <n> --out <file>',
  summary:
    'Make n synthetic accounts, each with a session, whose tokens are written to the file as a JSON array',
  async run(args, open) {
    const options = parseOptions(args, ['users', 'out'], ['users', 'out']);
    const count = Number(options.get('users'));
    if (!Number.isInteger(count) || count < 1 || count > SESSIONS_MAX) {
      throw new UsageError(`--users must be a whole number from 1 to ${SESSIONS_MAX}`);
    }
    const out = options.get('out')!.trim();
    const ctx = await open();
    refuseInProduction(ctx, 'sessions');
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

export const populateCommands: Record<string, OperatorCommand> = {
  'populate-group': populateGroup,
  'populate-chats': populateChats,
  'read-chats': readChats,
  sessions,
};
