import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from '../../test/harness.js';
import * as countedMailboxes from './0029-counted-mailboxes.js';

describe.each(dialects)('migration 0029-counted-mailboxes on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it('enters the mailbox of every invitee counted before it, once per mailbox', async () => {
    const db = t.ctx.db;
    // Migrations see the database untyped.
    const untyped = db as unknown as Kysely<unknown>;
    const [first, alias, uncounted, phoneOnly] = await Promise.all([
      t.register({ destination: 'grace.hopper+1@gmail.com' }),
      t.register({ destination: 'gracehopper@googlemail.com' }),
      t.register({ destination: 'grace@example.com' }),
      t.register({ channel: 'phone' }),
    ]);
    const miners = [
      [first, 100],
      [alias, 200],
      [uncounted, null],
      [phoneOnly, 300],
    ] as const;
    for (const [user, qualifiedAt] of miners) {
      await db
        .insertInto('miners')
        .values({ user_id: user.user.id, qualified_at: qualifiedAt, nudged_at: null })
        .execute();
    }
    await countedMailboxes.down(untyped);
    await countedMailboxes.up(untyped);
    const rows = await db.selectFrom('counted_mailboxes').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ mailbox: 'gracehopper@gmail.com' });
    expect([first.user.id, alias.user.id]).toContain(rows[0]!.user_id);
  });
});
