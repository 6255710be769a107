import { sql } from 'kysely';
import type { Db, TranslationRow, TranslationsTable } from '../../db/schema.js';

/** A claim on one (message, language): the row written as `pending` with a lease. */
export interface Claim {
  message_id: string;
  lang: string;
  conversation_id: string;
  seq: number;
  source_lang: string;
}

/** Stored translations and each user's daily usage. */
export class TranslationRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): TranslationRepo {
    return new TranslationRepo(db);
  }

  findMany(messageIds: readonly string[], lang: string): Promise<TranslationRow[]> {
    if (messageIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('translations')
      .selectAll()
      .where('message_id', 'in', [...messageIds])
      .where('lang', '=', lang)
      .execute();
  }

  find(messageId: string, lang: string): Promise<TranslationRow | undefined> {
    return this.db
      .selectFrom('translations')
      .selectAll()
      .where('message_id', '=', messageId)
      .where('lang', '=', lang)
      .executeTakeFirst();
  }

  /** Writes a new pending row; false when one exists already (someone else has it). */
  async insertClaim(claim: Claim, now: number, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .insertInto('translations')
      .values({
        ...claim,
        status: 'pending',
        text: null,
        error: null,
        provider: null,
        lease_until: leaseUntil,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.columns(['message_id', 'lang']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Takes over an existing row as pending, only if it is still as it was read (same
   * status and time): of several racing, one wins.
   */
  async reclaim(
    row: Pick<TranslationRow, 'message_id' | 'lang' | 'status' | 'updated_at'>,
    now: number,
    leaseUntil: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('translations')
      .set({ status: 'pending', error: null, lease_until: leaseUntil, updated_at: now })
      .where('message_id', '=', row.message_id)
      .where('lang', '=', row.lang)
      .where('status', '=', row.status)
      .where('updated_at', '=', row.updated_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends a claim as done or failed, if it is still the claim that ran until `leaseUntil`. */
  settle(
    messageId: string,
    lang: string,
    leaseUntil: number,
    outcome: Pick<TranslationsTable, 'status' | 'text' | 'error' | 'provider'>,
    now: number,
  ): Promise<TranslationRow | undefined> {
    return this.db
      .updateTable('translations')
      .set({ ...outcome, updated_at: now })
      .where('message_id', '=', messageId)
      .where('lang', '=', lang)
      .where('status', '=', 'pending')
      .where('lease_until', '=', leaseUntil)
      .returningAll()
      .executeTakeFirst();
  }

  /** Drops the translations of messages that are gone (revoked, burnt): one delete per conversation. */
  async deleteFor(removed: readonly { conversationId: string; seq: number }[]): Promise<void> {
    const seqs = new Map<string, number[]>();
    for (const { conversationId, seq } of removed) {
      const list = seqs.get(conversationId) ?? [];
      list.push(seq);
      seqs.set(conversationId, list);
    }
    for (const [conversationId, list] of seqs) {
      await this.db
        .deleteFrom('translations')
        .where('conversation_id', '=', conversationId)
        .where('seq', 'in', list)
        .execute();
    }
  }

  async usage(userId: string, day: string): Promise<number> {
    const row = await this.db
      .selectFrom('translation_usage')
      .select('characters')
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .executeTakeFirst();
    return Number(row?.characters ?? 0);
  }

  /**
   * Adds `characters` to the user's usage of `day` only if it stays within `cap`: one
   * statement, so concurrent charges (from any node) cannot pass the cap together. The
   * day's first charge inserts the row; a racing first charge finds it and takes the
   * conditional update instead, on both dialects. False, and nothing counted, when the
   * cap would be passed.
   */
  async chargeUsage(
    userId: string,
    day: string,
    characters: number,
    cap: number,
  ): Promise<boolean> {
    if (characters > cap) return false;
    const result = await this.db
      .insertInto('translation_usage')
      .values({ user_id: userId, day, characters })
      .onConflict((conflict) =>
        conflict
          .columns(['user_id', 'day'])
          .doUpdateSet({ characters: sql`translation_usage.characters + excluded.characters` })
          .where(sql<number>`translation_usage.characters + excluded.characters`, '<=', cap),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Gives back a charge whose work was not done after all. */
  async refundUsage(userId: string, day: string, characters: number): Promise<void> {
    await this.db
      .updateTable('translation_usage')
      .set({ characters: sql`characters - ${characters}` })
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .execute();
  }
}
