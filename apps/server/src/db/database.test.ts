import { CODE_RESEND_SECONDS, type Me, type VerifyCodeResult } from '@teltlk/protocol';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECOND } from '../lib/clock.js';
import { createTestApp, dialects, PASSWORD, uniqueEmail, type TestApp } from '../test/harness.js';
import {
  checkpointThreadCount,
  StatementCache,
  migrateToLatest,
  openDatabase,
  uniqueViolationColumn,
} from './database.js';
import type { NewUser } from './schema.js';
import * as messageKinds from './migrations/0008-message-kinds.js';
import * as mediaKinds from './migrations/0010-media-kinds.js';
import * as editSearch from './migrations/0011-edit-search.js';

describe.each(dialects)('database on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ dialect });
  });
  afterEach(async () => {
    await t.close();
  });

  const row = (id: string, overrides: Partial<NewUser> = {}): NewUser => ({
    id,
    teltlk_id: `t${id}`,
    teltlk_id_lower: `t${id}`.toLowerCase(),
    teltlk_id_changed_at: null,
    phone: null,
    email: `${id}@example.com`,
    password_hash: 'x',
    nickname: 'n',
    avatar_path: null,
    country: 'CN',
    mother_tongue: 'zh',
    invite_code: `INV${id}`.toUpperCase(),
    invited_by: null,
    ui_language: 'zh_CN',
    mother_tongue_first: 1,
    notifications: 1,
    vibration: 1,
    alert_sound: 1,
    failed_logins: 0,
    login_locked_until: null,
    created_at: 1,
    updated_at: 1,
    ...overrides,
  });

  /** A group of `owner_id` allowing these kinds, as its row. */
  const groupRow = (id: string, ownerId: string, kinds: string[]) => ({
    id,
    group_no: id.padStart(8, '0'),
    name: id,
    owner_id: ownerId,
    verification: 'open',
    allowed_kinds: JSON.stringify(kinds),
    notice: '',
    notice_at: null,
    avatar_path: null,
    member_count: 0,
    private_chat: 1,
    all_muted: 0,
    created_at: 1,
    updated_at: 1,
    dismissed_at: null,
  });

  it.each([
    {
      migration: '0008',
      up: messageKinds.up,
      allOf: ['text'],
      all: ['text', 'location', 'card'],
    },
    {
      migration: '0010',
      up: mediaKinds.up,
      allOf: ['text', 'location', 'card'],
      all: ['text', 'image', 'voice', 'video', 'file', 'location', 'card'],
    },
  ])(
    'lets groups that allowed every kind allow the new ones too ($migration), and leaves the others',
    async ({ migration, up, allOf, all }) => {
      const owner = `g${migration}`;
      await t.ctx.db.insertInto('users').values(row(owner)).execute();
      const [every, some] = [`${migration}1`, `${migration}2`];
      await t.ctx.db
        .insertInto('groups')
        .values([groupRow(every, owner, allOf), groupRow(some, owner, allOf.slice(0, -1))])
        .execute();
      await up(t.ctx.db as unknown as Kysely<unknown>);
      const kinds = await t.ctx.db
        .selectFrom('groups')
        .select(['id', 'allowed_kinds'])
        .where('id', 'in', [every, some])
        .orderBy('id')
        .execute();
      expect(kinds.map((k) => [k.id, JSON.parse(k.allowed_kinds) as unknown])).toEqual([
        [every, all],
        [some, allOf.slice(0, -1)],
      ]);
    },
  );

  it('indexes the messages sent before search existed (0011), and only what can be found', async () => {
    const db = t.ctx.db as unknown as Kysely<unknown>;
    await editSearch.down(db);
    await t.ctx.db
      .insertInto('conversations')
      .values({ id: 'si_a_b', kind: 'single', created_at: 1, updated_at: 1 })
      .execute();
    const contents = [
      { kind: 'text', text: 'Meet at the Harbour' },
      {
        kind: 'file',
        file: { id: 'f', name: 'harbour-map.pdf', size: 1, mime: 'application/pdf' },
      },
      { kind: 'location', latitude: 1, longitude: 2, name: 'Old harbour' },
      { kind: 'text', text: 'harbour, revoked' },
      { kind: 'text', text: '去北京' },
      { kind: 'revoke', targetSeq: 4 },
    ];
    for (const [index, content] of contents.entries()) {
      const seq = index + 1;
      const revoked = seq === 4 ? 6 : null;
      await sql`insert into messages
        (id, conversation_id, seq, sender_id, client_msg_id, content, created_at, revoked_at)
        values (${`m${seq}`}, 'si_a_b', ${seq}, 'a', ${`c${seq}`}, ${JSON.stringify(content)}, 1, ${revoked})`.execute(
        db,
      );
    }
    await editSearch.up(db);
    const found =
      dialect === 'sqlite'
        ? await sql<{ id: string }>`select m.id from message_search s
            join messages m on m.rowid = s.rowid
            where message_search match '"HARBOUR"' order by m.id`.execute(db)
        : await sql<{ id: string }>`select id from messages
            where search_text ilike '%HARBOUR%' order by id`.execute(db);
    expect(found.rows.map(({ id }) => id)).toEqual(['m1', 'm2', 'm3']);
    const grams =
      dialect === 'sqlite'
        ? await sql<{ id: string }>`select m.id from message_grams g
            join messages m on m.rowid = g.rowid where message_grams match '"北京"'`.execute(db)
        : await sql<{ id: string }>`select id from messages
            where string_to_array(search_grams, ' ') @> array['北京']`.execute(db);
    expect(grams.rows.map(({ id }) => id)).toEqual(['m5']);
  });

  it.runIf(dialect === 'postgres')(
    "introspects its own schema only, whatever the database's other schemas hold",
    async () => {
      const other = `t_other_${Date.now().toString(36)}`;
      const db = t.ctx.db as unknown as Kysely<unknown>;
      await sql`CREATE SCHEMA ${sql.id(other)}`.execute(db);
      try {
        await sql`CREATE TABLE ${sql.id(other, 'stranger')} (id int)`.execute(db);
        const tables = await t.ctx.db.introspection.getTables({ withInternalKyselyTables: true });
        const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(
          db,
        );
        expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([rows[0]?.schema]));
        expect(tables.map((table) => table.name)).toEqual(
          expect.arrayContaining(['users', 'messages', 'kysely_migration']),
        );
        expect(tables.map((table) => table.name)).not.toContain('stranger');
        const users = tables.find((table) => table.name === 'users');
        expect(users?.columns.find((column) => column.name === 'email')).toMatchObject({
          dataType: 'varchar',
          isNullable: true,
        });
        const plain = await t.ctx.db.introspection.getTables();
        expect(plain.map((table) => table.name)).not.toContain('kysely_migration');
      } finally {
        await sql`DROP SCHEMA ${sql.id(other)} CASCADE`.execute(db);
      }
    },
  );

  it('runs migrations idempotently and reads times back as numbers', async () => {
    await t.ctx.migrate();
    await t.ctx.db
      .insertInto('users')
      .values(row('a1', { created_at: 1_736_942_400_123 }))
      .execute();
    const user = await t.ctx.db
      .selectFrom('users')
      .select(['created_at', 'notifications'])
      .executeTakeFirstOrThrow();
    expect(user.created_at).toBe(1_736_942_400_123);
    expect(user.notifications).toBe(1);
  });

  it.each([
    ['email', { email: 'a1@example.com' }],
    ['phone', { phone: '+8613800138000' }],
    ['teltlk_id_lower', { teltlk_id_lower: 'ta1' }],
    ['invite_code', { invite_code: 'INVA1' }],
  ] as const)('names the column of a unique violation: %s', async (column, clash) => {
    await t.ctx.db
      .insertInto('users')
      .values(row('a1', { phone: '+8613800138000' }))
      .execute();
    const error = await t.ctx.db
      .insertInto('users')
      .values(row('b2', clash))
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(uniqueViolationColumn(error)).toBe(column);
  });

  it('does not mistake other errors for unique violations', async () => {
    const error = await t.ctx.db
      .insertInto('users')
      .values(row('c3', { invited_by: 'nobody' }))
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).not.toBeNull();
    expect(uniqueViolationColumn(error)).toBeNull();
    expect(uniqueViolationColumn(new Error('UNIQUE constraint failed: users.email'))).toBeNull();
  });

  it('turns two registrations of one address at once into one account and ACCOUNT_REGISTERED', async () => {
    const email = uniqueEmail();
    const tickets: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'email', destination: email },
      });
      const code = t.codeFor(email, 'register');
      const verified = await t.call('POST', '/api/v1/auth/codes/verify', {
        body: { purpose: 'register', channel: 'email', destination: email, code },
      });
      tickets.push(verified.json<VerifyCodeResult>().ticket);
      t.clock.advance(CODE_RESEND_SECONDS * SECOND);
    }
    const responses = await Promise.all(
      tickets.map((ticket) =>
        t.call('POST', '/api/v1/auth/register', {
          body: {
            ticket,
            nickname: 'Racer',
            password: PASSWORD,
            country: 'CN',
            motherTongue: 'zh',
          },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(
      responses.find((r) => r.statusCode === 409)?.json<{ error: { code: string } }>().error.code,
    ).toBe('ACCOUNT_REGISTERED');
    const users = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(users).toHaveLength(1);
  });

  it('gives a contested Teltlk ID to exactly one of two users asking at once', async () => {
    const [a, b] = [await t.register(), await t.register()];
    const responses = await Promise.all(
      [a, b].map((user) =>
        t.call('PUT', '/api/v1/me/teltlk-id', {
          token: user.token,
          body: { teltlkId: 'Wanted01' },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = responses.find((r) => r.statusCode === 200)?.json<Me>();
    expect(winner?.teltlkId).toBe('Wanted01');
  });
});

describe('the SQLite statement cache', () => {
  it('reuses a compiled statement per SQL text and drops the least recently used', () => {
    const cache = new StatementCache(new SQLite(':memory:'), 2);
    try {
      const one = cache.prepare('select 1 as v');
      expect(cache.prepare('select 1 as v')).toBe(one);
      const two = cache.prepare('select 2 as v');
      // Using "select 1" again leaves "select 2" the least recently used: it goes first.
      expect(cache.prepare('select 1 as v')).toBe(one);
      cache.prepare('select 3 as v');
      expect(cache.size).toBe(2);
      expect(cache.prepare('select 1 as v')).toBe(one);
      expect(cache.prepare('select 2 as v')).not.toBe(two);
      expect(one.all([])).toEqual([{ v: 1 }]);
    } finally {
      cache.close();
    }
  });
});

describe('SQLite checkpoint thread', () => {
  it('has ended, with its connection, once the database is closed', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'teltlk-checkpoint-'));
    const handle = openDatabase({ databaseUrl: null, dataDir });
    await migrateToLatest(handle.db, handle.dialect);
    // The thread starts after the first interval.
    await expect.poll(checkpointThreadCount).toBeGreaterThan(0);
    await handle.close();
    expect(checkpointThreadCount()).toBe(0);
    // Nothing holds or recreates the files: the folder can go at once.
    await rm(dataDir, { recursive: true });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('migrations on a shared PostgreSQL database', () => {
  it('migrate a schema while another schema of the same database is already migrated', async () => {
    const first = await createTestApp({ dialect: 'postgres' });
    try {
      // The second finds the first's migration tables in the other schema, and must not
      // take them for its own.
      const second = await createTestApp({ dialect: 'postgres' });
      await second.close();
    } finally {
      await first.close();
    }
  });
});
