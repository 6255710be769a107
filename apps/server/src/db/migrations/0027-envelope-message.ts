import { sql, type Kysely } from 'kysely';

/**
 * A red envelope names the message it was sent with. Landed: never edit, add a new
 * migration.
 *
 * Whether a member may see an envelope is whether they may see its message: a member who
 * joined after it, cleared their history past it, deleted it for themselves, or whose
 * copy burnt, has no envelope to open. Envelopes sent before this column are matched to
 * their messages by the envelope id in the content; one whose message is gone keeps null,
 * and is then nobody's to open (what is left of it returns to its sender when it expires).
 */

/** Envelopes read per statement while filling in the column. */
const BATCH = 500;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('envelopes').addColumn('message_seq', 'bigint').execute();
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; sender_id: string; conversation_id: string }>`
      select id, sender_id, conversation_id from envelopes
      where message_seq is null and id > ${after}
      order by id limit ${BATCH}`.execute(db);
    for (const envelope of rows) {
      const { rows: candidates } = await sql<{ seq: number | string; content: string }>`
        select seq, content from messages
        where conversation_id = ${envelope.conversation_id}
          and sender_id = ${envelope.sender_id}
          and content like ${`%"envelopeId":"${envelope.id}"%`}`.execute(db);
      const found = candidates.find(({ content }) => envelopeIdOf(content) === envelope.id);
      if (!found) continue;
      await sql`update envelopes set message_seq = ${Number(found.seq)}
        where id = ${envelope.id}`.execute(db);
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return;
    after = last.id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('envelopes').dropColumn('message_seq').execute();
}

function envelopeIdOf(content: string): string | null {
  try {
    const parsed = JSON.parse(content) as { kind?: unknown; envelopeId?: unknown };
    return parsed.kind === 'envelope' && typeof parsed.envelopeId === 'string'
      ? parsed.envelopeId
      : null;
  } catch {
    return null;
  }
}
