import { sql, type Kysely } from 'kysely';

/**
 * Photos, voice messages, videos and files join the message kinds a group may allow. Landed: never edit, add a
 * new migration.
 *
 * A group that allowed every kind there was (text, locations, cards) allows them too; a
 * group that had turned some kind off keeps its choice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update groups set allowed_kinds = ${JSON.stringify(ALL_KINDS)}
    where allowed_kinds = ${JSON.stringify(KINDS_BEFORE)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update groups set allowed_kinds = ${JSON.stringify(KINDS_BEFORE)}
    where allowed_kinds = ${JSON.stringify(ALL_KINDS)}`.execute(db);
}

const KINDS_BEFORE = ['text', 'location', 'card'];
const ALL_KINDS = ['text', 'image', 'voice', 'video', 'file', 'location', 'card'];
