import type { Kysely } from 'kysely';

/**
 * Contacts and messaging. Landed: never edit, add a new migration.
 *
 * A message row is written once, whatever the conversation's size; each member keeps
 * read_seq and min_seq. Per-user changes without a conversation seq go to user_events,
 * numbered by users.event_seq.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('official', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('event_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('friend_requests')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('from_user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('to_user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('greeting', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('handled_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('friend_requests_pair_key')
    .on('friend_requests')
    .columns(['from_user_id', 'to_user_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('friend_requests_to_idx')
    .on('friend_requests')
    .columns(['to_user_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('friendships')
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('friend_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('remark', 'varchar(128)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('friendships_pkey', ['user_id', 'friend_id'])
    .execute();

  await db.schema
    .createTable('blocks')
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('blocked_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('blocks_pkey', ['user_id', 'blocked_id'])
    .execute();

  await db.schema
    .createTable('conversations')
    .addColumn('id', 'varchar(80)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('max_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('burn_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('conversation_members')
    .addColumn('conversation_id', 'varchar(80)', (c) =>
      c.notNull().references('conversations.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('read_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('min_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('muted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('conversation_members_pkey', ['conversation_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('conversation_members_user_idx')
    .on('conversation_members')
    .columns(['user_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('conversation_id', 'varchar(80)', (c) =>
      c.notNull().references('conversations.id').onDelete('cascade'),
    )
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('sender_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('client_msg_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('burn_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('messages_conversation_seq_key')
    .on('messages')
    .columns(['conversation_id', 'seq'])
    .unique()
    .execute();
  await db.schema
    .createIndex('messages_sender_client_key')
    .on('messages')
    .columns(['sender_id', 'client_msg_id'])
    .unique()
    .execute();
  await db.schema.createIndex('messages_burn_idx').on('messages').column('burn_at').execute();

  await db.schema
    .createTable('message_hides')
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('conversation_id', 'varchar(80)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_hides_pkey', ['user_id', 'conversation_id', 'seq'])
    .execute();

  await db.schema
    .createTable('user_events')
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_events_pkey', ['user_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'user_events',
    'message_hides',
    'messages',
    'conversation_members',
    'conversations',
    'blocks',
    'friendships',
    'friend_requests',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('users').dropColumn('event_seq').execute();
  await db.schema.alterTable('users').dropColumn('official').execute();
}
