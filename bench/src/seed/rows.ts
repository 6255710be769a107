import type { MessageContent } from '@teltlk/protocol';
import {
  generateInviteCode,
  newId,
  newSecret,
  newSortableId,
  newUserRow,
  randomFrom,
  searchColumns,
  UsageError,
  type AppContext,
  type MessagesTable,
  type UsersTable,
} from '@teltlk/server/tools';
import type { Insertable } from 'kysely';

/*
 * Rows written in bulk the way the server writes them (synthetic accounts, text messages),
 * and the raw insert rate the benchmarks measure the product against.
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

/** Every seeding command writes synthetic data: never into a production database. */
export function refuseInProduction(ctx: AppContext, command: string): void {
  if (ctx.config.production) {
    throw new UsageError(`${command} is refused when NODE_ENV is production`);
  }
}

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
export const PERSISTENCE_LINES = [
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

/** Rows split so that each INSERT stays under VALUES_PER_STATEMENT bound values. */
export function chunks<T extends object>(rows: readonly T[]): T[][] {
  if (rows.length === 0) return [];
  const size = Math.max(1, Math.floor(VALUES_PER_STATEMENT / Object.keys(rows[0]!).length));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
