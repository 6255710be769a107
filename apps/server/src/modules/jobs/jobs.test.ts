import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../lib/clock.js';
import { createTestApp, dialects, type TestApp } from '../../test/harness.js';

describe.each(dialects)('jobs on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(() => t?.close());

  it('tries a failing job again later, backing off', async () => {
    let calls = 0;
    t.ctx.jobs.handle('flaky', () => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('not yet')) : Promise.resolve();
    });
    const key = `flaky-${randomBytes(4).toString('hex')}`;
    await t.ctx.jobs.schedule(t.ctx.db, { kind: 'flaky', key, runAt: t.clock.now(), payload: {} });
    const row = () =>
      t.ctx.db.selectFrom('jobs').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    await t.ctx.jobs.runDue();
    expect(await row()).toMatchObject({ done_at: null, error: 'not yet', attempts: 1 });
    await t.ctx.jobs.runDue();
    expect(calls).toBe(1);
    t.clock.advance(MINUTE);
    await t.ctx.jobs.runDue();
    expect(calls).toBe(2);
    expect((await row()).done_at).not.toBeNull();
  });

  it('runs a job that is not finished again on its kind’s backoff, sooner when hurried', async () => {
    let calls = 0;
    t.ctx.jobs.handle(
      'patient',
      () => {
        calls += 1;
        return Promise.resolve(calls < 4 ? 'again' : undefined);
      },
      { retryDelay: (attempts) => attempts * 10 * SECOND },
    );
    const key = `patient-${randomBytes(4).toString('hex')}`;
    await t.ctx.jobs.schedule(t.ctx.db, {
      kind: 'patient',
      key,
      runAt: t.clock.now(),
      payload: {},
    });
    const row = () =>
      t.ctx.db.selectFrom('jobs').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    await t.ctx.jobs.runDue();
    expect(await row()).toMatchObject({ done_at: null, error: null, attempts: 1 });
    expect(Number((await row()).run_at)).toBe(t.clock.now() + 10 * SECOND);
    t.clock.advance(10 * SECOND);
    await t.ctx.jobs.runDue();
    expect(Number((await row()).run_at)).toBe(t.clock.now() + 20 * SECOND);
    await t.ctx.jobs.runDue();
    expect(calls).toBe(2);
    // A node starting runs it at once.
    await t.ctx.jobs.hurry('patient');
    await t.ctx.jobs.runDue();
    expect(calls).toBe(3);
    await t.ctx.jobs.hurry('patient');
    await t.ctx.jobs.runDue();
    expect(calls).toBe(4);
    expect((await row()).done_at).not.toBeNull();
  });
});
