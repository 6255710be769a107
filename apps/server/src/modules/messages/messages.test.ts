import {
  REVOKE_WINDOW_SECONDS,
  singleConversationId,
  type Conversation,
  type ConversationSyncResult,
  type EventPageResult,
  type Message,
  type MessagePageResult,
} from '@teltlk/protocol';
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
import { SYNC_SAFETY_MS } from './service.js';

let counter = 0;
const clientId = () => `msg-${Date.now().toString(36)}-${(counter += 1)}`;

describe.each(dialects)('messages on $dialect', ({ dialect }) => {
  let t: TestApp;
  let ada: RegisteredUser;
  let bob: RegisteredUser;
  /** Not a member of Ada and Bob's conversation, and nobody's friend. */
  let eve: RegisteredUser;
  let adaBob: string;

  const auth = (user: RegisteredUser) => ({ userId: user.user.id, sessionId: 'test' });

  async function befriend(a: RegisteredUser, b: RegisteredUser): Promise<void> {
    const { contacts } = t.ctx.services;
    const request = await contacts.sendRequest(auth(a), { userId: b.user.id });
    await contacts.acceptRequest(auth(b), request.id);
  }

  async function send(from: RegisteredUser, conversationId: string, text: string, id = clientId()) {
    return t.call('POST', '/api/v1/messages', {
      token: from.token,
      body: { conversationId, clientMsgId: id, content: { kind: 'text', text } },
    });
  }

  async function sent(
    from: RegisteredUser,
    conversationId: string,
    text: string,
  ): Promise<Message> {
    const response = await send(from, conversationId, text);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Message>();
  }

  async function pull(
    user: RegisteredUser,
    conversationId: string,
    query = '',
  ): Promise<MessagePageResult> {
    const response = await t.call(
      'GET',
      `/api/v1/conversations/${conversationId}/messages${query}`,
      {
        token: user.token,
      },
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MessagePageResult>();
  }

  async function sync(user: RegisteredUser, query = ''): Promise<ConversationSyncResult> {
    const response = await t.call('GET', `/api/v1/sync/conversations${query}`, {
      token: user.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ConversationSyncResult>();
  }

  async function conversation(user: RegisteredUser, id: string): Promise<Conversation> {
    const found = (await sync(user)).conversations.find((c) => c.id === id);
    if (!found) throw new Error(`no conversation ${id}`);
    return found;
  }

  async function events(user: RegisteredUser): Promise<EventPageResult> {
    return (
      await t.call('GET', '/api/v1/sync/events?after=0', { token: user.token })
    ).json<EventPageResult>();
  }

  /** Two fresh friends and their conversation id. */
  async function pair(): Promise<[RegisteredUser, RegisteredUser, string]> {
    const a = await t.register();
    const b = await t.register();
    await befriend(a, b);
    return [a, b, singleConversationId(a.user.id, b.user.id)];
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    [ada, bob, adaBob] = await pair();
    eve = await t.register();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates the conversation with the first message and numbers messages gap-free', async () => {
    const first = await sent(ada, adaBob, 'Hello Bob');
    expect(first).toMatchObject({
      conversationId: adaBob,
      seq: 1,
      senderId: ada.user.id,
      content: { kind: 'text', text: 'Hello Bob' },
      createdAt: t.clock.now(),
      revokedAt: null,
      burnAt: null,
    });
    const reply = await sent(bob, adaBob, 'Hi Ada');
    expect(reply.seq).toBe(2);
    const quoted = await send(bob, adaBob, 'Yes', clientId());
    expect(quoted.json<Message>().seq).toBe(3);
    const quote = await t.call('POST', '/api/v1/messages', {
      token: ada.token,
      body: {
        conversationId: adaBob,
        clientMsgId: clientId(),
        content: {
          kind: 'text',
          text: 'Indeed',
          quote: { seq: 2, senderId: bob.user.id, text: 'Hi Ada' },
          forwarded: true,
        },
      },
    });
    expect(quote.json<Message>().content).toEqual({
      kind: 'text',
      text: 'Indeed',
      quote: { seq: 2, senderId: bob.user.id, text: 'Hi Ada' },
      forwarded: true,
    });
    const page = await pull(bob, adaBob);
    expect(page.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(page.hasMore).toBe(false);
    const view = await conversation(bob, adaBob);
    expect(view).toMatchObject({
      kind: 'single',
      maxSeq: 4,
      // Sending marks what came before as read: Bob last wrote seq 3.
      readSeq: 3,
      peer: { id: ada.user.id },
      lastMessage: { seq: 4 },
    });
  });

  it('returns the stored message for a retried send, also when retries race', async () => {
    const [a, , id] = await pair();
    const key = clientId();
    const first = (await send(a, id, 'once', key)).json<Message>();
    const again = (await send(a, id, 'once', key)).json<Message>();
    expect(again).toEqual(first);
    const raceKey = clientId();
    const raced = await Promise.all([1, 2, 3].map(() => send(a, id, 'raced', raceKey)));
    const bodies = raced.map((r) => {
      expect(r.statusCode, r.body).toBe(200);
      return r.json<Message>();
    });
    expect(new Set(bodies.map((m) => m.id)).size).toBe(1);
    const page = await pull(a, id);
    expect(page.messages.map((m) => m.content)).toEqual([
      { kind: 'text', text: 'once' },
      { kind: 'text', text: 'raced' },
    ]);
    expect(page.messages.map((m) => m.seq)).toEqual([1, 2]);
    // The same client id in another conversation is a client bug, not a replay.
    const [c] = await pair();
    await befriend(a, c);
    const other = await send(a, singleConversationId(a.user.id, c.user.id), 'x', key);
    expect(expectError(other, 'VALIDATION_FAILED').issues).toEqual([
      { path: 'clientMsgId', rule: 'clientMsgId' },
    ]);
  });

  it('refuses blank messages with the spec text', async () => {
    for (const text of ['', '   ', '\n\t ']) {
      const error = expectError(await send(ada, adaBob, text), 'BLANK_MESSAGE');
      expect(error.message).toBe('Cannot send blank message');
    }
    const long = await send(ada, adaBob, 'x'.repeat(5001));
    expect(expectError(long, 'VALIDATION_FAILED').issues).toEqual([
      { path: 'content.text', rule: 'messageLength' },
    ]);
  });

  it('shares a location: stored as sent, not translated, quoted by its name, revocable', async () => {
    const [a, b, id] = await pair();
    const place = { kind: 'location', latitude: 48.8584, longitude: 2.2945, name: 'Tour Eiffel' };
    const sendPlace = (content: unknown, from = a) =>
      t.call('POST', '/api/v1/messages', {
        token: from.token,
        body: { conversationId: id, clientMsgId: clientId(), content },
      });
    const response = await sendPlace({ ...place, name: '  Tour Eiffel ' });
    expect(response.statusCode, response.body).toBe(200);
    const message = response.json<Message>();
    expect(message).toMatchObject({ seq: 1, content: place, lang: null });
    expect((await pull(b, id)).messages.at(-1)).toMatchObject({ content: place, lang: null });

    // Out of range, nameless, or with a line break in the name: refused with the rule.
    const refused = [
      [{ ...place, latitude: 91 }, 'location'],
      [{ ...place, longitude: -180.5 }, 'location'],
      [{ ...place, name: '   ' }, 'placeName'],
      [{ ...place, name: 'x'.repeat(101) }, 'placeName'],
      [{ ...place, name: 'Line\nbreak' }, 'nameCharacters'],
    ] as const;
    for (const [content, rule] of refused) {
      const error = expectError(await sendPlace(content), 'VALIDATION_FAILED');
      expect(error.issues?.map((issue) => issue.rule)).toContain(rule);
    }
    const { latitude: _latitude, ...noLatitude } = place;
    expectError(await sendPlace(noLatitude), 'VALIDATION_FAILED');

    // A reply quotes the place by its name, with its kind for the reader's label.
    const reply = await t.call('POST', '/api/v1/messages', {
      token: b.token,
      body: {
        conversationId: id,
        clientMsgId: clientId(),
        content: { kind: 'text', text: 'On my way', quote: { seq: message.seq } },
      },
    });
    expect(reply.json<Message>().content).toMatchObject({
      quote: { seq: 1, senderId: a.user.id, text: 'Tour Eiffel', kind: 'location' },
    });

    const revoked = await t.call('POST', `/api/v1/conversations/${id}/messages/1/revoke`, {
      token: a.token,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await pull(b, id)).messages[0]?.content).toEqual({ kind: 'revoked' });
  });

  it('shares a contact card written from the account, not from what the sender sent', async () => {
    const [a, b, id] = await pair();
    const card = {
      ...eve.user,
      nickname: 'Not Eve',
      teltlkId: 'Forged01',
      official: true,
    };
    const sendCard = (user: object) =>
      t.call('POST', '/api/v1/messages', {
        token: a.token,
        body: { conversationId: id, clientMsgId: clientId(), content: { kind: 'card', user } },
      });
    const response = await sendCard(card);
    expect(response.statusCode, response.body).toBe(200);
    const stored = response.json<Message>().content;
    expect(stored).toMatchObject({ kind: 'card', user: { id: eve.user.id, official: false } });
    expect(stored).not.toMatchObject({ user: { nickname: 'Not Eve' } });
    expect(stored.kind === 'card' ? stored.user.teltlkId : null).not.toBe('Forged01');
    expect((await pull(b, id)).messages.at(-1)).toMatchObject({ content: stored, lang: null });

    expectError(await sendCard({ ...card, id: 'nobody00000000000000' }), 'USER_NOT_FOUND');
    expectError(await sendCard({ id: eve.user.id }), 'VALIDATION_FAILED');

    const reply = await t.call('POST', '/api/v1/messages', {
      token: b.token,
      body: {
        conversationId: id,
        clientMsgId: clientId(),
        content: { kind: 'text', text: 'Who is this?', quote: { seq: 1 } },
      },
    });
    expect(reply.json<Message>().content).toMatchObject({
      quote: { seq: 1, senderId: a.user.id, kind: 'card' },
    });
  });

  it('pages: newest first page, before, after, hasMore and limits', async () => {
    const [a, b, id] = await pair();
    for (let i = 1; i <= 7; i += 1) await sent(i % 2 ? a : b, id, `m${i}`);
    const seqs = (page: MessagePageResult) => page.messages.map((m) => m.seq);
    const newest = await pull(b, id, '?limit=3');
    expect([seqs(newest), newest.hasMore]).toEqual([[5, 6, 7], true]);
    const older = await pull(b, id, '?before=5&limit=3');
    expect([seqs(older), older.hasMore]).toEqual([[2, 3, 4], true]);
    const oldest = await pull(b, id, '?before=2&limit=3');
    expect([seqs(oldest), oldest.hasMore]).toEqual([[1], false]);
    const after = await pull(b, id, '?after=4&limit=2');
    expect([seqs(after), after.hasMore]).toEqual([[5, 6], true]);
    const tail = await pull(b, id, '?after=6');
    expect([seqs(tail), tail.hasMore]).toEqual([[7], false]);
    expect(await pull(b, id, '?after=7')).toEqual({ messages: [], hasMore: false });
    for (const bad of ['?limit=0', '?limit=201', '?after=-1', '?before=x']) {
      expectError(
        await t.call('GET', `/api/v1/conversations/${id}/messages${bad}`, { token: b.token }),
        'VALIDATION_FAILED',
      );
    }
    expectError(
      await t.call('GET', '/api/v1/conversations/nope/messages', { token: b.token }),
      'VALIDATION_FAILED',
    );
  });

  it('revokes own messages within the window only, with a notice for both', async () => {
    const [a, b, id] = await pair();
    const message = await sent(a, id, 'oops');
    expectError(
      await t.call('POST', `/api/v1/conversations/${id}/messages/${message.seq}/revoke`, {
        token: b.token,
      }),
      'REVOKE_NOT_ALLOWED',
    );
    t.clock.advance(REVOKE_WINDOW_SECONDS * 1000);
    const revoked = await t.call(
      'POST',
      `/api/v1/conversations/${id}/messages/${message.seq}/revoke`,
      {
        token: a.token,
      },
    );
    expect(revoked.statusCode, revoked.body).toBe(200);
    const notice = revoked.json<Message>();
    expect(notice).toMatchObject({
      seq: 2,
      senderId: a.user.id,
      content: { kind: 'revoke', targetSeq: 1 },
    });
    // Revoking again returns the same notice.
    const again = await t.call('POST', `/api/v1/conversations/${id}/messages/1/revoke`, {
      token: a.token,
    });
    expect(again.json<Message>()).toEqual(notice);
    for (const user of [a, b]) {
      const { messages } = await pull(user, id);
      expect(messages.map((m) => [m.seq, m.content])).toEqual([
        [1, { kind: 'revoked' }],
        [2, { kind: 'revoke', targetSeq: 1 }],
      ]);
      expect(messages[0]?.revokedAt).toBe(t.clock.now());
    }
    const late = await sent(a, id, 'too late');
    t.clock.advance(REVOKE_WINDOW_SECONDS * 1000 + 1);
    const expired = expectError(
      await t.call('POST', `/api/v1/conversations/${id}/messages/${late.seq}/revoke`, {
        token: a.token,
      }),
      'REVOKE_EXPIRED',
    );
    expect(expired.params).toEqual({ minutes: REVOKE_WINDOW_SECONDS / 60 });
    expect(expired.message).toBe('Messages can only be revoked within 2 minutes of sending');
    expectError(
      await t.call('POST', `/api/v1/conversations/${id}/messages/2/revoke`, { token: a.token }),
      'REVOKE_NOT_ALLOWED',
    );
    expectError(
      await t.call('POST', `/api/v1/conversations/${id}/messages/99/revoke`, { token: a.token }),
      'MESSAGE_NOT_FOUND',
    );
  });

  it('deletes a message for the caller only, and tells their other devices', async () => {
    const [a, b, id] = await pair();
    await sent(a, id, 'one');
    await sent(a, id, 'two');
    const hidden = await t.call('POST', `/api/v1/conversations/${id}/messages/1/hide`, {
      token: b.token,
    });
    expect(hidden.statusCode, hidden.body).toBe(204);
    expect(
      (await t.call('POST', `/api/v1/conversations/${id}/messages/1/hide`, { token: b.token }))
        .statusCode,
    ).toBe(204);
    expect((await pull(b, id)).messages.map((m) => m.seq)).toEqual([2]);
    expect((await pull(b, id, '?after=0')).messages.map((m) => m.seq)).toEqual([2]);
    expect((await pull(a, id)).messages.map((m) => m.seq)).toEqual([1, 2]);
    const hides = (await events(b)).events.filter((e) => e.data.type === 'messageHidden');
    expect(hides.map((e) => e.data)).toEqual([
      { type: 'messageHidden', conversationId: id, seq: 1 },
    ]);
    expectError(
      await t.call('POST', `/api/v1/conversations/${id}/messages/9/hide`, { token: b.token }),
      'MESSAGE_NOT_FOUND',
    );
    // The last message a member sees leaves out what they deleted.
    await t.call('POST', `/api/v1/conversations/${id}/messages/2/hide`, { token: b.token });
    expect((await conversation(b, id)).lastMessage).toBeNull();
    expect((await conversation(a, id)).lastMessage?.seq).toBe(2);
  });

  it('clears history for the caller only', async () => {
    const [a, b, id] = await pair();
    await sent(a, id, 'one');
    await sent(b, id, 'two');
    const cleared = await t.call('POST', `/api/v1/conversations/${id}/clear`, { token: a.token });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json<Conversation>()).toMatchObject({
      minSeq: 2,
      readSeq: 2,
      maxSeq: 2,
      lastMessage: null,
    });
    expect((await pull(a, id)).messages).toEqual([]);
    expect((await pull(b, id)).messages).toHaveLength(2);
    await sent(b, id, 'three');
    expect((await pull(a, id)).messages.map((m) => m.seq)).toEqual([3]);
    expect((await pull(a, id, '?after=0')).messages.map((m) => m.seq)).toEqual([3]);
    const last = (await events(a)).events.at(-1)?.data;
    expect(last).toMatchObject({ type: 'conversation', conversation: { id, minSeq: 2 } });
  });

  it('pins, mutes and deletes from the list; the next message brings it back', async () => {
    const [a, b, id] = await pair();
    await sent(b, id, 'hello');
    const patch = (body: unknown) =>
      t.call('PATCH', `/api/v1/conversations/${id}`, { token: a.token, body });
    const pinned = await patch({ pinned: true, muted: true });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json<Conversation>()).toMatchObject({
      pinned: true,
      muted: true,
      hidden: false,
      readSeq: 0,
    });
    expect((await patch({ muted: false })).json<Conversation>()).toMatchObject({
      pinned: true,
      muted: false,
    });
    expectError(await patch({}), 'VALIDATION_FAILED');
    expectError(await patch({ pinned: 'yes' }), 'VALIDATION_FAILED');
    expectError(await patch({ archived: true }), 'VALIDATION_FAILED');
    const hidden = (await patch({ hidden: true })).json<Conversation>();
    expect(hidden).toMatchObject({ hidden: true, readSeq: 1 });
    const stream = (await events(a)).events.map((e) => e.data);
    expect(stream.filter((d) => d.type === 'conversation')).toHaveLength(3);
    // Bob's view is untouched.
    expect(await conversation(b, id)).toMatchObject({ pinned: false, muted: false, hidden: false });
    await sent(b, id, 'are you there?');
    expect(await conversation(a, id)).toMatchObject({
      hidden: false,
      pinned: true,
      maxSeq: 2,
      readSeq: 1,
    });
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
