import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import type { Database, MemberRow, MessageRow, MessagesTable } from '../../db/schema.js';
import { Prepared } from '../../db/prepared.js';
import { valuesList } from '../../db/values.js';

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

export const insertMessagesQuery = bySize(
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

export const findByClientMsgIdsQuery = bySize(
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

export const findMembersQuery = bySize(
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

export const unhideQuery = bySize(
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

export const advanceReadsQuery = bySize(
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

export const startBurnsQuery = bySize(
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

export const allocateSeqsQuery = new Prepared<
  'conversationId' | 'count' | 'now',
  { max_seq: number; burn_seconds: number }
>((db, param) =>
  db
    .updateTable('conversations')
    .set((eb) => ({ max_seq: eb('max_seq', '+', param('count')), updated_at: param('now') }))
    .where('id', '=', param('conversationId'))
    .returning(['max_seq', 'burn_seconds']),
);

export const advanceReadQuery = new Prepared<'conversationId' | 'userId' | 'seq' | 'now'>(
  (db, param) =>
    db
      .updateTable('conversation_members')
      .set({ read_seq: param('seq'), updated_at: param('now') })
      .where('conversation_id', '=', param('conversationId'))
      .where('user_id', '=', param('userId'))
      .where('read_seq', '<', param('seq')),
);

/**
 * The list padded to a power of two with copies of its first item, so a few SQL texts
 * serve every length of an `in (...)` list (SQLite keeps each compiled).
 */
export function padded<T>(items: readonly T[]): T[] {
  const list = [...items];
  let size = 1;
  while (size < list.length) size *= 2;
  while (list.length < size) list.push(items[0]!);
  return list;
}
