import type { Kysely } from 'kysely';

/**
 * Voice and video calls. Landed: never edit, add a new migration.
 *
 * - `calls`: one per call, its state machine's place (ringing, accepted, connected,
 *   ended with an outcome), its times and its revision. A caller's client call id is unique per
 *   caller, so a retried invite finds its call. A group call keeps its SFU room (the
 *   Janus VideoRoom id and the room's secret).
 * - `call_participants`: the caller and each person rung (or who joined a running group
 *   call later): their state and the device (session) that took the call.
 * - `groups.call_policy`: who may start a call in a group, `all` members (as before: any
 *   member may) or only the `admins` (owner and admins).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('calls')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('caller_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('client_call_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('conversation_id', 'varchar(80)', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('media', 'varchar(8)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('ring_until', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('connected_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('media_lost_at', 'bigint')
    .addColumn('sfu_room', 'bigint')
    .addColumn('sfu_secret', 'varchar(64)')
    // Each transition writes revision + 1 where the revision it read is still there: two
    // devices answering at once on two nodes, one wins and the other reads again.
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addUniqueConstraint('calls_client_call', ['caller_id', 'client_call_id'])
    .execute();
  await db.schema
    .createIndex('calls_conversation_live')
    .on('calls')
    .columns(['conversation_id', 'state'])
    .execute();
  await db.schema
    .createTable('call_participants')
    .addColumn('call_id', 'varchar(32)', (c) =>
      c.notNull().references('calls.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('session_id', 'varchar(32)')
    // 1 while the person is rung or in the call; 0 once they or the call are done with it.
    .addColumn('live', 'integer', (c) => c.notNull())
    // Their join token for the call's SFU room (a group call they joined).
    .addColumn('sfu_token', 'varchar(64)')
    .addPrimaryKeyConstraint('call_participants_pk', ['call_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('call_participants_user_live')
    .on('call_participants')
    .columns(['user_id', 'live'])
    .execute();
  await db.schema
    .alterTable('groups')
    .addColumn('call_policy', 'varchar(8)', (c) => c.notNull().defaultTo('all'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('groups').dropColumn('call_policy').execute();
  await db.schema.dropTable('call_participants').execute();
  await db.schema.dropTable('calls').execute();
}
