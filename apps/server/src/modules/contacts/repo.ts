import { sql } from 'kysely';
import type { Db, FriendRequestRow, FriendshipRow, UserRow } from '../../db/schema.js';
import { valuesList } from '../../db/values.js';
import { officialUserRows, userColumns, userRow, userRows } from '../users/port.js';

/** Whether one user may message another, as messagingState reads it. */
export interface MessagingState {
  senderOfficial: boolean;
  recipientOfficial: boolean;
  blocked: boolean;
  friends: boolean;
}

/** Most pairs per look-up of blocks (a power of two: the VALUES list is padded to one). */
const BLOCK_LOOKUP_CHUNK = 512;

export class ContactRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): ContactRepo {
    return new ContactRepo(db);
  }

  findUser(id: string): Promise<UserRow | undefined> {
    return userRow(this.db, id);
  }

  usersByIds(ids: readonly string[]): Promise<UserRow[]> {
    return userRows(this.db, ids);
  }

  /**
   * Everything that decides whether `senderId` may message `recipientId`, in one query:
   * undefined if either user does not exist.
   */
  async messagingState(senderId: string, recipientId: string): Promise<MessagingState | undefined> {
    const row = await this.db
      .selectFrom(userColumns(this.db).as('s'))
      .innerJoin(userColumns(this.db).as('r'), (join) => join.on('r.id', '=', recipientId))
      .select((eb) => [
        's.official as sender_official',
        'r.official as recipient_official',
        eb
          .exists(
            eb
              .selectFrom('blocks as b')
              .select('b.user_id')
              .whereRef('b.user_id', '=', 'r.id')
              .whereRef('b.blocked_id', '=', 's.id'),
          )
          .as('blocked'),
        eb
          .exists(
            eb
              .selectFrom('friendships as f')
              .select('f.user_id')
              .whereRef('f.user_id', '=', 's.id')
              .whereRef('f.friend_id', '=', 'r.id'),
          )
          .as('friends'),
      ])
      .where('s.id', '=', senderId)
      .executeTakeFirst();
    if (!row) return undefined;
    // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
    return {
      senderOfficial: row.sender_official === 1,
      recipientOfficial: row.recipient_official === 1,
      blocked: Boolean(row.blocked),
      friends: Boolean(row.friends),
    };
  }

  /**
   * messagingState of many (sender, recipient) pairs in one query, keyed by
   * `sender\nrecipient`; pairs with a missing user are absent.
   */
  async messagingStates(
    pairs: readonly (readonly [string, string])[],
  ): Promise<Map<string, MessagingState>> {
    const states = new Map<string, MessagingState>();
    if (pairs.length === 0) return states;
    const { rows } = await sql<{
      sender_id: string;
      recipient_id: string;
      sender_official: number;
      recipient_official: number;
      blocked: unknown;
      friends: unknown;
    }>`with p (sender_id, recipient_id) as (${valuesList(pairs)})
      select p.sender_id, p.recipient_id, s.official as sender_official,
        r.official as recipient_official,
        exists (select 1 from blocks b where b.user_id = r.id and b.blocked_id = s.id) as blocked,
        exists (select 1 from friendships f where f.user_id = s.id and f.friend_id = r.id) as friends
      from p
      inner join ${userColumns(this.db)} s on s.id = p.sender_id
      inner join ${userColumns(this.db)} r on r.id = p.recipient_id`.execute(this.db);
    for (const row of rows) {
      // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
      states.set(`${row.sender_id}\n${row.recipient_id}`, {
        senderOfficial: row.sender_official === 1,
        recipientOfficial: row.recipient_official === 1,
        blocked: Boolean(row.blocked),
        friends: Boolean(row.friends),
      });
    }
    return states;
  }

  officialAccounts(): Promise<UserRow[]> {
    return officialUserRows(this.db);
  }

  // -------------------------------------------------------------------------- friendships

  findFriendship(userId: string, friendId: string): Promise<FriendshipRow | undefined> {
    return this.db
      .selectFrom('friendships')
      .selectAll()
      .where('user_id', '=', userId)
      .where('friend_id', '=', friendId)
      .executeTakeFirst();
  }

  /** Which of these users are friends of `userId`. */
  async friendsAmong(userId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('friendships')
      .select('friend_id')
      .where('user_id', '=', userId)
      .where('friend_id', 'in', [...ids])
      .execute();
    return new Set(rows.map((row) => row.friend_id));
  }

  friendships(userId: string): Promise<FriendshipRow[]> {
    return this.db.selectFrom('friendships').selectAll().where('user_id', '=', userId).execute();
  }

  /** Both sides of a friendship; a side that already exists keeps its remark and date. */
  async insertFriendship(userA: string, userB: string, now: number): Promise<void> {
    await this.db
      .insertInto('friendships')
      .values([
        { user_id: userA, friend_id: userB, remark: null, created_at: now },
        { user_id: userB, friend_id: userA, remark: null, created_at: now },
      ])
      .onConflict((oc) => oc.columns(['user_id', 'friend_id']).doNothing())
      .execute();
  }

  setRemark(
    userId: string,
    friendId: string,
    remark: string | null,
  ): Promise<FriendshipRow | undefined> {
    return this.db
      .updateTable('friendships')
      .set({ remark })
      .where('user_id', '=', userId)
      .where('friend_id', '=', friendId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Removes both sides; returns how many rows went. */
  async deleteFriendship(userA: string, userB: string): Promise<number> {
    const result = await this.db
      .deleteFrom('friendships')
      .where((eb) =>
        eb.or([
          eb.and([eb('user_id', '=', userA), eb('friend_id', '=', userB)]),
          eb.and([eb('user_id', '=', userB), eb('friend_id', '=', userA)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  // -------------------------------------------------------------------------- friend requests

  findRequest(id: string): Promise<FriendRequestRow | undefined> {
    return this.db
      .selectFrom('friend_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findRequestBetween(fromUserId: string, toUserId: string): Promise<FriendRequestRow | undefined> {
    return this.db
      .selectFrom('friend_requests')
      .selectAll()
      .where('from_user_id', '=', fromUserId)
      .where('to_user_id', '=', toUserId)
      .executeTakeFirst();
  }

  /**
   * Stores an application, or renews the sender's earlier one to the same person in place
   * (same id; new greeting and time; pending again), atomically against a concurrent send.
   */
  upsertRequest(row: FriendRequestRow): Promise<FriendRequestRow> {
    return this.db
      .insertInto('friend_requests')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['from_user_id', 'to_user_id']).doUpdateSet({
          greeting: row.greeting,
          status: 'pending',
          created_at: row.created_at,
          updated_at: row.updated_at,
          handled_at: null,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Moves a pending application to `status`; undefined if it was no longer pending. */
  settleRequest(id: string, status: string, now: number): Promise<FriendRequestRow | undefined> {
    return this.db
      .updateTable('friend_requests')
      .set({ status, updated_at: now, handled_at: now })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
  }

  /** Received (or sent) applications, newest first. */
  requestsOf(userId: string, side: 'received' | 'sent'): Promise<FriendRequestRow[]> {
    return this.db
      .selectFrom('friend_requests')
      .selectAll()
      .where(side === 'received' ? 'to_user_id' : 'from_user_id', '=', userId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  // -------------------------------------------------------------------------- blocks

  async isBlocked(userId: string, blockedId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('blocks')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('blocked_id', '=', blockedId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** True if a new block was stored, false if it was there already. */
  async insertBlock(userId: string, blockedId: string, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('blocks')
      .values({ user_id: userId, blocked_id: blockedId, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'blocked_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async deleteBlock(userId: string, blockedId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('blocks')
      .where('user_id', '=', userId)
      .where('blocked_id', '=', blockedId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Which of these (blocker, blocked) pairs are blocks, as `blocker\nblocked`: one query
   * per BLOCK_LOOKUP_CHUNK pairs (bound parameters are limited).
   */
  async blocksAmong(pairs: readonly (readonly [string, string])[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < pairs.length; start += BLOCK_LOOKUP_CHUNK) {
      const chunk = pairs.slice(start, start + BLOCK_LOOKUP_CHUNK);
      const { rows } = await sql<{ user_id: string; blocked_id: string }>`
        with p (user_id, blocked_id) as (${valuesList(chunk)})
        select distinct b.user_id, b.blocked_id from p
        inner join blocks b on b.user_id = p.user_id and b.blocked_id = p.blocked_id`.execute(
        this.db,
      );
      for (const row of rows) found.add(`${row.user_id}\n${row.blocked_id}`);
    }
    return found;
  }

  async blockedIds(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('blocks')
      .select('blocked_id')
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('blocked_id')
      .execute();
    return rows.map((row) => row.blocked_id);
  }
}
