import { singleConversationId } from '@teltlk/protocol';
import {
  parseOptions,
  UsageError,
  type ConversationMembersTable,
  type ConversationsTable,
  type MessagesTable,
  type OperatorCommand,
} from '@teltlk/server/tools';
import { sql, type Insertable } from 'kysely';
import { chunks, inSyntheticBatches, refuseInProduction, textRow } from './rows.js';

/*
 * The search benchmark's seeding: a million messages made in bulk, and the
 * same searches done by reading every message (the baseline the index is measured by).
 */

const SEARCH_MESSAGES_MAX = 5_000_000;
/** Messages per transaction while populating. */
const SEARCH_BATCH = 20_000;

/** Words that fill the sentences' slots: places, food, times, and rare names. */
const PLACES = [
  'station',
  'harbour',
  'market',
  'airport',
  'library',
  'stadium',
  'museum',
  'bakery',
  '北京',
  '上海',
  '广州',
  '深圳',
  '台北',
  '香港',
  'Lisboa',
  'Madrid',
  'Москва',
  'Lagos',
];
const FOODS = ['烤鸭', 'dumplings', 'paella', 'pizza', 'ramen', 'tacos', '火锅', 'борщ'];
const TIMES = ['8:00', 'noon', 'tonight', 'tomorrow', '明天', '周末', 'mañana', 'завтра'];

/** What people write: templates in several languages, with slots for the words above. */
const TEMPLATES = [
  'See you at the {place} at {time}',
  'Did you try the {food} near the {place}?',
  '¿Nos vemos en {place} {time}?',
  '我们{time}去{place}吃{food}吧',
  '到{place}了，给我打电话',
  '這個週末要不要一起去{place}？',
  'Привет! Встретимся у {place} {time}?',
  'Thanks a lot for the {food}, {name} loved it',
  'Happy birthday {name}! Party at the {place} {time}',
  'ok',
  '好的，{time}见',
  'Estou chegando na {place} às {time}',
  'The meeting moved to {time}, tell {name}',
  'Voy a la {place} a comprar {food}',
];

/** A small fast generator, so the texts are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function sentence(next: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  return pick(TEMPLATES)
    .replace('{place}', pick(PLACES))
    .replace('{food}', pick(FOODS))
    .replace('{time}', pick(TIMES))
    .replace('{name}', `name${Math.floor(next() * 10_000)}`);
}

const populateSearch: OperatorCommand = {
  usage: 'populate-search --user <userId> --messages <n> [--chats <k>] [--mine <m>]',
  summary:
    "Store n messages in k one-to-one chats of synthetic accounts, m of them the user's, sent in time order; prints one JSON line",
  async run(args, open) {
    const options = parseOptions(args, ['user', 'messages', 'chats', 'mine'], ['user', 'messages']);
    const userId = options.get('user')!.trim();
    const total = Number(options.get('messages'));
    const chats = Number(options.get('chats') ?? 2000);
    const mine = Number(options.get('mine') ?? 400);
    if (!Number.isInteger(total) || total < 1 || total > SEARCH_MESSAGES_MAX) {
      throw new UsageError(`--messages must be a whole number from 1 to ${SEARCH_MESSAGES_MAX}`);
    }
    if (!Number.isInteger(mine) || !Number.isInteger(chats) || mine < 1 || chats < mine * 2) {
      throw new UsageError('--mine must be a whole number of at least 1, and --chats twice it');
    }
    const ctx = await open();
    refuseInProduction(ctx, 'populate-search');
    const { db } = ctx;
    const started = Date.now();
    // The user's peers; the chats the user is not in are between those peers.
    const peers: string[] = [];
    await inSyntheticBatches(ctx, mine, async (users) => {
      for (const rows of chunks(users)) await db.insertInto('users').values(rows).execute();
      peers.push(...users.map((user) => String(user.id)));
    });
    const pairs: [string, string][] = peers.map((peer) => [userId, peer]);
    for (let step = 1; pairs.length < chats; step += 1) {
      for (let i = 0; i < mine && pairs.length < chats; i += 1) {
        pairs.push([peers[i]!, peers[(i + step) % mine]!]);
      }
    }
    const now = ctx.clock.now();
    const perChat = Math.ceil(total / chats);
    // A hundred days of messages, oldest first.
    const spacing = Math.max(1, Math.floor((100 * 86_400_000) / (perChat * chats)));
    const start = now - spacing * perChat * chats;
    const conversations: Insertable<ConversationsTable>[] = [];
    const members: Insertable<ConversationMembersTable>[] = [];
    for (const [a, b] of pairs) {
      const id = singleConversationId(a, b);
      conversations.push({ id, kind: 'single', max_seq: 0, created_at: start, updated_at: now });
      for (const member of [a, b]) {
        members.push({ conversation_id: id, user_id: member, joined_at: start, updated_at: now });
      }
    }
    await db.transaction().execute(async (trx) => {
      for (const rows of chunks(conversations)) {
        await trx.insertInto('conversations').values(rows).execute();
      }
      for (const rows of chunks(members)) {
        await trx.insertInto('conversation_members').values(rows).execute();
      }
    });
    const next = random(12_345);
    let written = 0;
    let batch: Insertable<MessagesTable>[] = [];
    const flush = async () => {
      const rows = batch;
      batch = [];
      await db.transaction().execute(async (trx) => {
        for (const part of chunks(rows)) await trx.insertInto('messages').values(part).execute();
      });
    };
    // Every chat's first message, then every chat's second, and so on: rows in the order
    // a live server writes them.
    for (let seq = 1; written < total; seq += 1) {
      for (let chat = 0; chat < pairs.length && written < total; chat += 1) {
        const pair = pairs[chat]!;
        const at = start + written * spacing;
        const id = conversations[chat]!.id;
        batch.push(textRow(id, seq, pair[seq % 2]!, sentence(next), at));
        written += 1;
        if (batch.length >= SEARCH_BATCH) await flush();
      }
    }
    if (batch.length > 0) await flush();
    await sql`update conversations set max_seq = (
        select coalesce(max(m.seq), 0) from messages m where m.conversation_id = conversations.id)
      where id in (${sql.join(conversations.map(({ id }) => id))})`.execute(db);
    return [
      JSON.stringify({
        messages: written,
        chats: conversations.slice(0, mine).map(({ id }) => id),
        seconds: (Date.now() - started) / 1000,
      }),
    ];
  },
};

const searchScan: OperatorCommand = {
  usage: 'search-scan --user <userId> --queries <q1|q2|…>',
  summary:
    'Each search done without an index, reading every message the user can see for the newest 20 holding the words; prints one JSON line of times',
  async run(args, open) {
    const options = parseOptions(args, ['user', 'queries'], ['user', 'queries']);
    const userId = options.get('user')!.trim();
    const queries = options.get('queries')!.split('|').filter(Boolean);
    const ctx = await open();
    refuseInProduction(ctx, 'search-scan');
    const times: number[] = [];
    for (const query of queries) {
      const pattern = `%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      const started = performance.now();
      await sql`select m.* from messages m
        join conversation_members c on c.conversation_id = m.conversation_id
          and c.user_id = ${userId} and m.seq > c.min_seq
        where m.revoked_at is null and m.search_text like ${pattern} escape '\\'
        order by m.created_at desc limit 21`.execute(ctx.db);
      times.push(performance.now() - started);
    }
    return [JSON.stringify({ times })];
  },
};

export const searchCommands: Record<string, OperatorCommand> = {
  'populate-search': populateSearch,
  'search-scan': searchScan,
};
