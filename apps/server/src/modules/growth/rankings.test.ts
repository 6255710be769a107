import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/random.js';
import { createTestApp, dialects, type TestApp } from '../../test/harness.js';
import { Rankings } from './rankings.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL;
const quiet = pino({ level: 'silent' });

/** Random growth on a board, read back from SQL and from Redis: the same order, exactly. */
describe.runIf(TEST_REDIS_URL).each(dialects)('rankings in Redis on $dialect', ({ dialect }) => {
  let t: TestApp;
  let redis: Redis;
  let prefix: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    redis = new Redis(TEST_REDIS_URL!);
    prefix = `test:rank:${randomBytes(6).toString('hex')}:`;
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await t?.close();
  });

  it('answers top places and anyone’s place as SQL does, through rebuilds and missed writes', async () => {
    const sqlOnly = new Rankings({ db: t.ctx.db, redis: null, logger: quiet, prefix });
    const fast = new Rankings({ db: t.ctx.db, redis, logger: quiet, prefix });
    const users = Array.from({ length: 300 }, () => newId());
    const period = '2026-11';
    const grow = async (rounds: number) => {
      for (let round = 0; round < rounds; round += 1) {
        const updates = await t.ctx.db.transaction().execute(async (trx) =>
          Promise.all(
            Array.from({ length: 20 }, async () => {
              const user = users[Math.floor(Math.random() * users.length)]!;
              // Small values, so that many are tied.
              return fast.add(trx, 'monthInvites', period, user, 1 + Math.floor(Math.random() * 2));
            }),
          ),
        );
        fast.publish(updates);
      }
    };
    const same = async () => {
      await fast.settled();
      expect(await fast.top('monthInvites', period, 100)).toEqual(
        await sqlOnly.top('monthInvites', period, 100),
      );
      for (const user of users.slice(0, 40)) {
        expect(await fast.rankOf('monthInvites', period, user)).toEqual(
          await sqlOnly.rankOf('monthInvites', period, user),
        );
      }
    };
    // Before the set is marked ready, reads come from SQL and start a rebuild.
    await grow(5);
    await same();
    await fast.rebuild('monthInvites', period);
    expect(await redis.keys(`${prefix}*:monthInvites:${period}:ready`)).toHaveLength(1);
    await grow(10);
    await same();
    // A rebuild running beside live writes still ends at the database's values.
    await Promise.all([fast.rebuild('monthInvites', period), grow(10)]);
    await same();
    // A value Redis never got (as if the write was lost) is mended by the next rebuild.
    const lost = users[0]!;
    await t.ctx.db.transaction().execute((trx) => fast.add(trx, 'monthInvites', period, lost, 50));
    expect((await fast.rankOf('monthInvites', period, lost)).rank).not.toBe(1);
    await fast.rebuild('monthInvites', period);
    expect(await fast.rankOf('monthInvites', period, lost)).toEqual(
      await sqlOnly.rankOf('monthInvites', period, lost),
    );
    expect((await fast.rankOf('monthInvites', period, lost)).rank).toBe(1);
    await same();
  });

  it('answers from SQL while Redis is unreachable', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    down.on('error', () => undefined);
    const broken = new Rankings({ db: t.ctx.db, redis: down, logger: quiet, prefix });
    const sqlOnly = new Rankings({ db: t.ctx.db, redis: null, logger: quiet, prefix });
    const user = newId();
    const update = await t.ctx.db
      .transaction()
      .execute((trx) => broken.add(trx, 'dayInvites', '2026-11-27', user, 3));
    broken.publish([update]);
    expect(await broken.rankOf('dayInvites', '2026-11-27', user)).toEqual(
      await sqlOnly.rankOf('dayInvites', '2026-11-27', user),
    );
    expect(await broken.top('dayInvites', '2026-11-27', 10)).toEqual([{ userId: user, value: 3 }]);
    await broken.settled();
    down.disconnect();
  });
});
