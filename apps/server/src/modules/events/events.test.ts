import type { EventPageResult, ServerFrame } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, expectError, type TestApp } from '../../test/harness.js';
import { EventService } from './service.js';

describe.each(dialects)('user event stream on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it('numbers events gap-free per user, pages them, and pushes them only after commit', async () => {
    const ada = await t.register();
    const bob = await t.register();
    const { db } = t.ctx;
    const pushed: ServerFrame[] = [];
    const events = new EventService({
      db,
      clock: t.clock,
      hub: { toUsers: (_ids, frame) => void pushed.push(frame) },
    });

    const pending = await db
      .transaction()
      .execute(async (trx) => [
        await events.append(trx, ada.user.id, { type: 'unblocked', userId: 'x1' }),
        await events.append(trx, bob.user.id, { type: 'unblocked', userId: 'x2' }),
        await events.append(trx, ada.user.id, { type: 'friendRemoved', userId: 'x3' }),
      ]);
    expect(pushed).toEqual([]);
    events.publish(pending);
    expect(pushed.map((frame) => frame.t === 'event' && frame.event.seq)).toEqual([1, 1, 2]);

    // A rolled-back transaction leaves no event and no hole in the numbering.
    await expect(
      db.transaction().execute(async (trx) => {
        await events.append(trx, ada.user.id, { type: 'unblocked', userId: 'x4' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');

    const page = async (after: number, limit = 200) => {
      const response = await t.call('GET', `/api/v1/sync/events?after=${after}&limit=${limit}`, {
        token: ada.token,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<EventPageResult>();
    };
    const all = await page(0);
    expect(all.lastSeq).toBe(2);
    expect(all.events.map((event) => [event.seq, event.data])).toEqual([
      [1, { type: 'unblocked', userId: 'x1' }],
      [2, { type: 'friendRemoved', userId: 'x3' }],
    ]);
    expect(await page(0, 1)).toMatchObject({ hasMore: true, events: [{ seq: 1 }] });
    expect(await page(2)).toEqual({ events: [], hasMore: false, lastSeq: 2 });
    expectError(
      await t.call('GET', '/api/v1/sync/events?after=-1', { token: ada.token }),
      'VALIDATION_FAILED',
    );
  });

  it('appends one event to many users, each continuing their own numbering', async () => {
    const users = [await t.register(), await t.register(), await t.register()];
    const events = new EventService({ db: t.ctx.db, clock: t.clock, hub: { toUsers: () => {} } });
    const data = { type: 'groupLeft', groupId: 'g1', reason: 'dismissed' } as const;
    const [first] = users;
    await t.ctx.db
      .transaction()
      .execute((trx) => events.append(trx, first!.user.id, { type: 'unblocked', userId: 'x' }));
    const pending = await t.ctx.db
      .transaction()
      .execute((trx) => events.appendToMany(trx, [...users.map((u) => u.user.id), 'nobody'], data));
    expect(
      pending
        .map(({ userId, event }) => [userId, event.seq])
        .sort(([a], [b]) => (a! < b! ? -1 : 1)),
    ).toEqual(
      users.map((u) => [u.user.id, u === first ? 2 : 1]).sort(([a], [b]) => (a! < b! ? -1 : 1)),
    );
    const response = await t.call('GET', '/api/v1/sync/events?after=1', { token: first!.token });
    expect(response.json<EventPageResult>().events.map((e) => e.data)).toEqual([data]);
  });
});
