import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Locations and contact cards join the message kinds a group may allow. Landed: never
 * edit, add a new migration.
 *
 * Until now a group's kinds were text or nothing, so a group that allowed text allowed
 * every kind there was: it allows the new ones too. A group that allowed nothing keeps
 * allowing nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update groups set allowed_kinds = ${JSON.stringify(['text', 'location', 'card'])}
    where allowed_kinds = ${JSON.stringify(['text'])}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update groups set allowed_kinds = ${JSON.stringify(['text'])}
    where allowed_kinds = ${JSON.stringify(['text', 'location', 'card'])}`.execute(db);
}
