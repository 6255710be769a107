import { randomBytes } from 'node:crypto';
import {
  type CoinHistoryResult,
  type CoinResult,
  type MiningStatus,
  type RankingResult,
  type TeamMembersResult,
  type TeamResult,
  type UserEvent,
} from '@teltlk/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../../lib/clock.js';
import { runOperator } from '../../operator.js';
import { startPiSandbox, type RunningPiSandbox } from '@teltlk/pi-sandbox';
import { userApi } from '../../test/fixtures.js';
import { PI_TEST_KEY, piEnv } from '../../test/pi-sandbox.js';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { REWARD_DELAY_MS } from './boards.js';
import { SETTLE_GRACE_MS } from './mining.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL;
const stores = [
  ...dialects.map(({ dialect }) => ({ dialect, redis: false })),
  ...(TEST_REDIS_URL ? [{ dialect: 'sqlite' as const, redis: true }] : []),
];

describe.each(stores)('growth on $dialect (Redis: $redis)', ({ dialect, redis }) => {
  let t: TestApp;
  let sandbox: RunningPiSandbox;
  const { call, ok } = userApi(() => t);
  beforeAll(async () => {
    sandbox = await startPiSandbox({ apiKey: PI_TEST_KEY });
    t = await createTestApp({
      dialect,
      env: { ...piEnv(sandbox), ...(redis ? { REDIS_URL: TEST_REDIS_URL! } : {}) },
      ...(redis ? { rankingsPrefix: `test:rank:${randomBytes(6).toString('hex')}:` } : {}),
    });
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });
  afterEach(async () => {
    expect(await t.ctx.services.ledger.verify(t.ctx.db)).toEqual([]);
  });

  const status = async (user: RegisteredUser) =>
    ok<MiningStatus>(await call(user, 'GET', '/growth/mining'));
  const checkIn = async (user: RegisteredUser) =>
    ok<MiningStatus>(await call(user, 'POST', '/growth/mining/checkin'));
  const coin = async (user: RegisteredUser) =>
    ok<CoinResult>(await call(user, 'GET', '/growth/coin'));
  const ranking = async (user: RegisteredUser, board: string, period = 'current') =>
    ok<RankingResult>(await call(user, 'GET', `/growth/rankings/${board}?period=${period}`));
  /** Sets the clock past the end of every session running now, and runs what is due. */
  const endSessions = async () => {
    t.clock.advance(DAY + SETTLE_GRACE_MS);
    await t.ctx.jobs.runDue();
  };
  const eventsOf = async (user: RegisteredUser): Promise<UserEvent[]> =>
    ok<{ events: UserEvent[] }>(await call(user, 'GET', '/sync/events?after=0')).events;
  const invitee = async (inviter: RegisteredUser, country = 'CN') => {
    const me = ok<{ inviteCode: string }>(await call(inviter, 'GET', '/me'));
    return t.register({ inviteCode: me.inviteCode, country });
  };
  const rankingsSettled = () => t.ctx.services.growth.rankingsSettled();

  it('starts a 24-hour session at check-in, once however often it is tapped', async () => {
    const a = await t.register();
    const idle = await status(a);
    expect(idle).toMatchObject({ state: 'idle', session: null, checkins: 0, reminders: true });
    expect(idle.rate).toMatchObject({ basic: 250, total: 250 });
    const [first, second] = await Promise.all([checkIn(a), checkIn(a)]);
    expect(first.state).toBe('mining');
    expect(second.session?.id).toBe(first.session?.id);
    expect(first.session!.endsAt - first.session!.startedAt).toBe(DAY);
    expect(first.checkins).toBe(1);
    t.clock.advance(4 * HOUR);
    const later = await status(a);
    expect(later.session?.accrued).toBe(1000);
    expect(later.serverNow).toBe(t.clock.now());
    expect((await coin(a)).total).toBe(0);
  });

  it('settles an ended session into the points once, by the job or when the person looks', async () => {
    const a = await t.register();
    const b = await t.register();
    await checkIn(a);
    await checkIn(b);
    t.clock.advance(DAY + SETTLE_GRACE_MS);
    // b looks first; then the jobs run (twice); a's is settled by the job alone.
    expect((await status(b)).state).toBe('idle');
    await Promise.all([t.ctx.jobs.runDue(), t.ctx.jobs.runDue()]);
    await t.ctx.jobs.runDue();
    for (const user of [a, b]) {
      expect(await coin(user)).toEqual({
        balances: { basic: 6000, local: 0, other: 0, ranking: 0, ecological: 0 },
        total: 6000,
      });
    }
    const history = ok<CoinHistoryResult>(await call(a, 'GET', '/growth/coin/history'));
    expect(history.items).toHaveLength(1);
    expect(history.items[0]).toMatchObject({ kind: 'mining', total: 6000 });
    // The reminder reaches a, who has them on.
    const events = await eventsOf(a);
    expect(events.at(-1)?.data).toMatchObject({ type: 'mining', reason: 'ended', points: 6000 });
  });

  it('settles the ended session of someone who checks in again before the job ran', async () => {
    const a = await t.register();
    const first = await checkIn(a);
    t.clock.advance(DAY + SETTLE_GRACE_MS);
    // No job has run: the check-in itself settles the last session, then starts the next.
    const again = await checkIn(a);
    expect(again).toMatchObject({ state: 'mining', checkins: 2, serverNow: t.clock.now() });
    expect(again.session?.id).not.toBe(first.session?.id);
    expect(again.session?.accrued).toBe(0);
    expect(await coin(a)).toMatchObject({ total: 6000 });
    // The answer is the status the person sees next.
    expect(await status(a)).toEqual(again);
  });

  it('sends no reminder to someone who switched them off', async () => {
    const a = await t.register();
    const off = ok<MiningStatus>(await call(a, 'PUT', '/growth/mining/reminders', { on: false }));
    expect(off.reminders).toBe(false);
    // The row the switch made counts no check-in of its own.
    expect(await checkIn(a)).toMatchObject({ state: 'mining', reminders: false, checkins: 1 });
    await endSessions();
    expect((await eventsOf(a)).filter((e) => e.data.type === 'mining')).toEqual([]);
    expect((await coin(a)).total).toBe(6000);
  });

  it('counts an invitation once the invitee confirmed a contact and checked in, and boosts the inviter', async () => {
    const inviter = await t.register({ country: 'CN' });
    const local = await invitee(inviter, 'CN');
    const abroad = await invitee(inviter, 'NG');
    const unconfirmed = await invitee(inviter, 'CN');
    // As if signed up through Pi with no phone or e-mail yet.
    await t.ctx.db
      .updateTable('users')
      .set({ email: null, phone: null })
      .where('id', '=', unconfirmed.user.id)
      .execute();
    let team = ok<TeamResult>(await call(inviter, 'GET', '/growth/team'));
    expect(team).toMatchObject({ members: 3, counted: 0, miningNow: 0, inviter: null });

    await checkIn(inviter);
    t.clock.advance(2 * HOUR);
    await Promise.all([checkIn(local), checkIn(abroad), checkIn(unconfirmed)]);
    const boosted = await status(inviter);
    expect(boosted.rate).toMatchObject({
      localMembers: 1,
      otherMembers: 1,
      local: 50,
      other: 25,
      total: 325,
    });
    team = ok<TeamResult>(await call(inviter, 'GET', '/growth/team'));
    expect(team).toMatchObject({ members: 3, counted: 2, miningNow: 3 });
    const mine = ok<TeamResult>(await call(local, 'GET', '/growth/team'));
    expect(mine.inviter?.id).toBe(inviter.user.id);

    const members = ok<TeamMembersResult>(
      await call(inviter, 'GET', '/growth/team/members?limit=2'),
    );
    expect(members.members).toHaveLength(2);
    expect(members.next).not.toBeNull();
    const rest = ok<TeamMembersResult>(
      await call(inviter, 'GET', `/growth/team/members?limit=2&cursor=${members.next}`),
    );
    const all = [...members.members, ...rest.members];
    expect(all.map((m) => m.user.id).sort()).toEqual(
      [local, abroad, unconfirmed].map((u) => u.user.id).sort(),
    );
    expect(all.find((m) => m.user.id === unconfirmed.user.id)).toMatchObject({
      counted: false,
      mining: true,
      canNudge: false,
    });

    await rankingsSettled();
    for (const board of ['dayInvites', 'monthInvites']) {
      const { me } = await ranking(inviter, board);
      expect(me.value).toBe(2);
      expect(me.rank).toBeGreaterThanOrEqual(1);
    }
    // A second check-in of the invitee counts nothing more; the unconfirmed one counts
    // at their first check-in after confirming.
    await endSessions();
    await checkIn(local);
    await t.ctx.db
      .updateTable('users')
      .set({ email: `${unconfirmed.user.id}@example.com` })
      .where('id', '=', unconfirmed.user.id)
      .execute();
    await checkIn(unconfirmed);
    const counted = await t.ctx.db
      .selectFrom('rank_values')
      .select((eb) => eb.fn.sum<number>('value').as('n'))
      .where('user_id', '=', inviter.user.id)
      .where('board', '=', 'dayInvites')
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(3);
    // The booster was settled: 22 hours of one local and one other member.
    const points = await coin(inviter);
    expect(points.balances).toMatchObject({ basic: 6000, local: 50 * 22, other: 25 * 22 });
  });

  it('counts the aliases of one mailbox as one invitation', async () => {
    const inviter = await t.register({ country: 'CN' });
    const { inviteCode } = ok<{ inviteCode: string }>(await call(inviter, 'GET', '/me'));
    const name = `ada${randomBytes(4).toString('hex')}`;
    // Three accounts, one Gmail inbox: +tags, dots, googlemail.com.
    const aliases = await Promise.all(
      [
        `${name}+teltlk@gmail.com`,
        `${name.slice(0, 2)}.${name.slice(2)}@googlemail.com`,
        `${name.slice(0, 1)}.${name.slice(1, 4)}.${name.slice(4)}+2@gmail.com`,
      ].map((destination) => t.register({ inviteCode, destination, country: 'CN' })),
    );
    // Elsewhere only the +tag goes: these are two mailboxes, and count twice.
    const others = await Promise.all(
      [`${name}+x@example.com`, `${name.slice(0, 2)}.${name.slice(2)}@example.com`].map(
        (destination) => t.register({ inviteCode, destination, country: 'CN' }),
      ),
    );
    await checkIn(inviter);
    await Promise.all(aliases.map((alias) => checkIn(alias)));
    for (const other of others) await checkIn(other);
    let team = ok<TeamResult>(await call(inviter, 'GET', '/growth/team'));
    expect(team).toMatchObject({ members: 5, counted: 3, miningNow: 5 });
    expect((await status(inviter)).rate).toMatchObject({ localMembers: 3, local: 150 });
    await rankingsSettled();
    expect((await ranking(inviter, 'dayInvites')).me.value).toBe(3);
    // Checking in again counts none of the other aliases either.
    await endSessions();
    await checkIn(inviter);
    for (const alias of aliases) await checkIn(alias);
    team = ok<TeamResult>(await call(inviter, 'GET', '/growth/team'));
    expect(team.counted).toBe(3);
    await rankingsSettled();
    expect((await ranking(inviter, 'monthInvites')).me.value).toBe(3);
    await endSessions();
  });

  it('lets an inviter remind a member who is not mining, once a day', async () => {
    const inviter = await t.register();
    const member = await invitee(inviter);
    const stranger = await t.register();
    const nudge = (who: RegisteredUser, target: RegisteredUser) =>
      call(who, 'POST', `/growth/team/members/${target.user.id}/nudge`);
    expectError(await nudge(stranger, member), 'TEAM_MEMBER_NOT_FOUND');
    ok(await nudge(inviter, member));
    expectError(await nudge(inviter, member), 'NUDGE_TOO_SOON');
    const events = await eventsOf(member);
    expect(events.at(-1)?.data).toMatchObject({
      type: 'mining',
      reason: 'nudged',
      by: { id: inviter.user.id },
    });
    t.clock.advance(DAY);
    await checkIn(member);
    expectError(await nudge(inviter, member), 'NUDGE_NOT_NEEDED');
    await endSessions();
  });

  it('gives the ad booster once per session, for an ad Pi says was watched', async () => {
    const a = await t.register();
    const ad = (watched = true) => sandbox.emulator.showAd('rewarded', watched).adId;
    const boost = (adId: string) => call(a, 'POST', '/growth/mining/ad', { adId });
    const first = ad();
    expectError(await boost(first), 'NOT_MINING');
    await checkIn(a);
    t.clock.advance(12 * HOUR);
    // Closed before the end, unknown to Pi, or an interstitial: no booster.
    expectError(await boost(ad(false)), 'AD_NOT_REWARDED');
    expectError(await boost('made-up-ad-id'), 'AD_NOT_REWARDED');
    expectError(await boost(sandbox.emulator.showAd('interstitial', true).adId), 'AD_NOT_REWARDED');
    const boosted = ok<MiningStatus>(await boost(first));
    expect(boosted.session?.adBoosted).toBe(true);
    expect(boosted.rate.ad).toBe(100);
    expectError(await boost(ad()), 'AD_BOOST_USED');
    await endSessions();
    expect((await coin(a)).balances.basic).toBe(6000 + 1200);
    await checkIn(a);
    // The same ad cannot boost another session.
    expectError(await boost(first), 'AD_NOT_REWARDED');
    await endSessions();
  });

  it('binds an ad to the first account that hands it in, and never boosts anyone else with it', async () => {
    const [a, b, c, d] = await Promise.all([
      t.register(),
      t.register(),
      t.register(),
      t.register(),
    ]);
    const ad = () => sandbox.emulator.showAd('rewarded', true).adId;
    const boost = (user: RegisteredUser, adId: string) =>
      call(user, 'POST', '/growth/mining/ad', { adId });
    // a's ad, handed in before a checked in: still a's, though it boosted nothing then.
    const watched = ad();
    expectError(await boost(a, watched), 'NOT_MINING');
    await checkIn(b);
    expectError(await boost(b, watched), 'AD_NOT_REWARDED');
    expect((await status(b)).session?.adBoosted).toBe(false);
    await checkIn(a);
    expect(ok<MiningStatus>(await boost(a, watched)).session?.adBoosted).toBe(true);
    // An ad a could not use (already boosted) does not become someone else's either.
    const spare = ad();
    expectError(await boost(a, spare), 'AD_BOOST_USED');
    expectError(await boost(b, spare), 'AD_NOT_REWARDED');
    // Two people handing in one ad at once: one of them has it.
    await checkIn(c);
    await checkIn(d);
    const shared = ad();
    const answers = await Promise.all([boost(c, shared), boost(d, shared)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expectError(
      answers.find((answer) => answer.statusCode !== 200)!,
      'AD_NOT_REWARDED',
    );
    await endSessions();
  });

  it('ranks points of all time with my place, ties to the smaller id, the same from SQL and Redis', async () => {
    const users = await Promise.all([t.register(), t.register(), t.register()]);
    for (const user of users) await checkIn(user);
    await endSessions();
    // All three hold 6000: the tie goes by user id.
    const { growth } = t.ctx.services;
    await growth.ecologicalReward({
      userId: users[2].user.id,
      amount: 1,
      note: 'tie-break',
      key: `t-${users[2].user.id}`,
    });
    await rankingsSettled();
    const board = await ranking(users[0], 'points');
    expect(board.period).toBe('all');
    const order = board.top.map((entry) => entry.user.id);
    // Everyone with 6000 (other tests' people too) comes after 6001, by user id.
    const tied = board.top.filter((entry) => entry.value === 6000).map((entry) => entry.user.id);
    expect(tied).toContain(users[0].user.id);
    expect(tied).toEqual([...tied].sort());
    expect(order.indexOf(users[2].user.id)).toBeLessThan(order.indexOf(tied[0]!));
    for (const [index, entry] of board.top.entries()) expect(entry.rank).toBe(index + 1);
    const values = board.top.map((entry) => entry.value);
    expect([...values].sort((x, y) => y - x)).toEqual(values);
    const mine = await ranking(users[1], 'points');
    expect(mine.me.rank).toBe(order.indexOf(users[1].user.id) + 1);
    expect(mine.me.value).toBe(6000);
    const nobody = await t.register();
    expect((await ranking(nobody, 'points')).me).toEqual({ rank: null, value: 0 });
  });

  it('keeps each day of invites, and credits the closed day’s top places once', async () => {
    const { growth } = t.ctx.services;
    await growth.scheduleRewards();
    await t.ctx.jobs.runDue();
    const inviter = await t.register();
    const today = (await ranking(inviter, 'dayInvites')).period;
    const member = await invitee(inviter);
    await checkIn(member);
    await rankingsSettled();
    const now = await ranking(inviter, 'dayInvites');
    expect(now.period).toBe(today);
    expect(now.top.find((e) => e.user.id === inviter.user.id)?.value).toBe(1);
    // Into the next day: the table of the day before is kept, a new one starts.
    const midnight = Date.UTC(
      Number(today.slice(0, 4)),
      Number(today.slice(5, 7)) - 1,
      Number(today.slice(8, 10)) + 1,
    );
    t.clock.advance(midnight - t.clock.now() + REWARD_DELAY_MS + MINUTE);
    const kept = await ranking(inviter, 'dayInvites', 'previous');
    expect(kept.period).toBe(today);
    expect(kept.me.value).toBe(1);
    expect((await ranking(inviter, 'dayInvites')).me).toEqual({ rank: null, value: 0 });

    const before = (await coin(inviter)).balances.ranking;
    await growth.scheduleRewards();
    await Promise.all([t.ctx.jobs.runDue(), t.ctx.jobs.runDue()]);
    // Run again as if a restart repeated it: nothing more is credited.
    expect(await growth.reward('dayInvites', today)).toBe(0);
    const place = kept.me.rank!;
    const rewards = [10_000, 5_000, 3_000];
    expect((await coin(inviter)).balances.ranking - before).toBe(rewards[place - 1] ?? 0);
    await endSessions();
  });

  it('runs a job again once a crashed node’s lease ran out, and its work counts once', async () => {
    const a = await t.register();
    const started = await checkIn(a);
    const sessionId = started.session!.id;
    t.clock.advance(DAY + SETTLE_GRACE_MS);
    // A node claimed the job, did its work, and died before marking it done.
    await t.ctx.db
      .updateTable('jobs')
      .set({ lease_until: t.clock.now() + 5 * MINUTE, attempts: 1 })
      .where('key', '=', `mining-end:${sessionId}`)
      .execute();
    await t.ctx.services.growth.settle(sessionId, { remind: false });
    const job = () =>
      t.ctx.db
        .selectFrom('jobs')
        .selectAll()
        .where('key', '=', `mining-end:${sessionId}`)
        .executeTakeFirstOrThrow();
    await t.ctx.jobs.runDue();
    expect((await job()).done_at).toBeNull();
    t.clock.advance(6 * MINUTE);
    await t.ctx.jobs.runDue();
    expect((await job()).done_at).not.toBeNull();
    expect((await job()).attempts).toBe(2);
    expect((await coin(a)).total).toBe(6000);
  });

  it('takes rates from the settings table the operator changes, for sessions started after', async () => {
    const a = await t.register();
    const ctx = { ...t.ctx, close: () => Promise.resolve() };
    let lines: string[] = [];
    const run = async (...argv: string[]) => {
      lines = [];
      const out = {
        log: (line: string) => lines.push(line),
        error: (line: string) => lines.push(line),
      };
      return runOperator(argv, () => Promise.resolve(ctx), out);
    };
    expect(await run('growth:set', '--key', 'basicRate', '--value', '1.5'), lines.join('\n')).toBe(
      0,
    );
    expect(await run('growth:settings')).toBe(0);
    expect(lines.join('\n')).toMatch(/basicRate\t1\.5 \(changed\)/);
    expect(await run('growth:set', '--key', 'basicRate', '--value', 'lots')).toBe(2);
    expect(await run('growth:set', '--key', 'dayInvitesRewards', '--value', '30,20.5,10')).toBe(0);
    expect(await run('growth:set', '--key', 'dayInvitesRewards', '--value', 'default')).toBe(0);
    t.clock.advance(MINUTE); // past the settings cache
    expect((await checkIn(a)).rate.basic).toBe(1500);
    expect(await run('growth:set', '--key', 'basicRate', '--value', 'default')).toBe(0);
    t.clock.advance(MINUTE);
    // The running session keeps the rate it started with.
    expect((await status(a)).rate.basic).toBe(1500);
    await endSessions();
    expect((await coin(a)).balances.basic).toBe(36_000);

    t.clock.advance(MINUTE);
    const teltlkId = (await t.ctx.services.users.get(a.user.id)).teltlk_id;
    const reward = [
      'growth:reward',
      '--to',
      teltlkId,
      '--points',
      '2.5',
      '--note',
      'Community event',
    ];
    expect(await run(...reward, '--key', `ev-${a.user.id}`), lines.join('\n')).toBe(0);
    expect(await run(...reward, '--key', `ev-${a.user.id}`)).toBe(0);
    expect(lines.join('\n')).toMatch(/given before/);
    const history = ok<CoinHistoryResult>(await call(a, 'GET', '/growth/coin/history?limit=1'));
    expect(history.items[0]).toMatchObject({
      kind: 'ecological',
      total: 2500,
      note: 'Community event',
    });
    const next = ok<CoinHistoryResult>(
      await call(a, 'GET', `/growth/coin/history?limit=1&cursor=${history.next}`),
    );
    expect(next.items[0]).toMatchObject({ kind: 'mining', total: 36_000 });
    expect(next.next).toBeNull();
  });
});
