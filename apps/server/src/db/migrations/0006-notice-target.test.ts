import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from '../../test/harness.js';
import * as noticeTarget from './0006-notice-target.js';

describe.each(dialects)('migration 0006-notice-target on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it('fills in the target of revoke notices written before it, and only theirs', async () => {
    const db = t.ctx.db;
    // Migrations see the database untyped.
    const untyped = db as unknown as Kysely<unknown>;
    await noticeTarget.down(untyped);
    await db
      .insertInto('conversations')
      .values({ id: 'si_a_b', kind: 'single', created_at: 1, updated_at: 1 })
      .execute();
    const rows = [
      ['m1', 1, 'c-1', '{"kind":"text","text":"hi"}'],
      ['m2', 2, 'revoke-m1', '{"kind":"revoke","targetSeq":1}'],
      ['m3', 3, 'revoke-looks-alike', '{"kind":"text","text":"revoke"}'],
    ] as const;
    for (const [id, seq, clientMsgId, content] of rows) {
      await sql`insert into messages (id, conversation_id, seq, sender_id, client_msg_id, content, created_at)
        values (${id}, ${'si_a_b'}, ${seq}, ${'a'}, ${clientMsgId}, ${content}, ${1})`.execute(db);
    }
    await noticeTarget.up(untyped);
    const targets = await db
      .selectFrom('messages')
      .select(['id', 'target_seq'])
      .where('conversation_id', '=', 'si_a_b')
      .orderBy('seq')
      .execute();
    expect(targets).toEqual([
      { id: 'm1', target_seq: null },
      { id: 'm2', target_seq: 1 },
      { id: 'm3', target_seq: null },
    ]);
  });
});
