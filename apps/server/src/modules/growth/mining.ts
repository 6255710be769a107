import { MINING_SESSION_MS, type MiningStatus } from '@teltlk/protocol';
import type { Logger } from 'pino';
import type { Db, UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { MINUTE, type Clock } from '../../lib/clock.js';
import { canonicalMailbox } from '../../lib/mailbox.js';
import { newId } from '../../lib/random.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { EventService, PendingEvent } from '../events/service.js';
import type { Jobs } from '../jobs/jobs.js';
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
import { dayOf, monthOf } from './periods.js';
import type { Points } from './points.js';
import type { RankUpdate, Rankings } from './rankings.js';
import type { GrowthRepo, MinerRow, SessionRow } from './repo.js';
import type { GrowthSettings, GrowthSettingsStore } from './settings.js';

/**
 * Mining sessions end a little before their points are settled, so that an invitee's
 * check-in written by a node whose clock runs slightly behind still counts as a booster.
 */
export const SETTLE_GRACE_MS = MINUTE;

function ratesOf(settings: GrowthSettings): SessionRates {
  return {
    basic: settings.basicRate,
    local: settings.localBooster,
    other: settings.otherBooster,
    cap: settings.boosterCap,
    ad: settings.adBooster,
  };
}

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
  miner: Pick<MinerRow, 'reminders' | 'checkins'> | undefined,
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

/**
 * Daily mining (spec §1): a check-in starts a 24-hour session whose points accrue from its
 * rates and the boosters of invitees mining beside it, and are settled into the points
 * once, when it has ended (by its job, or when the person looks first).
 */
export class Mining {
  constructor(
    private readonly deps: {
      db: Db;
      repo: GrowthRepo;
      clock: Clock;
      users: UserService;
      events: EventService;
      rankings: Rankings;
      jobs: Jobs;
      points: Points;
      settings: GrowthSettingsStore;
      /** Pi's Platform API, which says whether a rewarded ad was watched; null: no Pi. */
      platform: PiPlatform | null;
      logger: Logger;
    },
  ) {}

  async status(auth: AuthInfo): Promise<MiningStatus> {
    const { repo, clock } = this.deps;
    await this.settleEnded(auth.userId);
    const now = clock.now();
    const miner = await repo.miner(auth.userId);
    const settings = await this.deps.settings.current();
    const base = statusBase(now, settings, miner);
    if (miner?.session_id && Number(miner.ends_at) > now) {
      const row = await repo.session(miner.session_id);
      if (!row) throw new Error(`no mining session ${miner.session_id}`);
      return this.mining(base, row, now);
    }
    // Not mining: the rate a check-in now would start with.
    const user = await this.deps.users.get(auth.userId);
    const preview = sessionStarting('', user, settings, now);
    const spans = await this.spansOf(repo, preview);
    return { ...base, state: 'idle', session: null, rate: rateAt(sessionOf(preview), spans, now) };
  }

  /** The status of someone mining in the session `row`. */
  private async mining(base: StatusBase, row: SessionRow, now: number): Promise<MiningStatus> {
    const session = sessionOf(row);
    const spans = await this.spansOf(this.deps.repo, row);
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
    const { db, repo, clock, jobs, rankings } = this.deps;
    const user = await this.deps.users.get(auth.userId);
    const settings = await this.deps.settings.current();
    // Whom this check-in counts for, if it is the first since a confirmed contact.
    const inviter = user.phone !== null || user.email !== null ? user.invited_by : null;
    const updates: RankUpdate[] = [];
    const started = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const session = sessionStarting(newId(), user, settings, now);
      const running = { session_id: session.id, started_at: now, ends_at: session.ends_at };
      const miner = await repo.in(trx).startOn(user.id, running, now, inviter !== null);
      if (!miner) return null;
      await repo.in(trx).insertSession(session);
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
    const repo = this.deps.repo.in(trx);
    const holder = await repo.takeMailbox(canonicalMailbox(user.email), user.id, now);
    if (holder === user.id) return true;
    await repo.unqualify(user.id);
    return false;
  }

  async setReminders(auth: AuthInfo, on: boolean): Promise<MiningStatus> {
    await this.deps.repo.setReminders(auth.userId, on);
    return this.status(auth);
  }

  /**
   * A rewarded ad watched in the Pi Browser: the booster for the rest of the session, once.
   * Pi's Platform API must say the ad was granted (the SDK in the browser may be tampered
   * with); the ad is bound to the first account that hands it in, and boosts one session
   * only, ever.
   */
  async adBoost(auth: AuthInfo, adId: string): Promise<MiningStatus> {
    const { db, repo, clock, platform, logger } = this.deps;
    if (!platform) throw new AppError('PI_UNAVAILABLE');
    const ad = await askPi(logger, () => platform.adStatus(adId));
    if (ad?.mediator_ack_status !== 'granted') throw new AppError('AD_NOT_REWARDED');
    if (!(await this.claimAd(auth.userId, adId))) throw new AppError('AD_NOT_REWARDED');
    await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const miner = await repo.in(trx).miner(auth.userId);
      if (!miner?.session_id || Number(miner.ends_at) <= now) throw new AppError('NOT_MINING');
      const used = await repo.in(trx).sessionOfAd(adId);
      if (used) throw new AppError(used === miner.session_id ? 'AD_BOOST_USED' : 'AD_NOT_REWARDED');
      if (!(await repo.in(trx).boost(miner.session_id, adId, now))) {
        throw new AppError('AD_BOOST_USED');
      }
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
    const { repo, clock } = this.deps;
    return (await repo.claimAd(adId, userId, clock.now())) === userId;
  }

  /** Invitees mining beside a session, from when their invitation counted. */
  private async spansOf(repo: GrowthRepo, session: SessionRow): Promise<BoosterSpan[]> {
    const rows = await repo.boosters(session);
    return rows.map((row) => ({
      from: Math.max(Number(row.started_at), Number(row.qualified_at)),
      to: Number(row.ends_at),
      local: row.country === session.country,
    }));
  }

  /** Settles the person's ended sessions (when they look, before the job does). */
  private async settleEnded(userId: string): Promise<void> {
    const { repo, clock } = this.deps;
    const ended = await repo.endedUnsettled(userId, clock.now() - SETTLE_GRACE_MS);
    for (const id of ended) await this.settle(id, { remind: false });
  }

  /**
   * Puts an ended session's points into the ledger, once: the session is marked settled
   * and its points posted under the key `mining:<id>` in one transaction.
   */
  async settle(sessionId: string, { remind }: { remind: boolean }): Promise<boolean> {
    const { db, clock, rankings, events, points } = this.deps;
    const updates: RankUpdate[] = [];
    const pending: PendingEvent[] = [];
    const settled = await db.transaction().execute(async (trx) => {
      const repo = this.deps.repo.in(trx);
      const row = await repo.session(sessionId);
      if (!row || row.settled_at !== null) return false;
      const now = clock.now();
      if (Number(row.ends_at) > now) return false;
      if (!(await repo.markSettled(sessionId, now))) return false;
      const accrued = accrue(sessionOf(row), await this.spansOf(repo, row), Number(row.ends_at));
      const total = accrued.basic + accrued.local + accrued.other;
      if (total > 0) {
        const credited = await points.credit(trx, row.user_id, accrued, {
          key: `mining:${sessionId}`,
          kind: 'mining',
          reference: sessionId,
        });
        if (credited) updates.push(credited);
      }
      if (remind) {
        const miner = await repo.miner(row.user_id);
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
}
