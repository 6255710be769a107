import { sql, type Kysely } from 'kysely';

/**
 * The earlier message a notice is about. Landed: never edit, add a new migration.
 *
 * A revoke notice gets a new seq but is about an older message; a member whose history
 * starts after that message (they joined later, or cleared it) must not learn of it, so
 * pulls leave out notices whose target_seq is at or before the member's min_seq. Revoke
 * notices written before this column are filled in from their content.
 */

/** Revoke notices read per statement while filling in the column. */
const BATCH = 500;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('target_seq', 'bigint').execute();
  // Revoke notices carry the client id `revoke-<target id>`; there are few of them.
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; content: string }>`
      select id, content from messages
      where client_msg_id like 'revoke-%' and id > ${after}
      order by id limit ${BATCH}`.execute(db);
    for (const { id, content } of rows) {
      const targetSeq = revokeTarget(content);
      if (targetSeq === null) continue;
      await sql`update messages set target_seq = ${targetSeq} where id = ${id}`.execute(db);
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return;
    after = last.id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('target_seq').execute();
}

function revokeTarget(content: string): number | null {
  try {
    const parsed = JSON.parse(content) as { kind?: unknown; targetSeq?: unknown };
    return parsed.kind === 'revoke' && Number.isInteger(parsed.targetSeq)
      ? (parsed.targetSeq as number)
      : null;
  } catch {
    return null;
  }
}
