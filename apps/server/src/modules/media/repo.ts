import type { Db, MediaRow } from '../../db/schema.js';

/** The media tables: stored media and the messages that carry them. */
export class MediaRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): MediaRepo {
    return db === this.db ? this : new MediaRepo(db);
  }

  async insert(row: MediaRow): Promise<void> {
    await this.db.insertInto('media').values(row).execute();
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
  }

  /**
   * Of these media, those the user may see: theirs, or carried by a message they can see
   * (a member of its conversation, after their history's start, not revoked).
   */
  async visibleTo(userId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const own = await this.db
      .selectFrom('media')
      .select('id')
      .where('id', 'in', [...ids])
      .where('owner_id', '=', userId)
      .execute();
    const carried = await this.db
      .selectFrom('message_media as mm')
      .innerJoin('conversation_members as cm', (join) =>
        join.onRef('cm.conversation_id', '=', 'mm.conversation_id').on('cm.user_id', '=', userId),
      )
      .innerJoin('messages as m', (join) =>
        join.onRef('m.conversation_id', '=', 'mm.conversation_id').onRef('m.seq', '=', 'mm.seq'),
      )
      .select('mm.media_id')
      .distinct()
      .where('mm.media_id', 'in', [...ids])
      .whereRef('mm.seq', '>', 'cm.min_seq')
      .where('m.revoked_at', 'is', null)
      .execute();
    return new Set([...own.map((row) => row.id), ...carried.map((row) => row.media_id)]);
  }
}
