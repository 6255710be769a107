import { sql } from 'kysely';
import type { ExpressionBuilder, Insertable } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database, Db, MediaRow, MediaTable } from '../../db/schema.js';
import { seenBy, seenByAnyone, type MessageAt } from '../messages/visibility.js';
import { lockUserRow } from '../users/port.js';

/** The media tables: stored media, uploads under way, and the messages that carry media. */
export class MediaRepo {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  in(db: Db): MediaRepo {
    return db === this.db ? this : new MediaRepo(db, this.dialect);
  }

  /** Stores a media row; the upload it came from no longer counts as under way. */
  async insert(row: Insertable<MediaTable>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('media').values(row).execute();
      await trx.deleteFrom('upload_reservations').where('id', '=', row.id).execute();
    });
  }

  /**
   * Reserves `size` bytes of the owner's day for an upload, if what they stored since
   * `since` and their uploads under way (begun after `liveSince`) leave room for it
   * within `cap`; answers whether it did. The look and the reservation are one step
   * per person: on PostgreSQL their row is locked for it (SQLite runs one transaction
   * at a time), so uploads begun together are counted one after the other.
   */
  async reserve(
    reservation: { id: string; ownerId: string; size: number; now: number },
    window: { since: number; liveSince: number; cap: number },
  ): Promise<boolean> {
    const { id, ownerId, size, now } = reservation;
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') await lockUserRow(trx, ownerId);
      const stored = await new MediaRepo(trx, this.dialect).bytesSince(ownerId, window.since);
      const reserved = await trx
        .selectFrom('upload_reservations')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('total'))
        .where('owner_id', '=', ownerId)
        .where('created_at', '>', window.liveSince)
        .executeTakeFirst();
      if (stored + Number(reserved?.total ?? 0) + size > window.cap) return false;
      await trx
        .insertInto('upload_reservations')
        .values({ id, owner_id: ownerId, size, created_at: now })
        .execute();
      return true;
    });
  }

  /** An upload no longer under way (stored, refused, cancelled or dropped). */
  async release(id: string): Promise<void> {
    await this.db.deleteFrom('upload_reservations').where('id', '=', id).execute();
  }

  /** Forgets the reservations of uploads begun before `before`: their uploads have expired. */
  async releaseBefore(before: number): Promise<void> {
    await this.db.deleteFrom('upload_reservations').where('created_at', '<=', before).execute();
  }

  async byIds(ids: readonly string[]): Promise<MediaRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('media')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
  }

  /** Bytes a person stored since `since` (their uploads of the day). */
  async bytesSince(ownerId: string, since: number): Promise<number> {
    const row = await this.db
      .selectFrom('media')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('total'))
      .where('owner_id', '=', ownerId)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** Records which message carries which media (in the sending transaction). */
  async link(rows: readonly { media_id: string; conversation_id: string; seq: number }[]) {
    if (rows.length === 0) return;
    await this.db
      .insertInto('message_media')
      .values([...rows])
      .onConflict((oc) => oc.doNothing())
      .execute();
    await this.db
      .updateTable('media')
      .set({ sent: 1 })
      .where('id', 'in', [...new Set(rows.map((row) => row.media_id))])
      .where('sent', '=', 0)
      .execute();
  }

  /**
   * Of these media, those the user may see at `now`: theirs, kept as a favourite, or
   * carried by a message they may see (the messages module's rule: a member after their
   * history's start, and the message not recalled, burnt or deleted for them).
   */
  async visibleTo(userId: string, ids: readonly string[], now: number): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const own = await this.db
      .selectFrom('media')
      .select('id')
      .where('id', 'in', [...ids])
      .where('owner_id', '=', userId)
      .execute();
    const carried = await this.db
      .selectFrom('message_media as mm')
      .select('mm.media_id')
      .distinct()
      .where('mm.media_id', 'in', [...ids])
      .where(seenBy(userId, now, messageAt('mm')))
      .execute();
    const kept = await this.db
      .selectFrom('face_favourites')
      .select('media_id')
      .where('user_id', '=', userId)
      .where('media_id', 'in', [...ids])
      .execute();
    return new Set([
      ...own.map((row) => row.id),
      ...carried.map((row) => row.media_id),
      ...kept.map((row) => row.media_id),
    ]);
  }

  /** A user's favourite stickers, newest first. */
  async favourites(userId: string): Promise<MediaRow[]> {
    return this.db
      .selectFrom('face_favourites as f')
      .innerJoin('media', 'media.id', 'f.media_id')
      .selectAll('media')
      .where('f.user_id', '=', userId)
      .orderBy('f.created_at', 'desc')
      .execute();
  }

  async countFavourites(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('face_favourites')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Keeps a favourite; false if it was kept already. */
  async addFavourite(userId: string, mediaId: string, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('face_favourites')
      .values({ user_id: userId, media_id: mediaId, created_at: now })
      .onConflict((conflict) => conflict.columns(['user_id', 'media_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Lets a favourite go; answers whether there was one. */
  async removeFavourite(userId: string, mediaId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('face_favourites')
      .where('user_id', '=', userId)
      .where('media_id', '=', mediaId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Forgets these messages' media (revoked or burnt); answers the media they carried. */
  async unlink(messages: readonly { conversationId: string; seq: number }[]): Promise<string[]> {
    if (messages.length === 0) return [];
    const matching = (eb: ExpressionBuilder<Database, 'message_media'>) =>
      eb.or(
        messages.map(({ conversationId, seq }) =>
          eb.and([eb('conversation_id', '=', conversationId), eb('seq', '=', seq)]),
        ),
      );
    const rows = await this.db
      .selectFrom('message_media')
      .select('media_id')
      .where(matching)
      .execute();
    if (rows.length === 0) return [];
    await this.db.deleteFrom('message_media').where(matching).execute();
    return [...new Set(rows.map((row) => row.media_id))];
  }

  /**
   * Forgets which messages carried media where nobody may see the message any more (the
   * messages module's rule): it is recalled, burnt or gone, or every member deleted it for
   * themselves or cleared their history past it.
   */
  async unlinkGone(now: number): Promise<void> {
    await this.db
      .deleteFrom('message_media')
      .where((eb) => eb.not(seenByAnyone(now, messageAt('message_media'))))
      .execute();
  }

  /**
   * Media no message carries, at most `limit` of them: what messages carried once, and
   * what was stored before `unsentBefore` and never sent.
   */
  async unreferenced(
    unsentBefore: number,
    limit: number,
    among?: readonly string[],
  ): Promise<MediaRow[]> {
    if (among?.length === 0) return [];
    return (
      this.db
        .selectFrom('media')
        .selectAll()
        .$if(among !== undefined, (query) => query.where('id', 'in', [...among!]))
        .where((eb) => eb.or([eb('sent', '=', 1), eb('created_at', '<', unsentBefore)]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('message_media as mm')
                .select(sql<number>`1`.as('one'))
                .whereRef('mm.media_id', '=', 'media.id'),
            ),
          ),
        )
        // A favourite sticker keeps its photo.
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('face_favourites as f')
                .select(sql<number>`1`.as('one'))
                .whereRef('f.media_id', '=', 'media.id'),
            ),
          ),
        )
        .orderBy('created_at')
        .limit(limit)
        .execute()
    );
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .deleteFrom('media')
      .where('id', 'in', [...ids])
      .execute();
  }
}

/** The message a row of message_media (under `alias`) is carried by. */
function messageAt(alias: string): MessageAt {
  return {
    conversationId: sql.ref<string>(`${alias}.conversation_id`),
    seq: sql.ref<number>(`${alias}.seq`),
  };
}
