import {
  REVOKE_WINDOW_SECONDS,
  singleConversationId,
  type Conversation,
  type Message,
  type MessagePageResult,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { chatApi, clientId } from '../../test/messages-api.js';

describe.each(dialects)('messages on $dialect', ({ dialect }) => {
  let t: TestApp;
  let ada: RegisteredUser;
  let bob: RegisteredUser;
  /** Not a member of Ada and Bob's conversation, and nobody's friend. */
  let eve: RegisteredUser;
  let adaBob: string;

  const { befriend, send, sent, pull, conversation, events, pair } = chatApi(() => t);

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
});
