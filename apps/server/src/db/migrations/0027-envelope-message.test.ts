import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from '../../test/harness.js';
import * as envelopeMessage from './0027-envelope-message.js';

describe.each(dialects)('migration 0027-envelope-message on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it('names the message of each envelope sent before it, and none for one whose message is gone', async () => {
    const db = t.ctx.db;
    // Migrations see the database untyped.
    const untyped = db as unknown as Kysely<unknown>;
    await envelopeMessage.down(untyped);
    await db
      .insertInto('conversations')
      .values({ id: 'sg_envelopes', kind: 'group', created_at: 1, updated_at: 1 })
      .execute();
    const messages = [
      ['m1', 1, 'a', '{"kind":"text","text":"\\"envelopeId\\":\\"e1\\""}'],
      ['m2', 2, 'a', '{"kind":"envelope","envelopeId":"e1","currency":"PI","total":5,"count":1}'],
      ['m3', 3, 'b', '{"kind":"envelope","envelopeId":"e2","currency":"PI","total":5,"count":1}'],
    ] as const;
    for (const [id, seq, sender, content] of messages) {
      await sql`insert into messages (id, conversation_id, seq, sender_id, client_msg_id, content, created_at)
        values (${id}, ${'sg_envelopes'}, ${seq}, ${sender}, ${id}, ${content}, ${1})`.execute(db);
    }
    for (const [id, sender] of [
      ['e1', 'a'],
      ['e2', 'b'],
      ['e3', 'a'],
    ]) {
      await sql`insert into envelopes (id, sender_id, conversation_id, currency, total, count, split, greeting, expires_at, created_at)
        values (${id}, ${sender}, ${'sg_envelopes'}, ${'PI'}, ${5}, ${1}, ${'equal'}, ${''}, ${2}, ${1})`.execute(
        db,
      );
    }
    await envelopeMessage.up(untyped);
    const named = await db
      .selectFrom('envelopes')
      .select(['id', 'message_seq'])
      .where('conversation_id', '=', 'sg_envelopes')
      .orderBy('id')
      .execute();
    expect(
      named.map((row) => [row.id, row.message_seq === null ? null : Number(row.message_seq)]),
    ).toEqual([
      ['e1', 2],
      ['e2', 3],
      ['e3', null],
    ]);
  });
});
