import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import type {
  ConversationMembersTable,
  ConversationRow,
  Database,
  Db,
  MemberRow,
  MessageRow,
  MessagesTable,
} from '../../db/schema.js';
import { Prepared } from '../../db/prepared.js';
import { valuesList } from '../../db/values.js';
import type { Reader } from './visibility.js';

/** A member row with its conversation's columns, as sync reads them. */
export interface MemberView extends MemberRow {
  kind: string;
  max_seq: number;
  burn_seconds: number;
  mention_all_seq: number;
  conversation_updated_at: number;
}

export interface PageRange {
  after?: number | undefined;
  before?: number | undefined;
  limit: number;
}

type MessageScope = ExpressionBuilder<Database, 'messages'>;

/** Most (sender, client id) pairs findByClientMsgIds takes at once. */
export const CLIENT_ID_LOOKUP_MAX = 256;
/** Most (conversation, seq) pairs per look-up of messages (a power of two, as VALUES pads). */
const PAIR_LOOKUP_CHUNK = 512;
/** Most user ids per look-up of online members (bound parameters are limited). */
const ONLINE_LOOKUP_CHUNK = 1000;
/** Most message rows per INSERT (a power of two): 12 parameters each, far below the limits. */
const INSERT_CHUNK = 256;

/** A member's read mark moved to `seq`. */
export interface ReadMark {
  conversationId: string;
  userId: string;
  seq: number;
}

/** A reader who has now read up to `seq`, having read up to `fromSeq` before. */
export interface BurnRead {
  conversationId: string;
  readerId: string;
  fromSeq: number;
  seq: number;
}

export class MessageRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): MessageRepo {
    return new MessageRepo(db);
  }

  // -------------------------------------------------------------------------- conversations

  findConversation(id: string): Promise<ConversationRow | undefined> {
    return this.db.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findMember(conversationId: string, userId: string): Promise<MemberRow | undefined> {
    return this.db
      .selectFrom('conversation_members')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** Member rows of these (conversation, user) pairs, in one query (a pair may come twice). */
  async findMembers(pairs: readonly (readonly [string, string])[]): Promise<MemberRow[]> {
    if (pairs.length === 0) return [];
    const list = padded(pairs);
    const { rows } = await findMembersQuery(list.length).execute(
      this.db,
      ([row, column]) => list[row]![column],
    );
    return rows;
  }

  members(conversationId: string): Promise<MemberRow[]> {
    return this.db
      .selectFrom('conversation_members')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .execute();
  }

  /** Creates a conversation and its members; rows that exist already are left as they are. */
  async createConversation(
    id: string,
    kind: 'single' | 'group',
    userIds: readonly string[],
    now: number,
  ): Promise<void> {
    await this.db
      .insertInto('conversations')
      .values({ id, kind, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const members: Insertable<ConversationMembersTable>[] = userIds.map((userId) => ({
      conversation_id: id,
      user_id: userId,
      joined_at: now,
      updated_at: now,
    }));
    await this.db
      .insertInto('conversation_members')
      .values(members)
      .onConflict((oc) => oc.columns(['conversation_id', 'user_id']).doNothing())
      .execute();
  }

  /**
   * Takes the conversation's next `count` seqs, up to the max_seq returned. The row lock of
   * this update serializes concurrent senders, so seqs are handed out gap-free in commit order.
   */
  async allocateSeqs(
    conversationId: string,
    count: number,
    now: number,
  ): Promise<{ max_seq: number; burn_seconds: number }> {
    const values = { conversationId, count, now };
    const { rows } = await allocateSeqsQuery.execute(this.db, (slot) => values[slot]);
    const row = rows[0];
    if (!row) throw new Error(`no conversation ${conversationId} to append to`);
    return row;
  }

  /** Latest activity without a new message (read marks of a single conversation). */
  async touchConversation(conversationId: string, now: number): Promise<void> {
    await this.db
      .updateTable('conversations')
      .set({ updated_at: now })
      .where('id', '=', conversationId)
      .execute();
  }

  async setBurnSeconds(conversationId: string, seconds: number): Promise<void> {
    await this.db
      .updateTable('conversations')
      .set({ burn_seconds: seconds })
      .where('id', '=', conversationId)
      .execute();
  }

  /** Brings conversations back into the chat lists of members who deleted them. */
  async unhideMembers(conversationIds: readonly string[], now: number): Promise<void> {
    if (conversationIds.length === 0) return;
    const list = padded(conversationIds);
    await unhideQuery(list.length).execute(this.db, (slot) => (slot === 'now' ? now : list[slot]));
  }

  updateMember(
    conversationId: string,
    userId: string,
    changes: Partial<
      Pick<
        MemberRow,
        'pinned' | 'muted' | 'hidden' | 'min_seq' | 'updated_at' | 'translate_off' | 'translate_to'
      >
    >,
  ): Promise<MemberRow | undefined> {
    return this.db
      .updateTable('conversation_members')
      .set(changes)
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Moves read_seq forward to `seq`; false if it was there already (it never moves back). */
  async advanceRead(
    conversationId: string,
    userId: string,
    seq: number,
    now: number,
  ): Promise<boolean> {
    const values = { conversationId, userId, seq, now };
    const result = await advanceReadQuery.execute(this.db, (slot) => values[slot]);
    return (result.numAffectedRows ?? 0n) > 0n;
  }

  /**
   * Starts the burn clock of messages `readerId` has now read: those others sent while
   * burning was on, after `fromSeq` (their previous read mark) up to `seq`, that are not
   * burning yet.
   */
  async startBurn(
    conversationId: string,
    readerId: string,
    fromSeq: number,
    seq: number,
    now: number,
  ): Promise<void> {
    await this.startBurns([{ conversationId, readerId, fromSeq, seq }], now);
  }

  /**
   * Many read marks at once, each moved forward to its seq (never back): one statement for
   * a whole batch of sends, whose senders have read up to their own new messages. The
   * rows' updated_at is left as it is: the same sends moved their conversations' updated_at,
   * which sync reads beside it, and each row changes in one index (its read mark's) instead
   * of two.
   */
  async advanceReads(marks: readonly ReadMark[]): Promise<void> {
    if (marks.length === 0) return;
    const list = padded(marks);
    await advanceReadsQuery(list.length).execute(this.db, ([index, field]) => list[index]![field]);
  }

  /**
   * startBurn for many readers at once: each reader's range from `fromSeq` (exclusive) to
   * `seq`, of messages others sent with burning on that are not burning yet.
   */
  async startBurns(reads: readonly BurnRead[], now: number): Promise<void> {
    if (reads.length === 0) return;
    const list = padded(reads);
    await startBurnsQuery(list.length).execute(this.db, (slot) =>
      slot === 'now' ? now : list[slot[0]]![slot[1]],
    );
  }

  /** The caller's conversations whose conversation or member row changed after `since`. */
  changedSince(
    userId: string,
    since: number,
    afterId: string | null,
    limit: number,
  ): Promise<MemberView[]> {
    return this.db
      .selectFrom('conversation_members as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .selectAll('m')
      .select([
        'c.kind',
        'c.max_seq',
        'c.burn_seconds',
        'c.mention_all_seq',
        'c.updated_at as conversation_updated_at',
      ])
      .where('m.user_id', '=', userId)
      .where((eb) => eb.or([eb('m.updated_at', '>', since), eb('c.updated_at', '>', since)]))
      .$if(afterId !== null, (qb) => qb.where('m.conversation_id', '>', afterId ?? ''))
      .orderBy('m.conversation_id')
      .limit(limit)
      .execute();
  }

  /** One member row with its conversation's columns. */
  memberView(conversationId: string, userId: string): Promise<MemberView | undefined> {
    return this.db
      .selectFrom('conversation_members as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .selectAll('m')
      .select([
        'c.kind',
        'c.max_seq',
        'c.burn_seconds',
        'c.mention_all_seq',
        'c.updated_at as conversation_updated_at',
      ])
      .where('m.conversation_id', '=', conversationId)
      .where('m.user_id', '=', userId)
      .executeTakeFirst();
  }

  /** read_seq of every member of these conversations other than `userId`. */
  otherMembersReadSeqs(
    conversationIds: readonly string[],
    userId: string,
  ): Promise<{ conversation_id: string; user_id: string; read_seq: number }[]> {
    if (conversationIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('conversation_members')
      .select(['conversation_id', 'user_id', 'read_seq'])
      .where('conversation_id', 'in', [...conversationIds])
      .where('user_id', '!=', userId)
      .execute();
  }

  async memberCount(conversationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('conversation_members')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('conversation_id', '=', conversationId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * Which of these users are members of the conversation: point look-ups on the primary
   * key, whatever the size of the group.
   */
  async membersAmong(conversationId: string, userIds: readonly string[]): Promise<string[]> {
    const found: string[] = [];
    for (let start = 0; start < userIds.length; start += ONLINE_LOOKUP_CHUNK) {
      const rows = await this.db
        .selectFrom('conversation_members')
        .select('user_id')
        .where('conversation_id', '=', conversationId)
        .where('user_id', 'in', userIds.slice(start, start + ONLINE_LOOKUP_CHUNK))
        .execute();
      for (const row of rows) found.push(row.user_id);
    }
    return found;
  }

  /**
   * Which of these users are members of the conversation, each with the seq their history
   * starts after and the language they read it in: point look-ups on the primary key,
   * whatever the size of the group (in chunks).
   */
  async readersAmong(conversationId: string, userIds: readonly string[]): Promise<Reader[]> {
    const found: Reader[] = [];
    for (let start = 0; start < userIds.length; start += ONLINE_LOOKUP_CHUNK) {
      const rows = await this.db
        .selectFrom('conversation_members as cm')
        .innerJoin('users as u', 'u.id', 'cm.user_id')
        .select([
          'cm.user_id',
          'cm.min_seq',
          'cm.translate_off',
          'cm.translate_to',
          'u.mother_tongue',
        ])
        .where('cm.conversation_id', '=', conversationId)
        .where('cm.user_id', 'in', userIds.slice(start, start + ONLINE_LOOKUP_CHUNK))
        .execute();
      for (const row of rows) {
        found.push({
          userId: row.user_id,
          minSeq: Number(row.min_seq),
          lang: row.translate_off ? null : (row.translate_to ?? row.mother_tongue),
        });
      }
    }
    return found;
  }

  /** Marks these members as mentioned at `seq` (non-members are not written). */
  async setMentioned(
    conversationId: string,
    userIds: readonly string[],
    seq: number,
  ): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .updateTable('conversation_members')
      .set({ mention_seq: seq })
      .where('conversation_id', '=', conversationId)
      .where('user_id', 'in', [...userIds])
      .where('mention_seq', '<', seq)
      .execute();
  }

  /** @all: one write on the conversation, whatever the number of members. */
  async setMentionAll(conversationId: string, seq: number): Promise<void> {
    await this.db
      .updateTable('conversations')
      .set({ mention_all_seq: seq })
      .where('id', '=', conversationId)
      .where('mention_all_seq', '<', seq)
      .execute();
  }

  /** A member's clear mark and translation language, with their mother tongue. */
  reader(conversationId: string, userId: string) {
    return this.db
      .selectFrom('conversation_members as cm')
      .innerJoin('users as u', 'u.id', 'cm.user_id')
      .select(['cm.min_seq', 'cm.translate_to', 'u.mother_tongue'])
      .where('cm.conversation_id', '=', conversationId)
      .where('cm.user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * Of these seqs, the messages `userId` can see (after `minSeq`, not revoked, burnt or
   * deleted for them), by seq: what they may forward.
   */
  visibleAt(
    userId: string,
    conversationId: string,
    minSeq: number,
    seqs: readonly number[],
    now: number,
  ): Promise<MessageRow[]> {
    if (seqs.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where((eb) => visibleTo(eb, userId, conversationId, minSeq, now))
      .where('seq', '>', minSeq)
      .where('seq', 'in', [...seqs])
      .where('revoked_at', 'is', null)
      .orderBy('seq')
      .execute();
  }

  /** Messages of a conversation by seq (any state; callers decide what to serve). */
  bySeqs(conversationId: string, seqs: readonly number[]): Promise<MessageRow[]> {
    if (seqs.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('seq', 'in', [...seqs])
      .execute();
  }

  /**
   * Messages at these (conversation, seq) pairs, in any state (what replies quote), one
   * query per PAIR_LOOKUP_CHUNK pairs; pairs with no message are left out.
   */
  async messagesAt(pairs: readonly (readonly [string, number])[]): Promise<MessageRow[]> {
    const found: MessageRow[] = [];
    for (let start = 0; start < pairs.length; start += PAIR_LOOKUP_CHUNK) {
      // Cast: PostgreSQL would otherwise read the seqs of a VALUES list as text.
      const tuples = pairs
        .slice(start, start + PAIR_LOOKUP_CHUNK)
        .map(([conversationId, seq]) => [conversationId, sql`cast(${seq} as bigint)`]);
      const { rows } = await sql<MessageRow>`
        with q (conversation_id, seq) as (${valuesList(tuples)})
        select distinct m.* from q
        inner join messages m on m.conversation_id = q.conversation_id and m.seq = q.seq`.execute(
        this.db,
      );
      found.push(...rows);
    }
    return found;
  }

  // -------------------------------------------------------------------------- messages

  findByClientMsgId(senderId: string, clientMsgId: string): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('sender_id', '=', senderId)
      .where('client_msg_id', '=', clientMsgId)
      .executeTakeFirst();
  }

  /**
   * Stored messages among these (sender, client id) pairs, in one query. The list is
   * padded to a power of two so that a few SQL texts serve every batch size (SQLite keeps
   * each compiled); callers keep batches to at most CLIENT_ID_LOOKUP_MAX pairs.
   */
  async findByClientMsgIds(pairs: readonly (readonly [string, string])[]): Promise<MessageRow[]> {
    if (pairs.length === 0) return [];
    if (pairs.length > CLIENT_ID_LOOKUP_MAX) throw new Error('too many client ids in one look-up');
    const list = padded(pairs);
    const { rows } = await findByClientMsgIdsQuery(list.length).execute(
      this.db,
      ([row, column]) => list[row]![column],
    );
    return rows;
  }

  findMessage(conversationId: string, seq: number): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('seq', '=', seq)
      .executeTakeFirst();
  }

  /**
   * Inserts in statements of power-of-two row counts (at most INSERT_CHUNK rows: bound
   * parameters are limited), so a few SQL texts serve every batch size and SQLite keeps
   * each compiled: 120 rows go as 64 + 32 + 16 + 8.
   */
  async insertMessages(rows: readonly MessageRow[]): Promise<void> {
    let start = 0;
    while (start < rows.length) {
      let size = INSERT_CHUNK;
      while (size > rows.length - start) size /= 2;
      const first = start;
      await insertMessagesQuery(size).execute(
        this.db,
        ([row, column]) => rows[first + row]![column],
      );
      start += size;
    }
  }

  async setRevoked(conversationId: string, seq: number, now: number): Promise<void> {
    await this.db
      .updateTable('messages')
      .set({ revoked_at: now, search_text: null, search_grams: null })
      .where('conversation_id', '=', conversationId)
      .where('seq', '=', seq)
      .execute();
  }

  /** A message's translations, made of words it no longer has. */
  async deleteTranslations(messageId: string): Promise<void> {
    await this.db.deleteFrom('translations').where('message_id', '=', messageId).execute();
  }

  /** A text's new words: its content, language and search text, and when it was edited. */
  async setEdited(
    conversationId: string,
    seq: number,
    change: Pick<MessageRow, 'content' | 'lang' | 'search_text' | 'search_grams' | 'edited_at'>,
  ): Promise<void> {
    await this.db
      .updateTable('messages')
      .set(change)
      .where('conversation_id', '=', conversationId)
      .where('seq', '=', seq)
      .execute();
  }

  /**
   * Messages `userId` may see, ascending by seq: after their min_seq, not deleted for
   * them, not burnt. One more row than `limit` tells whether the page has more.
   */
  async page(
    userId: string,
    conversationId: string,
    minSeq: number,
    now: number,
    range: PageRange,
  ): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
    const { after, before, limit } = range;
    const newestFirst = after === undefined;
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where((eb) => visibleTo(eb, userId, conversationId, minSeq, now))
      .where('seq', '>', Math.max(minSeq, after ?? 0))
      .$if(before !== undefined, (qb) => qb.where('seq', '<', before ?? 0))
      .orderBy('seq', newestFirst ? 'desc' : 'asc')
      .limit(limit + 1)
      .execute();
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    if (newestFirst) page.reverse();
    return { rows: page, hasMore };
  }

  /**
   * The last message of each conversation as the user sees it in the list, in one
   * statement per chunk: the newest after its `minSeq` (where the user's history starts)
   * that is not burnt, not deleted for the user, and no notice about a message from
   * before their history (visibleTo, in SQL), found by walking its seqs down from the
   * newest. Conversations with none are left out.
   */
  async lastVisibleMany(
    userId: string,
    entries: readonly { conversationId: string; minSeq: number }[],
    now: number,
  ): Promise<MessageRow[]> {
    const found: MessageRow[] = [];
    for (let start = 0; start < entries.length; start += PAIR_LOOKUP_CHUNK) {
      // Cast: PostgreSQL would otherwise read the seqs of a VALUES list as text.
      const tuples = entries
        .slice(start, start + PAIR_LOOKUP_CHUNK)
        .map(({ conversationId, minSeq }) => [conversationId, sql`cast(${minSeq} as bigint)`]);
      const { rows } = await sql<MessageRow>`
        with q (conversation_id, min_seq) as (${valuesList(tuples)})
        select distinct m.* from q
        inner join messages m on m.conversation_id = q.conversation_id and m.seq = (
          select x.seq from messages x
          where x.conversation_id = q.conversation_id
            and x.seq > q.min_seq
            and (x.burn_at is null or x.burn_at > ${now})
            and (x.target_seq is null or x.target_seq > q.min_seq)
            and not exists (
              select 1 from message_hides h
              where h.user_id = ${userId} and h.conversation_id = x.conversation_id and h.seq = x.seq
            )
          order by x.seq desc
          limit 1
        )`.execute(this.db);
      found.push(...rows);
    }
    return found;
  }

  /** True if the message was newly deleted for the user. */
  async insertHide(
    userId: string,
    conversationId: string,
    seq: number,
    now: number,
  ): Promise<boolean> {
    const result = await this.db
      .insertInto('message_hides')
      .values({ user_id: userId, conversation_id: conversationId, seq, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'conversation_id', 'seq']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Deletes messages whose burn time has passed; returns how many went. */
  async deleteBurnt(now: number): Promise<{ conversation_id: string; seq: number }[]> {
    const burnt = await this.db
      .deleteFrom('messages')
      .where('burn_at', '<=', now)
      .returning(['conversation_id', 'seq'])
      .execute();
    for (const { conversation_id, seq } of burnt) {
      await this.db
        .deleteFrom('message_hides')
        .where('conversation_id', '=', conversation_id)
        .where('seq', '=', seq)
        .execute();
    }
    return burnt.map(({ conversation_id, seq }) => ({ conversation_id, seq: Number(seq) }));
  }
}

// The queries of the send path, compiled once (db/prepared.ts). Lists come in power-of-two
// sizes, each its own query.

/** Prepared queries by list size, made on first use. */
function bySize<S, R>(build: (size: number) => Prepared<S, R>): (size: number) => Prepared<S, R> {
  const made = new Map<number, Prepared<S, R>>();
  return (size) => {
    let query = made.get(size);
    if (!query) {
      query = build(size);
      made.set(size, query);
    }
    return query;
  };
}

const MESSAGE_COLUMNS = [
  'id',
  'conversation_id',
  'seq',
  'sender_id',
  'client_msg_id',
  'content',
  'created_at',
  'revoked_at',
  'burn_at',
  'burn_seconds',
  'lang',
  'target_seq',
  'search_text',
  'search_grams',
] as const satisfies readonly (keyof MessageRow)[];

const insertMessagesQuery = bySize(
  (size) =>
    new Prepared<[number, (typeof MESSAGE_COLUMNS)[number]]>((db, param) =>
      db
        .insertInto('messages')
        .values(
          Array.from(
            { length: size },
            (_, row) =>
              Object.fromEntries(
                MESSAGE_COLUMNS.map((column) => [column, param([row, column])]),
              ) as Insertable<MessagesTable>,
          ),
        ),
    ),
);

const findByClientMsgIdsQuery = bySize(
  (size) =>
    new Prepared<[number, 0 | 1], MessageRow>((db, param) =>
      db
        .selectFrom('messages')
        .selectAll()
        .where((eb) =>
          eb.or(
            Array.from({ length: size }, (_, row) =>
              eb.and([
                eb('sender_id', '=', param([row, 0])),
                eb('client_msg_id', '=', param([row, 1])),
              ]),
            ),
          ),
        ),
    ),
);

const findMembersQuery = bySize(
  (size) =>
    new Prepared<[number, 0 | 1], MemberRow>((db, param) => {
      const query = sql<MemberRow>`with p (conversation_id, user_id) as (${valuesList(
        Array.from({ length: size }, (_, row) => [param([row, 0]), param([row, 1])]),
      )})
        select m.* from p
        inner join conversation_members m
          on m.conversation_id = p.conversation_id and m.user_id = p.user_id`;
      return { compile: () => query.compile(db) };
    }),
);

const unhideQuery = bySize(
  (size) =>
    new Prepared<number | 'now'>((db, param) =>
      db
        .updateTable('conversation_members')
        .set({ hidden: 0, updated_at: param('now') })
        .where(
          'conversation_id',
          'in',
          Array.from({ length: size }, (_, index) => param(index)),
        )
        .where('hidden', '=', 1),
    ),
);

/** A slot of a read mark's value in a prepared statement: its index in the list, and which. */
type MarkSlot = [number, keyof ReadMark];

type MemberScope = ExpressionBuilder<Database, 'conversation_members'>;

/** Whether a member row is the one of mark `index`, and behind it. */
function behindMark(eb: MemberScope, param: (slot: MarkSlot) => never, index: number) {
  return eb.and([
    eb('conversation_id', '=', param([index, 'conversationId'])),
    eb('user_id', '=', param([index, 'userId'])),
    eb('read_seq', '<', param([index, 'seq'])),
  ]);
}

/** The new read_seq of a row: the seq of the first mark it is behind, else its own. */
function markedSeq(eb: MemberScope, param: (slot: MarkSlot) => never, size: number) {
  let seq = eb
    .case()
    .when(behindMark(eb, param, 0))
    .then(eb.val<number>(param([0, 'seq'])));
  for (let index = 1; index < size; index += 1) {
    seq = seq.when(behindMark(eb, param, index)).then(eb.val<number>(param([index, 'seq'])));
  }
  return seq.else(eb.ref('read_seq')).end();
}

const advanceReadsQuery = bySize(
  (size) =>
    new Prepared<MarkSlot>((db, param) =>
      db
        .updateTable('conversation_members')
        .set((eb) => ({ read_seq: markedSeq(eb, param, size) }))
        .where((eb) =>
          eb.or(Array.from({ length: size }, (_, index) => behindMark(eb, param, index))),
        ),
    ),
);

const startBurnsQuery = bySize(
  (size) =>
    new Prepared<[number, keyof BurnRead] | 'now'>((db, param) =>
      db
        .updateTable('messages')
        // Cast: PostgreSQL would otherwise take the parameter as an integer like burn_seconds.
        .set((eb) => ({
          burn_at: eb(
            eb.cast<number>(eb.val(param('now')), 'bigint'),
            '+',
            eb('burn_seconds', '*', 1000),
          ),
        }))
        .where('burn_seconds', '>', 0)
        .where('burn_at', 'is', null)
        .where((eb) =>
          eb.or(
            Array.from({ length: size }, (_, index) =>
              eb.and([
                eb('conversation_id', '=', param([index, 'conversationId'])),
                eb('sender_id', '!=', param([index, 'readerId'])),
                eb('seq', '>', param([index, 'fromSeq'])),
                eb('seq', '<=', param([index, 'seq'])),
              ]),
            ),
          ),
        ),
    ),
);

const allocateSeqsQuery = new Prepared<
  'conversationId' | 'count' | 'now',
  { max_seq: number; burn_seconds: number }
>((db, param) =>
  db
    .updateTable('conversations')
    .set((eb) => ({ max_seq: eb('max_seq', '+', param('count')), updated_at: param('now') }))
    .where('id', '=', param('conversationId'))
    .returning(['max_seq', 'burn_seconds']),
);

const advanceReadQuery = new Prepared<'conversationId' | 'userId' | 'seq' | 'now'>((db, param) =>
  db
    .updateTable('conversation_members')
    .set({ read_seq: param('seq'), updated_at: param('now') })
    .where('conversation_id', '=', param('conversationId'))
    .where('user_id', '=', param('userId'))
    .where('read_seq', '<', param('seq')),
);

/**
 * Messages of a conversation a member may see, apart from the seq range: not burnt, not
 * deleted for them, and no notice about a message from before their history starts
 * (messageFor, in SQL).
 */
function visibleTo(
  eb: MessageScope,
  userId: string,
  conversationId: string,
  minSeq: number,
  now: number,
) {
  return eb.and([
    eb('messages.conversation_id', '=', conversationId),
    eb.or([eb('messages.burn_at', 'is', null), eb('messages.burn_at', '>', now)]),
    eb.or([eb('messages.target_seq', 'is', null), eb('messages.target_seq', '>', minSeq)]),
    eb.not(
      eb.exists(
        eb
          .selectFrom('message_hides as h')
          .select('h.seq')
          .where('h.user_id', '=', userId)
          .whereRef('h.conversation_id', '=', 'messages.conversation_id')
          .whereRef('h.seq', '=', 'messages.seq'),
      ),
    ),
  ]);
}

/**
 * The list padded to a power of two with copies of its first item, so a few SQL texts
 * serve every length of an `in (...)` list (SQLite keeps each compiled).
 */
function padded<T>(items: readonly T[]): T[] {
  const list = [...items];
  let size = 1;
  while (size < list.length) size *= 2;
  while (list.length < size) list.push(items[0]!);
  return list;
}
