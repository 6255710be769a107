import type { Kysely } from 'kysely';

/**
 * Groups. Landed: never edit, add a new migration.
 *
 * A group's members are the members of its conversation (`sg_<id>`), with a role; a
 * message to the group is still one row. Read state comes from the members' read_seq
 * (indexed per conversation, so "how many have read seq n" is one range count), and
 * mentions from mention_seq (only mentioned members are written) and the conversation's
 * mention_all_seq (one write for @all). A member who leaves loses their member row: the
 * server serves them nothing of the group from then on.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('groups')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('group_no', 'varchar(10)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('avatar_path', 'varchar(255)')
    .addColumn('notice', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('notice_at', 'bigint')
    .addColumn('owner_id', 'varchar(32)', (c) => c.notNull().references('users.id'))
    .addColumn('member_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('verification', 'varchar(16)', (c) => c.notNull())
    .addColumn('private_chat', 'integer', (c) => c.notNull().defaultTo(1))
    /** JSON array of the message kinds members may send. */
    .addColumn('allowed_kinds', 'varchar(200)', (c) => c.notNull())
    .addColumn('all_muted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('dismissed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('groups_group_no_key')
    .on('groups')
    .column('group_no')
    .unique()
    .execute();

  await db.schema.alterTable('conversation_members').addColumn('role', 'varchar(8)').execute();
  await db.schema
    .alterTable('conversation_members')
    .addColumn('group_nickname', 'varchar(128)')
    .execute();
  await db.schema
    .alterTable('conversation_members')
    .addColumn('group_remark', 'varchar(128)')
    .execute();
  await db.schema.alterTable('conversation_members').addColumn('muted_until', 'bigint').execute();
  await db.schema
    .alterTable('conversation_members')
    .addColumn('mention_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('conversation_members_read_idx')
    .on('conversation_members')
    .columns(['conversation_id', 'read_seq'])
    .execute();
  await db.schema
    .createIndex('conversation_members_role_idx')
    .on('conversation_members')
    .columns(['conversation_id', 'role', 'joined_at', 'user_id'])
    .execute();
  // Every group message brings the conversation back to members who deleted it from their
  // chat list: only those rows, found without reading the group's other members.
  await db.schema
    .createIndex('conversation_members_hidden_idx')
    .on('conversation_members')
    .columns(['conversation_id', 'hidden'])
    .execute();

  await db.schema
    .alterTable('conversations')
    .addColumn('mention_all_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('group_applications')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('group_id', 'varchar(32)', (c) =>
      c.notNull().references('groups.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('message', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('handled_at', 'bigint')
    .addColumn('handled_by', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('group_applications_pair_key')
    .on('group_applications')
    .columns(['group_id', 'user_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('group_applications_group_idx')
    .on('group_applications')
    .columns(['group_id', 'status', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('group_applications').execute();
  await db.schema.alterTable('conversations').dropColumn('mention_all_seq').execute();
  await db.schema.dropIndex('conversation_members_hidden_idx').execute();
  await db.schema.dropIndex('conversation_members_role_idx').execute();
  await db.schema.dropIndex('conversation_members_read_idx').execute();
  for (const column of ['mention_seq', 'muted_until', 'group_remark', 'group_nickname', 'role']) {
    await db.schema.alterTable('conversation_members').dropColumn(column).execute();
  }
  await db.schema.dropTable('groups').execute();
}
