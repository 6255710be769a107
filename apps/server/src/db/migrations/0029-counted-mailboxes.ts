import { sql, type Kysely } from 'kysely';

/**
 * An invitation counts once per mailbox. Landed: never edit, add a new migration.
 *
 * Aliases of one mailbox (`ada+1@gmail.com`, `a.da@googlemail.com`) are separate accounts
 * to sign in with, but one person: an invitee counts for their inviter (the team's count,
 * the invite rankings and their rewards, the booster) only if no other account of their
 * mailbox (canonicalMailbox) counted before. `counted_mailboxes` holds the account each
 * mailbox counted for; invitations that counted before this table are entered in it.
 */

/** Counted invitees read per statement while filling in the table. */
const BATCH = 500;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('counted_mailboxes')
    .addColumn('mailbox', 'varchar(254)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('counted_at', 'bigint', (c) => c.notNull())
    .execute();
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; email: string; qualified_at: number | string }>`
      select u.id, u.email, m.qualified_at from users u
      inner join miners m on m.user_id = u.id
      where m.qualified_at is not null and u.email is not null and u.id > ${after}
      order by u.id limit ${BATCH}`.execute(db);
    for (const row of rows) {
      await sql`insert into counted_mailboxes (mailbox, user_id, counted_at)
        values (${canonicalMailbox(row.email)}, ${row.id}, ${Number(row.qualified_at)})
        on conflict (mailbox) do nothing`.execute(db);
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return;
    after = last.id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('counted_mailboxes').execute();
}

/*
 * Frozen here as the migration ran (lib/mailbox.ts may learn more providers later; what
 * counted then must not change with it).
 */
const DOTLESS_DOMAINS: ReadonlyMap<string, string> = new Map([
  ['gmail.com', 'gmail.com'],
  ['googlemail.com', 'gmail.com'],
]);

function canonicalMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS.get(domain);
  if (dotless !== undefined) {
    domain = dotless;
    const bare = local.replaceAll('.', '');
    if (bare !== '') local = bare;
  }
  return `${local}@${domain}`;
}
