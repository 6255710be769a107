import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, expectError, type TestApp } from '@teltlk/server/testing';
import { newId } from '@teltlk/server/tools';
import { runSeed } from './main.js';

describe.each(dialects)('seed populate-group on $dialect', ({ dialect }) => {
  let t: TestApp;
  let groupId: string;
  const lines: string[] = [];
  const errors: string[] = [];
  const out = {
    log: (line: string) => lines.push(line),
    error: (line: string) => errors.push(line),
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    // A group as the groups module stores it: the group row, its conversation, its owner.
    const owner = await t.register();
    groupId = newId();
    const now = t.clock.now();
    await t.ctx.db
      .insertInto('groups')
      .values({
        id: groupId,
        group_no: '12345678',
        name: 'Big group',
        avatar_path: null,
        notice: '',
        notice_at: null,
        owner_id: owner.user.id,
        member_count: 1,
        verification: 'open',
        private_chat: 1,
        allowed_kinds: '["text"]',
        all_muted: 0,
        created_at: now,
        updated_at: now,
        dismissed_at: null,
      })
      .execute();
    await t.ctx.db
      .insertInto('conversations')
      .values({ id: `sg_${groupId}`, kind: 'group', max_seq: 7, created_at: now, updated_at: now })
      .execute();
    await t.ctx.db
      .insertInto('conversation_members')
      .values({
        conversation_id: `sg_${groupId}`,
        user_id: owner.user.id,
        joined_at: now,
        updated_at: now,
        role: 'owner',
        group_nickname: null,
        group_remark: null,
        muted_until: null,
      })
      .execute();
  });
  afterAll(() => t.close());

  // runSeed closes the context it opened; the test app closes its own at the end.
  const open = (production = false) =>
    Promise.resolve({
      ...t.ctx,
      config: { ...t.ctx.config, production },
      close: () => Promise.resolve(),
    });
  const run = (argv: string[], production = false) => {
    lines.length = 0;
    errors.length = 0;
    return runSeed(argv, () => open(production), out);
  };
  const counts = async () => {
    const group = await t.ctx.db
      .selectFrom('groups')
      .select('member_count')
      .where('id', '=', groupId)
      .executeTakeFirstOrThrow();
    const members = await t.ctx.db
      .selectFrom('conversation_members')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('conversation_id', '=', `sg_${groupId}`)
      .executeTakeFirstOrThrow();
    const users = await t.ctx.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return { memberCount: group.member_count, members: Number(members.n), users: Number(users.n) };
  };

  it('adds synthetic members in batches and counts them', async () => {
    // More than one transaction (5,000 accounts) and more than one statement per table.
    const added = 5_003;
    expect(await run(['populate-group', '--group', groupId, '--members', String(added)])).toBe(0);
    expect(errors).toEqual([]);
    expect(lines.join('\n')).toContain(`added ${added} synthetic members to group ${groupId}`);
    expect(await counts()).toEqual({
      memberCount: 1 + added,
      members: 1 + added,
      users: 1 + added,
    });

    const sample = await t.ctx.db
      .selectFrom('conversation_members')
      .innerJoin('users', 'users.id', 'conversation_members.user_id')
      .select([
        'users.teltlk_id',
        'users.email',
        'users.phone',
        'users.invite_code',
        'conversation_members.role',
        'conversation_members.min_seq',
        'conversation_members.read_seq',
      ])
      .where('conversation_members.conversation_id', '=', `sg_${groupId}`)
      .where('conversation_members.role', '=', 'member')
      .execute();
    expect(sample).toHaveLength(added);
    expect(new Set(sample.map((row) => row.invite_code)).size).toBe(added);
    expect(sample.every((row) => row.email === null && row.phone === null)).toBe(true);
    // They join at the group's newest seq, as anyone joining sees history from there.
    expect(sample.every((row) => Number(row.min_seq) === 7 && Number(row.read_seq) === 7)).toBe(
      true,
    );
    // Nobody can sign in as a synthetic member.
    expectError(
      await t.call('POST', '/api/v1/auth/login', {
        body: { account: sample[0]!.teltlk_id, password: 'Passw0rd!' },
      }),
      'PASSWORD_INCORRECT',
    );
  });

  it('gives the first k synthetic members a session each, whose tokens open the app', async () => {
    const file = join(t.dataDir, 'online-tokens.json');
    const argv = ['populate-group', '--group', groupId, '--members', '6'];
    expect(await run([...argv, '--online', '4', '--out', file])).toBe(0);
    expect(lines.join('\n')).toContain('4 have a session');
    const tokens = JSON.parse(await readFile(file, 'utf8')) as string[];
    expect(tokens).toHaveLength(4);
    expect(new Set(tokens).size).toBe(4);
    const ids = new Set<string>();
    for (const token of tokens) {
      const me = await t.call('GET', '/api/v1/me', { token });
      expect(me.statusCode).toBe(200);
      ids.add(me.json<{ id: string }>().id);
      // Each one a member of the group: it reads the group.
      expect((await t.call('GET', `/api/v1/groups/${groupId}`, { token })).statusCode).toBe(200);
    }
    expect(ids.size).toBe(4);
    expect(await run([...argv, '--online', '7', '--out', file])).toBe(2);
    expect(errors.join('\n')).toContain('--online must be a whole number from 1 to 6');
    expect(await run([...argv, '--online', '2'])).toBe(2);
    expect(errors.join('\n')).toContain('--online needs --out');
  });

  it('makes synthetic accounts with a session each (sessions), one user per token', async () => {
    const file = join(t.dataDir, 'session-tokens.json');
    expect(await run(['sessions', '--users', '3', '--out', file])).toBe(0);
    const tokens = JSON.parse(await readFile(file, 'utf8')) as string[];
    const ids = new Set<string>();
    for (const token of tokens) {
      const me = await t.call('GET', '/api/v1/me', { token });
      expect(me.statusCode).toBe(200);
      ids.add(me.json<{ id: string }>().id);
    }
    expect(ids.size).toBe(3);
    expect(await run(['sessions', '--users', '3', '--out', file], true)).toBe(2);
    expect(errors.join('\n')).toContain('refused when NODE_ENV is production');
    expect(await run(['sessions', '--users', '0', '--out', file])).toBe(2);
  });

  it('refuses in production, and bad arguments, without writing anything', async () => {
    const before = await counts();
    expect(await run(['populate-group', '--group', groupId, '--members', '10'], true)).toBe(2);
    expect(errors.join('\n')).toContain('refused when NODE_ENV is production');

    expect(await run(['populate-group', '--group', 'nope', '--members', '10'])).toBe(2);
    expect(errors.join('\n')).toContain('no group nope');
    expect(await run(['populate-group', '--group', groupId, '--members', '1.5'])).toBe(2);
    expect(errors.join('\n')).toContain('--members must be a whole number');
    expect(await run(['populate-group', '--group', groupId, '--members', '100000'])).toBe(2);
    expect(errors.join('\n')).toContain('would pass 100000');
    expect(await counts()).toEqual(before);
  });

  it('measures persisted sends against single-row inserts, storing every message', async () => {
    expect(await run(['populate-group', '--group', groupId, '--members', '4'])).toBe(0);
    const maxSeq = async () =>
      Number(
        (
          await t.ctx.db
            .selectFrom('conversations')
            .select('max_seq')
            .where('id', '=', `sg_${groupId}`)
            .executeTakeFirstOrThrow()
        ).max_seq,
      );
    const before = await maxSeq();
    const argv = ['persistence', '--group', groupId, '--messages', '24', '--senders', '4'];
    expect(await run([...argv, '--rounds', '2']), errors.join('\n')).toBe(0);
    const figures = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(figures).toMatchObject({ dialect, senders: 4, messages: 24, rounds: 2 });
    expect(figures.rawPerS).toBeGreaterThan(0);
    expect(figures.persistedPerS).toBeGreaterThan(0);
    expect(figures.ratio).toBeCloseTo(Number(figures.persistedPerS) / Number(figures.rawPerS));
    // Every send of both rounds and of the warm-up (8 per sender) is a stored message; the
    // scratch conversation of the raw inserts is gone, with its messages.
    const stored = before + 2 * 24 + 4 * 8;
    expect(await maxSeq()).toBe(stored);
    await expect(
      t.ctx.db
        .selectFrom('bench_inserts' as 'users')
        .selectAll()
        .execute(),
    ).rejects.toThrow();

    expect(await run(argv, true)).toBe(2);
    expect(errors.join('\n')).toContain('refused when NODE_ENV is production');
    expect(await run([...argv.slice(0, 5), '--senders', '10000'])).toBe(2);
    expect(errors.join('\n')).toContain('members who may send, not 10000');
    expect(await maxSeq()).toBe(stored);
  });
});

describe.each(dialects)('seed chats on $dialect', ({ dialect }) => {
  let t: TestApp;
  const lines: string[] = [];
  const errors: string[] = [];
  const out = {
    log: (line: string) => lines.push(line),
    error: (line: string) => errors.push(line),
  };
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(() => t.close());
  const run = (argv: string[], production = false) => {
    lines.length = 0;
    errors.length = 0;
    return runSeed(
      argv,
      () =>
        Promise.resolve({
          ...t.ctx,
          config: { ...t.ctx.config, production },
          close: () => Promise.resolve(),
        }),
      out,
    );
  };

  it('gives a user chats the app lists in full, and reads the same list raw', async () => {
    const user = await t.register();
    const argv = ['populate-chats', '--user', user.user.id, '--chats', '30'];
    expect(await run([...argv, '--messages', '3']), errors.join('\n')).toBe(0);
    const response = await t.call('GET', '/api/v1/sync/conversations?since=0&limit=500', {
      token: user.token,
    });
    const { conversations } = response.json<{
      conversations: { kind: string; peer: unknown; lastMessage: { seq: number } | null }[];
    }>();
    expect(conversations).toHaveLength(30);
    for (const conversation of conversations) {
      expect(conversation.kind).toBe('single');
      expect(conversation.peer).not.toBeNull();
      expect(conversation.lastMessage?.seq).toBe(3);
    }
    expect(await run(['read-chats', '--user', user.user.id, '--rounds', '2'])).toBe(0);
    expect(JSON.parse(lines[0]!)).toMatchObject({ rows: 30 });

    expect(await run(argv, true)).toBe(2);
    expect(errors.join('\n')).toContain('refused when NODE_ENV is production');
    expect(await run(['populate-chats', '--user', 'nobody', '--chats', '3'])).toBe(2);
    expect(errors.join('\n')).toContain('no user nobody');
    expect(await run([...argv.slice(0, 4), '--chats', '0'])).toBe(2);
    expect(await run(['read-chats', '--user', user.user.id], true)).toBe(2);
  });
});
