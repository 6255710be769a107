import { sql, type Selectable } from 'kysely';
import { after } from '../../db/keyset.js';
import type { Db, MinersTable, MiningSessionsTable, UserRow } from '../../db/schema.js';
import type { InviteeReads } from './directory.js';

export type MinerRow = Selectable<MinersTable>;
export type SessionRow = Selectable<MiningSessionsTable>;

/** An invitee's session beside another, from when their invitation counted. */
export interface BoosterRow {
  started_at: number;
  ends_at: number;
  country: string;
  qualified_at: number | null;
}

/** A direct invitee with what the team list shows of their mining. */
export type TeamMemberRow = UserRow & Pick<MinerRow, 'ends_at' | 'qualified_at' | 'nudged_at'>;

/**
 * The SQL of mining and the team: the people who check in (miners), their sessions, the ads
 * and mailboxes that counted. Who invited whom comes from the users module (InviteeReads).
 */
export class GrowthRepo {
  constructor(
    private readonly db: Db,
    private readonly people: InviteeReads,
  ) {}

  in(db: Db): GrowthRepo {
    return new GrowthRepo(db, this.people);
  }

  // ------------------------------------------------------------------------------ mining

  miner(userId: string): Promise<MinerRow | undefined> {
    return this.db
      .selectFrom('miners')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  session(id: string): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('mining_sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * One statement for the person's row: made at a first check-in, and a session started on
   * it unless one is running (then nothing comes back). An invitation that counts from
   * `now` is marked here too: `qualified_at` comes back as `now`.
   */
  startOn(
    userId: string,
    running: { session_id: string; started_at: number; ends_at: number },
    now: number,
    qualifies: boolean,
  ): Promise<Pick<MinerRow, 'checkins' | 'reminders' | 'qualified_at'> | undefined> {
    return this.db
      .insertInto('miners')
      .values({
        user_id: userId,
        ...running,
        checkins: 1,
        qualified_at: qualifies ? now : null,
        nudged_at: null,
      })
      .onConflict((c) =>
        c
          .column('user_id')
          .doUpdateSet({
            ...running,
            checkins: sql`miners.checkins + 1`,
            ...(qualifies ? { qualified_at: sql`coalesce(miners.qualified_at, ${now})` } : {}),
          })
          .where((eb) =>
            eb.or([eb('miners.ends_at', 'is', null), eb('miners.ends_at', '<=', now)]),
          ),
      )
      .returning(['checkins', 'reminders', 'qualified_at'])
      .executeTakeFirst();
  }

  async insertSession(session: SessionRow): Promise<void> {
    await this.db.insertInto('mining_sessions').values(session).execute();
  }

  /**
   * Takes the mailbox for the person unless someone had it; answers who has it now. A
   * no-op update returns the holder, so two at once cannot both take it.
   */
  async takeMailbox(mailbox: string, userId: string, now: number): Promise<string> {
    const holder = await this.db
      .insertInto('counted_mailboxes')
      .values({ mailbox, user_id: userId, counted_at: now })
      .onConflict((c) =>
        c.column('mailbox').doUpdateSet({ mailbox: (eb) => eb.ref('excluded.mailbox') }),
      )
      .returning('user_id')
      .executeTakeFirstOrThrow();
    return holder.user_id;
  }

  /** The person's invitation does not count (another account of their mailbox counted). */
  async unqualify(userId: string): Promise<void> {
    await this.db
      .updateTable('miners')
      .set({ qualified_at: null })
      .where('user_id', '=', userId)
      .execute();
  }

  async setReminders(userId: string, on: boolean): Promise<void> {
    await this.db
      .insertInto('miners')
      .values({ user_id: userId, reminders: on ? 1 : 0, qualified_at: null, nudged_at: null })
      .onConflict((c) => c.column('user_id').doUpdateSet({ reminders: on ? 1 : 0 }))
      .execute();
  }

  /** Hands the ad in for the person unless someone did first; answers whose it is. */
  async claimAd(adId: string, userId: string, now: number): Promise<string> {
    await this.db
      .insertInto('ad_claims')
      .values({ ad_id: adId, user_id: userId, claimed_at: now })
      .onConflict((c) => c.column('ad_id').doNothing())
      .execute();
    const claim = await this.db
      .selectFrom('ad_claims')
      .select('user_id')
      .where('ad_id', '=', adId)
      .executeTakeFirstOrThrow();
    return claim.user_id;
  }

  /** The session an ad boosted, if any. */
  async sessionOfAd(adId: string): Promise<string | undefined> {
    const used = await this.db
      .selectFrom('mining_sessions')
      .select('id')
      .where('ad_id', '=', adId)
      .executeTakeFirst();
    return used?.id;
  }

  /** Boosts the session with the ad from `now`, unless it was boosted before. */
  async boost(sessionId: string, adId: string, now: number): Promise<boolean> {
    const boosted = await this.db
      .updateTable('mining_sessions')
      .set({ ad_boost_at: now, ad_id: adId })
      .where('id', '=', sessionId)
      .where('ad_boost_at', 'is', null)
      .executeTakeFirst();
    return boosted.numUpdatedRows > 0n;
  }

  /** The sessions of the inviter's counted invitees that overlap `session`. */
  boosters(session: SessionRow): Promise<BoosterRow[]> {
    return this.db
      .selectFrom(this.people.invitees(this.db, session.user_id).as('u'))
      .innerJoin('miners as m', 'm.user_id', 'u.id')
      .innerJoin('mining_sessions as s', 's.user_id', 'u.id')
      .select(['s.started_at', 's.ends_at', 's.country', 'm.qualified_at'])
      .where('m.qualified_at', 'is not', null)
      .where('s.started_at', '<', session.ends_at)
      .where('s.ends_at', '>', session.started_at)
      .execute();
  }

  /** The person's sessions that ended by `before` and are not settled yet. */
  async endedUnsettled(userId: string, before: number): Promise<string[]> {
    const ended = await this.db
      .selectFrom('mining_sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('settled_at', 'is', null)
      .where('ends_at', '<=', before)
      .execute();
    return ended.map(({ id }) => id);
  }

  /** Marks a session settled, unless it was before. */
  async markSettled(sessionId: string, now: number): Promise<boolean> {
    const marked = await this.db
      .updateTable('mining_sessions')
      .set({ settled_at: now })
      .where('id', '=', sessionId)
      .where('settled_at', 'is', null)
      .executeTakeFirst();
    return marked.numUpdatedRows > 0n;
  }

  // ------------------------------------------------------------------------------ team

  /** The inviter's invitees: how many, how many counted, how many mine at `now`. */
  teamCounts(
    inviterId: string,
    now: number,
  ): Promise<{ members: number; counted: number; mining: number | null }> {
    return this.db
      .selectFrom(this.people.invitees(this.db, inviterId).as('u'))
      .leftJoin('miners as m', 'm.user_id', 'u.id')
      .select((eb) => [
        eb.fn.countAll<number>().as('members'),
        eb.fn.count<number>('m.qualified_at').as('counted'),
        eb.fn.sum<number>(eb.case().when('m.ends_at', '>', now).then(1).else(0).end()).as('mining'),
      ])
      .executeTakeFirstOrThrow();
  }

  /** A page of the inviter's invitees, newest first, one more than `limit` when there are. */
  teamPage(inviterId: string, limit: number, cursor?: string): Promise<TeamMemberRow[]> {
    let q = this.db
      .selectFrom(this.people.invitees(this.db, inviterId).as('u'))
      .leftJoin('miners as m', 'm.user_id', 'u.id')
      .selectAll('u')
      .select(['m.ends_at', 'm.qualified_at', 'm.nudged_at'])
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id', 'desc')
      .limit(limit + 1);
    if (cursor) q = q.where((eb) => after(eb, cursor, 'u.created_at', 'u.id'));
    return q.execute();
  }

  /** Whether `memberId` is one of the inviter's invitees. */
  async isInvitee(inviterId: string, memberId: string): Promise<boolean> {
    const member = await this.db
      .selectFrom(this.people.invitees(this.db, inviterId).as('u'))
      .select('u.id')
      .where('u.id', '=', memberId)
      .executeTakeFirst();
    return member !== undefined;
  }

  /** The person's row, made empty if they never checked in; their session's end and last nudge. */
  async minerMade(userId: string): Promise<Pick<MinerRow, 'ends_at' | 'nudged_at'>> {
    await this.db
      .insertInto('miners')
      .values({ user_id: userId, qualified_at: null, nudged_at: null })
      .onConflict((c) => c.column('user_id').doNothing())
      .execute();
    return this.db
      .selectFrom('miners')
      .select(['ends_at', 'nudged_at'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
  }

  /** Marks the person nudged at `now`, unless they were since `since`. */
  async markNudged(userId: string, now: number, since: number): Promise<boolean> {
    const marked = await this.db
      .updateTable('miners')
      .set({ nudged_at: now })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('nudged_at', 'is', null), eb('nudged_at', '<=', since)]))
      .executeTakeFirst();
    return marked.numUpdatedRows > 0n;
  }
}
