import {
  MINING_SESSION_MS,
  POINTS_KINDS,
  RANKING_TOP,
  type CoinHistoryResult,
  type CoinRecord,
  type CoinResult,
  type MiningStatus,
  type PageQuery,
  type PointsByKind,
  type PointsKind,
  type RankingBoard,
  type RankingResult,
  type TeamMembersResult,
  type TeamResult,
} from '@teltlk/protocol';
import { sql, type Selectable } from 'kysely';
import type { Logger } from 'pino';
import { after, cursorOf } from '../../db/keyset.js';
import type { Db, MinersTable, MiningSessionsTable, UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, MINUTE, type Clock } from '../../lib/clock.js';
import { canonicalMailbox } from '../../lib/mailbox.js';
import { newId } from '../../lib/random.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { EventService, PendingEvent } from '../events/service.js';
import {
  accountId,
  pointsCurrency,
  type AccountRef,
  type Entry,
  type Ledger,
} from '../ledger/ledger.js';
import { askPi } from '../pi/ask.js';
import type { PiPlatform } from '../pi/platform.js';
import type { UserService } from '../users/service.js';
import {
  accrue,
  rateAt,
  type BoosterSpan,
  type MiningSession,
  type SessionRates,
} from './accrual.js';
import type { Jobs } from '../jobs/jobs.js';
import { ALL_TIME, dayOf, monthOf, periodOf, periodStart, previousPeriodOf } from './periods.js';
import type { RankUpdate, Rankings } from './rankings.js';
import type { GrowthSettings, GrowthSettingsStore } from './settings.js';

/**
 * Mining sessions end a little before their points are settled, so that an invitee's
 * check-in written by a node whose clock runs slightly behind still counts as a booster.
 */
export const SETTLE_GRACE_MS = MINUTE;
/** A closed period's rewards wait this long past its end, for the last qualifications. */
export const REWARD_DELAY_MS = 5 * MINUTE;
/** A team member is reminded at most once a day. */
export const NUDGE_INTERVAL_MS = DAY;

const held = (user: string, kind: PointsKind): AccountRef => ({
  user,
  purpose: 'available',
  currency: pointsCurrency(kind),
});
/** Every point earned is -1 here: the mirror of points brought into being. */
const issued = (kind: PointsKind): AccountRef => ({
  app: 'issued',
  currency: pointsCurrency(kind),
});

/** The person's accounts of every kind of points. */
const pointAccountIds = (user: string) => POINTS_KINDS.map((kind) => accountId(held(user, kind)));
/** The kind of a points currency (`pts:<kind>`). */
const kindOf = (currency: string) => currency.slice('pts:'.length) as PointsKind;

const noPoints = (): PointsByKind => ({ basic: 0, local: 0, other: 0, ranking: 0, ecological: 0 });
const sum = (points: PointsByKind) => POINTS_KINDS.reduce((total, kind) => total + points[kind], 0);

function entriesFor(userId: string, points: Partial<PointsByKind>): Entry[] {
  const entries: Entry[] = [];
  for (const kind of POINTS_KINDS) {
    const amount = points[kind] ?? 0;
    if (amount <= 0) continue;
    entries.push(
      { account: issued(kind), amount: -amount },
      { account: held(userId, kind), amount },
    );
  }
  return entries;
}

function ratesOf(settings: GrowthSettings): SessionRates {
  return {
    basic: settings.basicRate,
    local: settings.localBooster,
    other: settings.otherBooster,
    cap: settings.boosterCap,
    ad: settings.adBooster,
  };
}

type SessionRow = Selectable<MiningSessionsTable>;

/** A session of `user` starting `now` at the rates in force. */
const sessionStarting = (
  id: string,
  user: Pick<UserRow, 'id' | 'country'>,
  settings: GrowthSettings,
  now: number,
): SessionRow => ({
  id,
  user_id: user.id,
  country: user.country,
  started_at: now,
  ends_at: now + MINING_SESSION_MS,
  rates: JSON.stringify(ratesOf(settings)),
  ad_boost_at: null,
  ad_id: null,
  settled_at: null,
});

type StatusBase = Pick<MiningStatus, 'serverNow' | 'adBooster' | 'reminders' | 'checkins'>;

/** What every mining status says, mining or not; no miner row yet: reminders on, no check-in. */
const statusBase = (
  now: number,
  settings: GrowthSettings,
  miner: Pick<Selectable<MinersTable>, 'reminders' | 'checkins'> | undefined,
): StatusBase => ({
  serverNow: now,
  adBooster: settings.adBooster,
  reminders: miner ? miner.reminders === 1 : true,
  checkins: miner ? Number(miner.checkins) : 0,
});

const sessionOf = (row: SessionRow): MiningSession => ({
  startedAt: Number(row.started_at),
  endsAt: Number(row.ends_at),
  adBoostAt: row.ad_boost_at === null ? null : Number(row.ad_boost_at),
  rates: JSON.parse(row.rates) as SessionRates,
});

const REWARD_BOARDS = ['dayInvites', 'monthInvites'] as const;
type RewardBoard = (typeof REWARD_BOARDS)[number];

/**
 * Daily mining, points, invitations and team, rankings (spec §1–§4). Points live in the
 * ledger, one currency per kind (`pts:<kind>`), so the same double entry, idempotency
 * keys and `ledger:verify` hold for them as for money.
 */
export class GrowthService {
  /** Reward jobs this node has scheduled (the jobs table keeps them across restarts). */
  private readonly rewardsScheduled = new Set<string>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      ledger: Ledger;
      users: UserService;
      events: EventService;
      rankings: Rankings;
      jobs: Jobs;
      settings: GrowthSettingsStore;
      /** Pi's Platform API, which says whether a rewarded ad was watched; null: no Pi. */
      platform: PiPlatform | null;
      logger: Logger;
    },
  ) {
    deps.jobs.handle('mining-end', async (payload) => {
      await this.settle(String(payload.sessionId), { remind: true });
    });
    deps.jobs.handle('ranking-reward', async (payload) => {
      await this.reward(payload.board as RewardBoard, String(payload.period));
    });
  }

  // ------------------------------------------------------------------------------ settings

  settingsInForce(): Promise<GrowthSettings> {
    return this.deps.settings.current();
  }

  changeSetting(key: keyof GrowthSettings, value: number | number[] | null): Promise<void> {
    return this.deps.settings.set(key, value);
  }

  // ------------------------------------------------------------------------------ mining

  async status(auth: AuthInfo): Promise<MiningStatus> {
    const { db, clock } = this.deps;
    await this.settleEnded(auth.userId);
    const now = clock.now();
    const miner = await db
      .selectFrom('miners')
      .selectAll()
      .where('user_id', '=', auth.userId)
      .executeTakeFirst();
    const settings = await this.deps.settings.current();
    const base = statusBase(now, settings, miner);
    if (miner?.session_id && Number(miner.ends_at) > now) {
      const row = await db
        .selectFrom('mining_sessions')
        .selectAll()
        .where('id', '=', miner.session_id)
        .executeTakeFirstOrThrow();
      return this.mining(base, row, now);
    }
    // Not mining: the rate a check-in now would start with.
    const user = await this.deps.users.get(auth.userId);
    const preview = sessionStarting('', user, settings, now);
    const spans = await this.spansOf(db, preview);
    return { ...base, state: 'idle', session: null, rate: rateAt(sessionOf(preview), spans, now) };
  }

  /** The status of someone mining in the session `row`. */
  private async mining(base: StatusBase, row: SessionRow, now: number): Promise<MiningStatus> {
    const session = sessionOf(row);
    const spans = await this.spansOf(this.deps.db, row);
    const accrued = accrue(session, spans, now);
    return {
      ...base,
      state: 'mining',
      session: {
        id: row.id,
        startedAt: session.startedAt,
        endsAt: session.endsAt,
        adBoosted: session.adBoostAt !== null,
        accrued: accrued.basic + accrued.local + accrued.other,
      },
      rate: rateAt(session, spans, now),
    };
  }

  /**
   * Starts a 24-hour session, unless one is running (then it answers the running one: a
   * double tap starts one session). The person's invitation begins to count at their
   * first check-in once they have confirmed a phone or e-mail, unless another account of
   * their mailbox counted before (firstOfMailbox).
   */
  async checkIn(auth: AuthInfo): Promise<MiningStatus> {
    const { db, clock, jobs, rankings } = this.deps;
    const user = await this.deps.users.get(auth.userId);
    const settings = await this.deps.settings.current();
    // Whom this check-in counts for, if it is the first since a confirmed contact.
    const inviter = user.phone !== null || user.email !== null ? user.invited_by : null;
    const updates: RankUpdate[] = [];
    const started = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const session = sessionStarting(newId(), user, settings, now);
      const running = { session_id: session.id, started_at: now, ends_at: session.ends_at };
      // One statement for the person's row: made at a first check-in, and a session
      // started on it unless one is running (then nothing comes back). An invitation
      // that counts from now is marked here too: `qualified_at` comes back as `now`.
      const miner = await trx
        .insertInto('miners')
        .values({
          user_id: user.id,
          ...running,
          checkins: 1,
          qualified_at: inviter !== null ? now : null,
          nudged_at: null,
        })
        .onConflict((c) =>
          c
            .column('user_id')
            .doUpdateSet({
              ...running,
              checkins: sql`miners.checkins + 1`,
              ...(inviter !== null
                ? { qualified_at: sql`coalesce(miners.qualified_at, ${now})` }
                : {}),
            })
            .where((eb) =>
              eb.or([eb('miners.ends_at', 'is', null), eb('miners.ends_at', '<=', now)]),
            ),
        )
        .returning(['checkins', 'reminders', 'qualified_at'])
        .executeTakeFirst();
      if (!miner) return null;
      await trx.insertInto('mining_sessions').values(session).execute();
      await jobs.schedule(trx, {
        kind: 'mining-end',
        key: `mining-end:${session.id}`,
        runAt: Number(session.ends_at) + SETTLE_GRACE_MS,
        payload: { sessionId: session.id },
      });
      if (
        inviter !== null &&
        Number(miner.qualified_at) === now &&
        (await this.firstOfMailbox(trx, user, now))
      ) {
        updates.push(
          await rankings.add(trx, 'dayInvites', dayOf(now), inviter, 1),
          await rankings.add(trx, 'monthInvites', monthOf(now), inviter, 1),
        );
      }
      return { miner, session, now };
    });
    rankings.publish(updates);
    // A session is running: answer it, as the status does.
    if (!started) return this.status(auth);
    const { miner, session, now } = started;
    // Only someone who mined before can have ended sessions the job has not settled yet.
    if (Number(miner.checkins) > 1) await this.settleEnded(user.id);
    return this.mining(statusBase(now, settings, miner), session, now);
  }

  /**
   * Whether an invitee counting from now is the first of their mailbox to count: aliases of
   * one mailbox (`ada+1@gmail.com`, `a.da@googlemail.com`) are accounts of one person, who
   * counts for an inviter once (the team's count, invite rankings and their rewards, the
   * booster). The mailbox is taken for the person in the same statement that tells who had
   * it (a no-op update returns the holder), so two aliases at once cannot both count; one
   * that comes second is left uncounted. A phone-only invitee has no mailbox to share.
   */
  private async firstOfMailbox(trx: Db, user: UserRow, now: number): Promise<boolean> {
    if (user.email === null) return true;
    const holder = await trx
      .insertInto('counted_mailboxes')
      .values({ mailbox: canonicalMailbox(user.email), user_id: user.id, counted_at: now })
      .onConflict((c) =>
        c.column('mailbox').doUpdateSet({ mailbox: (eb) => eb.ref('excluded.mailbox') }),
      )
      .returning('user_id')
      .executeTakeFirstOrThrow();
    if (holder.user_id === user.id) return true;
    await trx
      .updateTable('miners')
      .set({ qualified_at: null })
      .where('user_id', '=', user.id)
      .execute();
    return false;
  }

  async setReminders(auth: AuthInfo, on: boolean): Promise<MiningStatus> {
    await this.deps.db
      .insertInto('miners')
      .values({ user_id: auth.userId, reminders: on ? 1 : 0, qualified_at: null, nudged_at: null })
      .onConflict((c) => c.column('user_id').doUpdateSet({ reminders: on ? 1 : 0 }))
      .execute();
    return this.status(auth);
  }

  /**
   * A rewarded ad watched in the Pi Browser: the booster for the rest of the session, once.
   * Pi's Platform API must say the ad was granted (the SDK in the browser may be tampered
   * with); the ad is bound to the first account that hands it in, and boosts one session
   * only, ever.
   */
  async adBoost(auth: AuthInfo, adId: string): Promise<MiningStatus> {
    const { db, clock, platform, logger } = this.deps;
    if (!platform) throw new AppError('PI_UNAVAILABLE');
    const ad = await askPi(logger, () => platform.adStatus(adId));
    if (ad?.mediator_ack_status !== 'granted') throw new AppError('AD_NOT_REWARDED');
    if (!(await this.claimAd(auth.userId, adId))) throw new AppError('AD_NOT_REWARDED');
    await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const miner = await trx
        .selectFrom('miners')
        .select(['session_id', 'ends_at'])
        .where('user_id', '=', auth.userId)
        .executeTakeFirst();
      if (!miner?.session_id || Number(miner.ends_at) <= now) throw new AppError('NOT_MINING');
      const used = await trx
        .selectFrom('mining_sessions')
        .select('id')
        .where('ad_id', '=', adId)
        .executeTakeFirst();
      if (used)
        throw new AppError(used.id === miner.session_id ? 'AD_BOOST_USED' : 'AD_NOT_REWARDED');
      const boosted = await trx
        .updateTable('mining_sessions')
        .set({ ad_boost_at: now, ad_id: adId })
        .where('id', '=', miner.session_id)
        .where('ad_boost_at', 'is', null)
        .executeTakeFirst();
      if (boosted.numUpdatedRows === 0n) throw new AppError('AD_BOOST_USED');
    });
    return this.status(auth);
  }

  /**
   * Whether a granted ad is the caller's: Pi's ad status names no viewer, so the first
   * account to hand the id in holds it (a conflict-free insert, so two at once cannot both
   * win), kept even when it could not boost then (not mining, already boosted): an id
   * passed on, or read off someone else's request, boosts nobody else.
   */
  private async claimAd(userId: string, adId: string): Promise<boolean> {
    const { db, clock } = this.deps;
    await db
      .insertInto('ad_claims')
      .values({ ad_id: adId, user_id: userId, claimed_at: clock.now() })
      .onConflict((c) => c.column('ad_id').doNothing())
      .execute();
    const claim = await db
      .selectFrom('ad_claims')
      .select('user_id')
      .where('ad_id', '=', adId)
      .executeTakeFirstOrThrow();
    return claim.user_id === userId;
  }

  /** Invitees mining beside a session, from when their invitation counted. */
  private async spansOf(db: Db, session: SessionRow): Promise<BoosterSpan[]> {
    const rows = await db
      .selectFrom('users as u')
      .innerJoin('miners as m', 'm.user_id', 'u.id')
      .innerJoin('mining_sessions as s', 's.user_id', 'u.id')
      .select(['s.started_at', 's.ends_at', 's.country', 'm.qualified_at'])
      .where('u.invited_by', '=', session.user_id)
      .where('m.qualified_at', 'is not', null)
      .where('s.started_at', '<', session.ends_at)
      .where('s.ends_at', '>', session.started_at)
      .execute();
    return rows.map((row) => ({
      from: Math.max(Number(row.started_at), Number(row.qualified_at)),
      to: Number(row.ends_at),
      local: row.country === session.country,
    }));
  }

  /** Settles the person's ended sessions (when they look, before the job does). */
  private async settleEnded(userId: string): Promise<void> {
    const ended = await this.deps.db
      .selectFrom('mining_sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('settled_at', 'is', null)
      .where('ends_at', '<=', this.deps.clock.now() - SETTLE_GRACE_MS)
      .execute();
    for (const { id } of ended) await this.settle(id, { remind: false });
  }

  /**
   * Puts an ended session's points into the ledger, once: the session is marked settled
   * and its points posted under the key `mining:<id>` in one transaction.
   */
  async settle(sessionId: string, { remind }: { remind: boolean }): Promise<boolean> {
    const { db, clock, rankings, events } = this.deps;
    const updates: RankUpdate[] = [];
    const pending: PendingEvent[] = [];
    const settled = await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('mining_sessions')
        .selectAll()
        .where('id', '=', sessionId)
        .executeTakeFirst();
      if (!row || row.settled_at !== null) return false;
      const now = clock.now();
      if (Number(row.ends_at) > now) return false;
      const marked = await trx
        .updateTable('mining_sessions')
        .set({ settled_at: now })
        .where('id', '=', sessionId)
        .where('settled_at', 'is', null)
        .executeTakeFirst();
      if (marked.numUpdatedRows === 0n) return false;
      const points = accrue(sessionOf(row), await this.spansOf(trx, row), Number(row.ends_at));
      const total = points.basic + points.local + points.other;
      if (total > 0) {
        const credited = await this.credit(trx, row.user_id, points, {
          key: `mining:${sessionId}`,
          kind: 'mining',
          reference: sessionId,
        });
        if (credited) updates.push(credited);
      }
      if (remind) {
        const miner = await trx
          .selectFrom('miners')
          .select(['reminders', 'ends_at'])
          .where('user_id', '=', row.user_id)
          .executeTakeFirst();
        // Not when switched off, nor when a new session is already running.
        if (miner?.reminders === 1 && Number(miner.ends_at) <= now) {
          pending.push(
            await events.append(trx, row.user_id, {
              type: 'mining',
              reason: 'ended',
              points: total,
              by: null,
            }),
          );
        }
      }
      return true;
    });
    rankings.publish(updates);
    events.publish(pending);
    return settled;
  }

  // ------------------------------------------------------------------------------ points

  async coin(auth: AuthInfo): Promise<CoinResult> {
    const rows = await this.deps.db
      .selectFrom('ledger_accounts')
      .select(['currency', 'balance'])
      .where('id', 'in', pointAccountIds(auth.userId))
      .execute();
    const balances = noPoints();
    for (const row of rows) balances[kindOf(row.currency)] = Number(row.balance);
    return { balances, total: sum(balances) };
  }

  /** Settlements and rewards, newest first, a page of transactions at a time. */
  async history(auth: AuthInfo, query: PageQuery): Promise<CoinHistoryResult> {
    const { db } = this.deps;
    const { cursor } = query;
    let q = db
      .selectFrom('ledger_entries')
      .select(['transaction_id', 'currency', 'amount', 'created_at'])
      .where('account_id', 'in', pointAccountIds(auth.userId))
      .orderBy('created_at', 'desc')
      .orderBy('transaction_id', 'desc')
      // A transaction moves at most three kinds for one person.
      .limit(query.limit * 3 + 3);
    if (cursor) q = q.where((eb) => after(eb, cursor, 'created_at', 'transaction_id'));
    const entries = await q.execute();
    const order: string[] = [];
    const amounts = new Map<string, { at: number; points: PointsByKind }>();
    for (const entry of entries) {
      let record = amounts.get(entry.transaction_id);
      if (!record) {
        record = { at: Number(entry.created_at), points: noPoints() };
        amounts.set(entry.transaction_id, record);
        order.push(entry.transaction_id);
      }
      record.points[kindOf(entry.currency)] += Number(entry.amount);
    }
    // The last transaction may be cut short by the row limit: it starts the next page.
    const complete = entries.length < query.limit * 3 + 3 ? order : order.slice(0, -1);
    const page = complete.slice(0, query.limit);
    const transactions =
      page.length === 0
        ? []
        : await db
            .selectFrom('ledger_transactions')
            .select(['id', 'kind', 'reference'])
            .where('id', 'in', page)
            .execute();
    const byId = new Map(transactions.map((t) => [t.id, t]));
    const items: CoinRecord[] = page.map((id) => {
      const record = amounts.get(id)!;
      const transaction = byId.get(id);
      const kind =
        transaction?.kind === 'mining' || transaction?.kind === 'ranking'
          ? transaction.kind
          : 'ecological';
      return {
        id,
        kind,
        amounts: record.points,
        total: sum(record.points),
        at: record.at,
        note: kind === 'mining' ? '' : (transaction?.reference ?? ''),
      };
    });
    const last = items[items.length - 1];
    const more = complete.length > page.length || complete.length < order.length;
    return { items, next: more && last ? cursorOf(last.at, last.id) : null };
  }

  /** Resolves once the rankings' writes under way have reached Redis or failed. */
  rankingsSettled(): Promise<void> {
    return this.deps.rankings.settled();
  }

  /** Points the operator gives for the ecosystem (events, contributions), once per key. */
  async ecologicalReward(input: {
    userId: string;
    amount: number;
    note: string;
    key: string;
  }): Promise<'given' | 'already'> {
    const { db, rankings } = this.deps;
    const credited = await db
      .transaction()
      .execute((trx) =>
        this.credit(
          trx,
          input.userId,
          { ecological: input.amount },
          { key: `ecological:${input.key}`, kind: 'ecological', reference: input.note },
        ),
      );
    if (credited) rankings.publish([credited]);
    return credited ? 'given' : 'already';
  }

  /**
   * Points into a person's accounts under the ledger key, and onto the points ranking, in
   * the caller's transaction; null when the key was posted before (nothing moved). Publish
   * the update once the transaction has committed.
   */
  private async credit(
    trx: Db,
    userId: string,
    points: Partial<PointsByKind>,
    posting: { key: string; kind: string; reference: string },
  ): Promise<RankUpdate | null> {
    const posted = await this.deps.ledger.post(trx, {
      ...posting,
      entries: entriesFor(userId, points),
    });
    if (posted.replayed) return null;
    const total = POINTS_KINDS.reduce((all, kind) => all + (points[kind] ?? 0), 0);
    return this.deps.rankings.add(trx, 'points', ALL_TIME, userId, total);
  }

  // ------------------------------------------------------------------------------ team

  async team(auth: AuthInfo): Promise<TeamResult> {
    const { db, clock, users } = this.deps;
    const me = await users.get(auth.userId);
    const now = clock.now();
    const counts = await db
      .selectFrom('users as u')
      .leftJoin('miners as m', 'm.user_id', 'u.id')
      .select((eb) => [
        eb.fn.countAll<number>().as('members'),
        eb.fn.count<number>('m.qualified_at').as('counted'),
        eb.fn.sum<number>(eb.case().when('m.ends_at', '>', now).then(1).else(0).end()).as('mining'),
      ])
      .where('u.invited_by', '=', me.id)
      .executeTakeFirstOrThrow();
    const inviter = me.invited_by
      ? (await users.cardsOf([me.invited_by])).get(me.invited_by)
      : undefined;
    return {
      inviter: inviter ?? null,
      inviteCode: me.invite_code,
      members: Number(counts.members),
      counted: Number(counts.counted),
      miningNow: Number(counts.mining ?? 0),
    };
  }

  /** Direct invitees, newest first. */
  async members(auth: AuthInfo, query: PageQuery): Promise<TeamMembersResult> {
    const { db, clock, users } = this.deps;
    const now = clock.now();
    const { cursor } = query;
    let q = db
      .selectFrom('users as u')
      .leftJoin('miners as m', 'm.user_id', 'u.id')
      .selectAll('u')
      .select(['m.ends_at', 'm.qualified_at', 'm.nudged_at'])
      .where('u.invited_by', '=', auth.userId)
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id', 'desc')
      .limit(query.limit + 1);
    if (cursor) q = q.where((eb) => after(eb, cursor, 'u.created_at', 'u.id'));
    const rows = await q.execute();
    const page = rows.slice(0, query.limit);
    const members = page.map((row) => {
      const mining = row.ends_at !== null && Number(row.ends_at) > now;
      const recentlyNudged =
        row.nudged_at !== null && Number(row.nudged_at) > now - NUDGE_INTERVAL_MS;
      return {
        user: users.toCard(row),
        invitedAt: Number(row.created_at),
        counted: row.qualified_at !== null,
        mining,
        canNudge: !mining && !recentlyNudged,
      };
    });
    const last = page[page.length - 1];
    return {
      members,
      next: rows.length > query.limit && last ? cursorOf(last.created_at, last.id) : null,
    };
  }

  /** Reminds a team member who is not mining to check in (spec: sendCheckinInform). */
  async nudge(auth: AuthInfo, memberId: string): Promise<void> {
    const { db, clock, events, users } = this.deps;
    const by = (await users.cardsOf([auth.userId])).get(auth.userId) ?? null;
    const pending = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const member = await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', memberId)
        .where('invited_by', '=', auth.userId)
        .executeTakeFirst();
      if (!member) throw new AppError('TEAM_MEMBER_NOT_FOUND');
      await trx
        .insertInto('miners')
        .values({ user_id: memberId, qualified_at: null, nudged_at: null })
        .onConflict((c) => c.column('user_id').doNothing())
        .execute();
      const miner = await trx
        .selectFrom('miners')
        .select(['ends_at', 'nudged_at'])
        .where('user_id', '=', memberId)
        .executeTakeFirstOrThrow();
      if (miner.ends_at !== null && Number(miner.ends_at) > now)
        throw new AppError('NUDGE_NOT_NEEDED');
      const marked = await trx
        .updateTable('miners')
        .set({ nudged_at: now })
        .where('user_id', '=', memberId)
        .where((eb) =>
          eb.or([eb('nudged_at', 'is', null), eb('nudged_at', '<=', now - NUDGE_INTERVAL_MS)]),
        )
        .executeTakeFirst();
      if (marked.numUpdatedRows === 0n) throw new AppError('NUDGE_TOO_SOON');
      return events.append(trx, memberId, { type: 'mining', reason: 'nudged', points: 0, by });
    });
    events.publish([pending]);
  }

  // ------------------------------------------------------------------------------ rankings

  async ranking(
    auth: AuthInfo,
    board: RankingBoard,
    which: 'current' | 'previous',
  ): Promise<RankingResult> {
    const { rankings, clock, users } = this.deps;
    const now = clock.now();
    const period = which === 'current' ? periodOf(board, now) : previousPeriodOf(board, now);
    const { top, me } = await rankings.standing(board, period, auth.userId, RANKING_TOP);
    const cards = await users.cardsOf(top.map((row) => row.userId));
    const entries = [];
    for (const [index, row] of top.entries()) {
      const user = cards.get(row.userId);
      if (user) entries.push({ rank: index + 1, user, value: row.value });
    }
    return { board, period, top: entries, me };
  }

  /** Fills the Redis sets of these boards from SQL (start-up of a node, benchmarks). */
  async rebuildRankings(boards: readonly [RankingBoard, string][]): Promise<void> {
    for (const [board, period] of boards) await this.deps.rankings.rebuild(board, period);
  }

  /** Schedules the rewards of the periods closed before now (idempotent; run on each tick). */
  async scheduleRewards(): Promise<void> {
    const { db, clock, jobs } = this.deps;
    const now = clock.now();
    const due = REWARD_BOARDS.map((board) => ({
      board,
      period: previousPeriodOf(board, now),
      runAt: periodStart(board, now) + REWARD_DELAY_MS,
    }));
    const key = ({ board, period }: { board: string; period: string }) =>
      `ranking-reward:${board}:${period}`;
    // Each closed period is scheduled once per node, not written again on every tick.
    if (due.every((job) => this.rewardsScheduled.has(key(job)))) return;
    await db.transaction().execute(async (trx) => {
      for (const { board, period, runAt } of due) {
        await jobs.schedule(trx, {
          kind: 'ranking-reward',
          key: key({ board, period }),
          runAt,
          payload: { board, period },
        });
      }
    });
    for (const job of due) this.rewardsScheduled.add(key(job));
  }

  /**
   * Credits the top places of a closed period, as ranking-reward points. Each place posts
   * under its own key, so a run cut short and run again credits every place once.
   */
  async reward(board: RewardBoard, period: string): Promise<number> {
    const { db, clock, rankings } = this.deps;
    if (periodOf(board, clock.now() - REWARD_DELAY_MS) === period) {
      throw new Error(`the ${board} period ${period} is not closed yet`);
    }
    const settings = await this.deps.settings.current();
    const amounts =
      board === 'dayInvites' ? settings.dayInvitesRewards : settings.monthInvitesRewards;
    if (amounts.length === 0) return 0;
    // From SQL, the record: the Redis set of a closed period may have expired.
    const top = await rankings.topInSql(board, period, amounts.length);
    let credited = 0;
    for (const [index, row] of top.entries()) {
      const amount = amounts[index] ?? 0;
      if (amount <= 0 || row.value <= 0) continue;
      const place = `${board}:${period}:${index + 1}`;
      const update = await db
        .transaction()
        .execute((trx) =>
          this.credit(
            trx,
            row.userId,
            { ranking: amount },
            { key: `ranking:${place}`, kind: 'ranking', reference: place },
          ),
        );
      if (!update) continue;
      credited += 1;
      rankings.publish([update]);
    }
    return credited;
  }
}
