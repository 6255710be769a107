import { singleConversationId, type Message } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { SYNC_SAFETY_MS } from './service.js';
import { chatApi } from '../../test/messages-api.js';

describe.each(dialects)('read marks, burns and sync on $dialect', ({ dialect }) => {
  let t: TestApp;

  const { befriend, sent, pull, sync, conversation, events, pair } = chatApi(() => t);

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it('moves read marks forward only, and the other person sees them', async () => {
    const [a, b, id] = await pair();
    for (const text of ['1', '2', '3']) await sent(a, id, text);
    const read = (user: RegisteredUser, seq: unknown) =>
      t.call('POST', `/api/v1/conversations/${id}/read`, { token: user.token, body: { seq } });
    expect((await read(b, 2)).statusCode).toBe(204);
    expect(await conversation(b, id)).toMatchObject({ readSeq: 2, maxSeq: 3 });
    expect(await conversation(a, id)).toMatchObject({ peerReadSeq: 2, readSeq: 3 });
    expect((await read(b, 1)).statusCode).toBe(204);
    expect((await conversation(b, id)).readSeq).toBe(2);
    await read(b, 1000);
    expect((await conversation(b, id)).readSeq).toBe(3);
    expect((await conversation(a, id)).peerReadSeq).toBe(3);
    expectError(await read(b, -1), 'VALIDATION_FAILED');
    expectError(await read(b, 'x'), 'VALIDATION_FAILED');
    const readEvents = (await events(b)).events.filter((e) => e.data.type === 'conversation');
    expect(
      readEvents.map((e) => e.data.type === 'conversation' && e.data.conversation.readSeq),
    ).toEqual([2, 3]);
  });

  it('burns messages after reading, for both, and housekeeping deletes them', async () => {
    const [a, b, id] = await pair();
    await sent(a, id, 'before burning');
    const burn = await t.call('PUT', `/api/v1/conversations/${id}/burn`, {
      token: a.token,
      body: { seconds: 10 },
    });
    expect(burn.statusCode, burn.body).toBe(200);
    expect(burn.json<Message>()).toMatchObject({ seq: 2, content: { kind: 'burn', seconds: 10 } });
    expect((await conversation(b, id)).burnSeconds).toBe(10);
    const secret = await sent(a, id, 'secret');
    expect(secret.burnAt).toBeNull();
    // Unread, it does not burn however long it waits.
    t.clock.advance(60_000);
    expect((await pull(b, id)).messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    await t.call('POST', `/api/v1/conversations/${id}/read`, { token: b.token, body: { seq: 3 } });
    const readAt = t.clock.now();
    const page = await pull(a, id);
    expect(page.messages.map((m) => [m.seq, m.burnAt])).toEqual([
      [1, null],
      [2, null],
      [3, readAt + 10_000],
    ]);
    t.clock.advance(10_000);
    for (const user of [a, b]) {
      expect((await pull(user, id)).messages.map((m) => m.seq)).toEqual([1, 2]);
      expect((await conversation(user, id)).lastMessage?.seq).toBe(2);
    }
    expect(await t.ctx.services.messages.purgeBurnt()).toBe(1);
    expect(await t.ctx.services.messages.purgeBurnt()).toBe(0);
    expectError(
      await t.call('PUT', `/api/v1/conversations/${id}/burn`, {
        token: a.token,
        body: { seconds: 7 },
      }),
      'VALIDATION_FAILED',
    );
    const off = await t.call('PUT', `/api/v1/conversations/${id}/burn`, {
      token: b.token,
      body: { seconds: 0 },
    });
    expect(off.json<Message>().content).toEqual({ kind: 'burn', seconds: 0 });
    await sent(a, id, 'plain again');
    await t.call('POST', `/api/v1/conversations/${id}/read`, { token: b.token, body: { seq: 5 } });
    expect((await pull(b, id, '?after=4')).messages).toMatchObject([{ seq: 5, burnAt: null }]);
  });

  it('syncs changed conversations in stable pages with a safe syncedAt', async () => {
    const me = await t.register();
    const friends = [await t.register(), await t.register(), await t.register()];
    for (const friend of friends) {
      await befriend(me, friend);
      await sent(
        friend,
        singleConversationId(me.user.id, friend.user.id),
        `hi from ${friend.user.id}`,
      );
    }
    const all = await sync(me);
    expect(all.conversations).toHaveLength(3);
    expect(all.nextCursor).toBeNull();
    expect(all.syncedAt).toBe(t.clock.now() - SYNC_SAFETY_MS);
    for (const c of all.conversations) {
      expect(c.peer?.id).toBe(c.lastMessage?.senderId);
      expect(c).toMatchObject({ kind: 'single', maxSeq: 1, readSeq: 0, minSeq: 0, hidden: false });
    }

    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await sync(me, query);
      expect(page.syncedAt).toBe(all.syncedAt);
      ids.push(...page.conversations.map((c) => c.id));
      cursor = page.nextCursor;
      pages += 1;
      // A change during paging is seen by the next sync, not lost.
      if (pages === 1) t.clock.advance(1);
    } while (cursor);
    expect(ids).toEqual(all.conversations.map((c) => c.id).sort());

    t.clock.advance(SYNC_SAFETY_MS * 2);
    const since = (await sync(me)).syncedAt;
    expect((await sync(me, `?since=${since}`)).conversations).toEqual([]);
    const changed = friends[1]!;
    await sent(changed, singleConversationId(me.user.id, changed.user.id), 'news');
    const delta = await sync(me, `?since=${since}`);
    expect(delta.conversations.map((c) => [c.peer?.id, c.maxSeq])).toEqual([[changed.user.id, 2]]);
    expectError(
      await t.call('GET', '/api/v1/sync/conversations?cursor=garbage', { token: me.token }),
      'VALIDATION_FAILED',
    );
    expectError(
      await t.call('GET', '/api/v1/sync/conversations?limit=1001', { token: me.token }),
      'VALIDATION_FAILED',
    );
  });

  it('moves the sender’s read mark to their own message, and starts the burn of what they read', async () => {
    const [a, b, id] = await pair();
    await sent(a, id, 'one');
    await sent(a, id, 'two');
    expect(await conversation(a, id)).toMatchObject({ maxSeq: 2, readSeq: 2 });
    expect(await conversation(b, id)).toMatchObject({ maxSeq: 2, readSeq: 0, peerReadSeq: 2 });
    await t.call('PUT', `/api/v1/conversations/${id}/burn`, {
      token: a.token,
      body: { seconds: 10 },
    });
    const secret = await sent(a, id, 'secret');
    // Bob replies without a read mark: he has read what came before his reply.
    const reply = await sent(b, id, 'reply');
    expect(await conversation(b, id)).toMatchObject({ readSeq: reply.seq });
    expect(await conversation(a, id)).toMatchObject({
      peerReadSeq: reply.seq,
      readSeq: secret.seq,
    });
    const stored = (await pull(a, id)).messages.find((m) => m.seq === secret.seq);
    expect(stored?.burnAt).toBe(t.clock.now() + 10_000);
  });

  it('moves each sender’s own read mark when sends of several chats commit together', async () => {
    const [a, b, ab] = await pair();
    const [c, d, cd] = await pair();
    await sent(b, ab, 'first');
    await sent(d, cd, 'first');
    const [one, two, three] = await Promise.all([
      sent(a, ab, 'one'),
      sent(c, cd, 'two'),
      sent(d, cd, 'three'),
    ]);
    expect(await conversation(a, ab)).toMatchObject({ readSeq: one.seq });
    expect(await conversation(b, ab)).toMatchObject({ readSeq: 1, peerReadSeq: one.seq });
    expect(await conversation(c, cd)).toMatchObject({ readSeq: two.seq });
    expect(await conversation(d, cd)).toMatchObject({
      readSeq: three.seq,
      peerReadSeq: two.seq,
    });
  });
});
