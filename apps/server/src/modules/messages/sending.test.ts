import { singleConversationId } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { runOperator } from '../../operator.js';
import { MessageRepo } from './repo.js';
import { chatApi, clientId } from '../../test/messages-api.js';

describe.each(dialects)('sending on $dialect', ({ dialect }) => {
  let t: TestApp;
  let ada: RegisteredUser;
  /** Not a member of Ada and Bob's conversation, and nobody's friend. */
  let eve: RegisteredUser;
  let adaBob: string;

  const { auth, send, sent, pull, sync, conversation, pair } = chatApi(() => t);

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [ada, , adaBob] = await pair();
    eve = await t.register();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('group commit', () => {
    const direct = (from: RegisteredUser, conversationId: string, text: string, id = clientId()) =>
      t.ctx.services.messages.send(from.user.id, {
        conversationId,
        clientMsgId: id,
        content: { kind: 'text', text },
      });

    it('writes sends of several senders at once gap-free, each conversation in arrival order', async () => {
      const pairs = [await pair(), await pair(), await pair()];
      const calls: { from: RegisteredUser; id: string; text: string }[] = [];
      for (let round = 0; round < 6; round += 1) {
        for (const [a, b, id] of pairs) {
          calls.push({ from: round % 2 ? b : a, id, text: `r${round}` });
          calls.push({ from: a, id, text: `r${round}+` });
        }
      }
      // All submitted in one turn of the event loop: they share transactions.
      const acked = await Promise.all(calls.map(({ from, id, text }) => direct(from, id, text)));
      for (const [a, , id] of pairs) {
        const mine = acked.filter((m) => m.conversationId === id);
        // Arrival order is seq order, gap-free.
        expect(mine.map((m) => m.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
        const stored = (await pull(a, id)).messages;
        expect(stored).toEqual(mine);
      }
    });

    it('fails only the refused messages of a batch', async () => {
      const [a, b, id] = await pair();
      const [c, d, blockedId] = await pair();
      await t.ctx.services.contacts.block(auth(d), c.user.id);
      const stranger = singleConversationId(a.user.id, eve.user.id);
      const reused = clientId();
      const results = await Promise.allSettled([
        direct(a, id, 'one', reused),
        direct(a, stranger, 'to a stranger'),
        direct(b, id, 'two'),
        direct(c, blockedId, 'blocked'),
        direct(eve, id, 'not a member'),
        direct(a, stranger, 'reused id elsewhere', reused),
        direct(a, id, 'one', reused),
        direct(b, id, 'three'),
      ]);
      const codes = results.map((r) =>
        r.status === 'fulfilled' ? r.value.seq : (r.reason as { code: string }).code,
      );
      expect(codes).toEqual([
        1,
        'NOT_FRIENDS',
        2,
        'MESSAGE_REFUSED',
        'CONVERSATION_NOT_FOUND',
        'VALIDATION_FAILED',
        1,
        3,
      ]);
      expect((await pull(b, id)).messages.map((m) => m.content)).toEqual([
        { kind: 'text', text: 'one' },
        { kind: 'text', text: 'two' },
        { kind: 'text', text: 'three' },
      ]);
    });

    it('acks nothing that was not committed, and retries store each message once', async () => {
      const [a, b, id] = await pair();
      await sent(a, id, 'before');
      // The process "dies" after taking seqs and before committing: every write fails.
      const insertMessages = Object.getOwnPropertyDescriptor(
        MessageRepo.prototype,
        'insertMessages',
      )?.value as MessageRepo['insertMessages'];
      const insert = vi
        .spyOn(MessageRepo.prototype, 'insertMessages')
        .mockRejectedValue(new Error('crash'));
      const ids = [clientId(), clientId(), clientId()];
      const send3 = () =>
        Promise.allSettled([
          direct(a, id, 'x', ids[0]),
          direct(b, id, 'y', ids[1]),
          direct(a, id, 'z', ids[2]),
        ]);
      const lost = await send3();
      expect(lost.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect((await conversation(a, id)).maxSeq).toBe(1);
      expect((await pull(a, id)).messages.map((m) => m.seq)).toEqual([1]);

      // One message whose write fails fails its batch; the others are written alone, acked.
      insert.mockImplementation(function (this: MessageRepo, rows) {
        if (rows.some((row) => row.client_msg_id === ids[1])) {
          return Promise.reject(new Error('crash'));
        }
        return insertMessages.call(this, rows);
      });
      const partly = await send3();
      expect(partly.map((r) => (r.status === 'fulfilled' ? r.value.seq : 'lost'))).toEqual([
        2,
        'lost',
        3,
      ]);
      insert.mockRestore();
      const retried = await send3();
      const acked = retried.map((r) => (r.status === 'fulfilled' ? r.value : null));
      expect(acked.map((m) => m?.seq)).toEqual([2, 4, 3]);
      // The client retries once more (it missed the acks): nothing is stored twice.
      const again = await Promise.all([
        direct(a, id, 'x', ids[0]),
        direct(b, id, 'y', ids[1]),
        direct(a, id, 'z', ids[2]),
      ]);
      expect(again).toEqual(acked);
      const history = (await pull(b, id)).messages;
      expect(history.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
      expect(history.slice(1)).toEqual([again[0], again[2], again[1]]);
    });
  });

  describe('authorization', () => {
    it('keeps everyone out of conversations they are not in', async () => {
      await sent(ada, adaBob, 'private');
      const as = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) =>
        t.call(method, url, { token: eve.token, body });
      const base = `/api/v1/conversations/${adaBob}`;
      expectError(await as('GET', `${base}/messages`), 'CONVERSATION_NOT_FOUND');
      expectError(await as('GET', `${base}/messages?after=0`), 'CONVERSATION_NOT_FOUND');
      expectError(await send(eve, adaBob, 'let me in'), 'CONVERSATION_NOT_FOUND');
      expectError(await as('POST', `${base}/messages/1/revoke`), 'CONVERSATION_NOT_FOUND');
      expectError(await as('POST', `${base}/messages/1/hide`), 'CONVERSATION_NOT_FOUND');
      expectError(await as('POST', `${base}/read`, { seq: 1 }), 'CONVERSATION_NOT_FOUND');
      expectError(await as('PATCH', base, { pinned: true }), 'CONVERSATION_NOT_FOUND');
      expectError(await as('POST', `${base}/clear`), 'CONVERSATION_NOT_FOUND');
      expectError(await as('PUT', `${base}/burn`, { seconds: 10 }), 'CONVERSATION_NOT_FOUND');
      // Conversations that do not exist look the same.
      expectError(
        await as('GET', '/api/v1/conversations/sg_nosuchgroup/messages'),
        'CONVERSATION_NOT_FOUND',
      );
      expectError(await send(eve, 'sg_nosuchgroup', 'hello'), 'CONVERSATION_NOT_FOUND');
      expect((await sync(eve)).conversations).toEqual([]);
      // Nothing leaked into Ada and Bob's conversation.
      expect((await pull(ada, adaBob)).messages.every((m) => m.senderId !== eve.user.id)).toBe(
        true,
      );
      // Nor can one write to oneself.
      expectError(
        await send(eve, singleConversationId(eve.user.id, eve.user.id), 'me'),
        'CONVERSATION_NOT_FOUND',
      );
    });

    it('refuses strangers, unknown users and blocked senders', async () => {
      const stranger = await t.register();
      expectError(
        await send(stranger, singleConversationId(stranger.user.id, ada.user.id), 'hi'),
        'NOT_FRIENDS',
      );
      expectError(
        await send(stranger, singleConversationId(stranger.user.id, 'nosuchuser'), 'hi'),
        'USER_NOT_FOUND',
      );
      expect((await sync(stranger)).conversations).toEqual([]);

      const [a, b, id] = await pair();
      await sent(a, id, 'before the block');
      await t.ctx.services.contacts.block(auth(b), a.user.id);
      // The conversation exists; the block refuses every later message and burn notice.
      expectError(await send(a, id, 'after the block'), 'MESSAGE_REFUSED');
      expectError(
        await t.call('PUT', `/api/v1/conversations/${id}/burn`, {
          token: a.token,
          body: { seconds: 10 },
        }),
        'MESSAGE_REFUSED',
      );
      // The one who blocked may still write.
      await sent(b, id, 'I blocked you');
      await t.ctx.services.contacts.unblock(auth(b), a.user.id);
      await sent(a, id, 'unblocked');
      expect((await pull(b, id)).messages.map((m) => m.content)).toEqual([
        { kind: 'text', text: 'before the block' },
        { kind: 'text', text: 'I blocked you' },
        { kind: 'text', text: 'unblocked' },
      ]);
      // After the friendship ends, the chat needs a friend request again.
      await t.ctx.services.contacts.deleteFriend(auth(a), b.user.id);
      expectError(await send(b, id, 'still friends?'), 'NOT_FRIENDS');
    });

    it('takes from clients only what people write: call records and notices are the server’s', async () => {
      const [a, b, id] = await pair();
      await sent(a, id, 'before');
      const written = [
        {
          kind: 'call',
          callId: 'forged-call',
          media: 'video',
          outcome: 'completed',
          durationSeconds: 3600,
          group: false,
        },
        { kind: 'system', event: 'created', actorId: a.user.id, targetIds: [] },
        { kind: 'burn', seconds: 10 },
        { kind: 'revoked' },
      ];
      for (const content of written) {
        const refused = await t.call('POST', '/api/v1/messages', {
          token: a.token,
          body: { conversationId: id, clientMsgId: clientId(), content },
        });
        expect(expectError(refused, 'VALIDATION_FAILED').issues, content.kind).toEqual([
          { path: 'content.kind', rule: 'content' },
        ]);
      }
      expect((await pull(b, id)).messages.map((m) => m.content)).toEqual([
        { kind: 'text', text: 'before' },
      ]);
    });

    it('needs a session', async () => {
      expectError(
        await t.call('GET', `/api/v1/conversations/${adaBob}/messages`),
        'UNAUTHENTICATED',
      );
      expectError(await t.call('GET', '/api/v1/sync/conversations'), 'UNAUTHENTICATED');
    });
  });

  it('posts as an official account to everyone who has not blocked it', async () => {
    const { card } = await t.ctx.services.contacts.createOfficial({
      teltlkId: `News${dialect}01`,
      nickname: 'News',
    });
    const reader = await t.register();
    const refuser = await t.register();
    await t.ctx.services.contacts.block(auth(refuser), card.id);
    const result = await t.ctx.services.messages.postAsOfficial(
      card.id,
      [reader.user.id, refuser.user.id],
      'Welcome',
    );
    expect(result).toEqual({ sent: 1, refused: 1 });
    const id = singleConversationId(card.id, reader.user.id);
    expect(await conversation(reader, id)).toMatchObject({
      peer: { id: card.id, official: true },
      lastMessage: { content: { kind: 'text', text: 'Welcome' } },
    });
    // Users reply to official accounts without a friendship.
    expect((await send(reader, id, 'Thanks')).statusCode).toBe(200);
    expect((await sync(refuser)).conversations).toEqual([]);
  });

  it('posts from the operator command line: official:post', async () => {
    const teltlkId = `Ops${dialect}Desk`;
    const { card } = await t.ctx.services.contacts.createOfficial({ teltlkId, nickname: 'Ops' });
    const reader = await t.register();
    const lines: string[] = [];
    const out = {
      log: (line: string) => lines.push(line),
      error: (line: string) => lines.push(line),
    };
    // The command closes what it opens; the test app stays open.
    const open = () => Promise.resolve({ ...t.ctx, close: () => Promise.resolve() });
    const run = (...args: string[]) => runOperator(['official:post', ...args], open, out);

    expect(
      await run('--from', teltlkId, '--to', reader.user.teltlkId, '--text', 'Tonight: upgrade'),
    ).toBe(0);
    expect(lines.splice(0)).toEqual(['sent 1, refused 0']);
    const id = singleConversationId(card.id, reader.user.id);
    expect((await pull(reader, id)).messages.map((m) => m.content)).toEqual([
      { kind: 'text', text: 'Tonight: upgrade' },
    ]);

    expect(await run('--from', teltlkId, '--to', 'all', '--text', 'Hello everyone')).toBe(0);
    const regular = await t.ctx.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('official', '=', 0)
      .executeTakeFirstOrThrow();
    const [summary] = lines.splice(0);
    const [, sentCount, refusedCount] = /^sent (\d+), refused (\d+)$/.exec(summary ?? '') ?? [];
    expect(Number(sentCount) + Number(refusedCount)).toBe(Number(regular.n));
    expect((await pull(reader, id)).messages).toHaveLength(2);

    expect(await run('--from', teltlkId, '--to', 'all', '--text', '   ')).toBe(2);
    expect(lines.splice(0).join('\n')).toContain('--text is required');
    expect(await run('--from', teltlkId, '--to', 'all', '--text', 'x'.repeat(5001))).toBe(2);
    expect(lines.splice(0).join('\n')).toContain('at most 5000 characters');
    expect(await run('--from', reader.user.teltlkId, '--to', 'all', '--text', 'x')).toBe(2);
    expect(lines.splice(0).join('\n')).toContain('is not an official account');
  });
});
