import {
  singleConversationId,
  type Conversation,
  type ConversationSyncResult,
  type Message,
  type MessagePageResult,
  type MessageReadsResult,
  type MyGroup,
  type ServerFrame,
  type TranslateResult,
} from '@teltlk/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { socketUrl, TestSocket } from '../../test/test-client.js';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { FakeProvider } from '../../test/fake-provider.js';
import { MessageRepo } from './repo.js';

type Frame<T extends ServerFrame['t']> = Extract<ServerFrame, { t: T }>;
const is =
  <T extends ServerFrame['t']>(t: T) =>
  (frame: ServerFrame): frame is Frame<T> =>
    frame.t === t;

/** Anything a frame tells about the message at `seq` of a conversation. */
function about(frame: ServerFrame, conversationId: string, seq: number): boolean {
  if (frame.t === 'message' && frame.message.conversationId === conversationId) {
    const { content } = frame.message;
    return frame.message.seq === seq || (content.kind === 'revoke' && content.targetSeq === seq);
  }
  if (frame.t === 'translation') {
    return frame.translation.conversationId === conversationId && frame.translation.seq === seq;
  }
  return false;
}

/**
 * A member who joined later, or cleared the history, gets nothing from before that point
 * by any path: pull, push of messages and notices, translation frames, read counts, the
 * chat list preview and mentions. Where a push must not arrive, a member who may have it
 * is connected to the same node: one look-up decides for both, so once theirs is in,
 * the other's has been written, and arrives before the answer to a ping sent after.
 */
describe.each(dialects)('history visibility on $dialect', ({ dialect }) => {
  const provider = new FakeProvider();
  let t: TestApp;
  let url: string;
  let counter = 0;
  const sockets: TestSocket[] = [];

  const auth = (user: RegisteredUser) => ({ userId: user.user.id, sessionId: 'test' });

  function call(
    user: RegisteredUser,
    method: 'GET' | 'POST' | 'PATCH' | 'PUT',
    path: string,
    body?: unknown,
  ) {
    return t.call(method, `/api/v1${path}`, { token: user.token, body });
  }

  function ok<T>(response: Awaited<ReturnType<typeof call>>): T {
    expect(response.statusCode, response.body).toBeLessThan(300);
    return (response.statusCode === 204 ? undefined : response.json()) as T;
  }

  async function befriend(a: RegisteredUser, b: RegisteredUser): Promise<void> {
    const { contacts } = t.ctx.services;
    const request = await contacts.sendRequest(auth(a), { userId: b.user.id });
    await contacts.acceptRequest(auth(b), request.id);
  }

  async function group(owner: RegisteredUser, members: readonly RegisteredUser[]) {
    for (const member of members) await befriend(owner, member);
    const created = ok<MyGroup>(
      await call(owner, 'POST', '/groups', { memberIds: members.map((m) => m.user.id) }),
    );
    return { id: created.id, conversationId: `sg_${created.id}` };
  }

  function send(from: RegisteredUser, conversationId: string, text: string, extra: object = {}) {
    counter += 1;
    return call(from, 'POST', '/messages', {
      conversationId,
      clientMsgId: `vis-${Date.now().toString(36)}-${counter}`,
      content: { kind: 'text', text, ...extra },
    }).then((response) => ok<Message>(response));
  }

  async function pull(user: RegisteredUser, conversationId: string): Promise<Message[]> {
    return ok<MessagePageResult>(
      await call(user, 'GET', `/conversations/${conversationId}/messages?limit=200`),
    ).messages;
  }

  async function listed(user: RegisteredUser, conversationId: string): Promise<Conversation> {
    const { conversations } = ok<ConversationSyncResult>(
      await call(user, 'GET', '/sync/conversations?since=0&limit=1000'),
    );
    const found = conversations.find((c) => c.id === conversationId);
    if (!found) throw new Error(`${conversationId} is not in the list`);
    return found;
  }

  /**
   * Frames of `socket` so far that tell about the message at `seq`, once everything the
   * server wrote to it before this call has arrived (a pong follows it on the socket).
   */
  async function heardOf(
    socket: TestSocket,
    conversationId: string,
    seq: number,
  ): Promise<ServerFrame[]> {
    socket.send({ t: 'ping' });
    await socket.next(is('pong'));
    return socket.frames.filter((frame) => about(frame, conversationId, seq));
  }

  async function connect(user: RegisteredUser): Promise<TestSocket> {
    const socket = await TestSocket.connect(url, user.token);
    sockets.push(socket);
    return socket;
  }

  function person(motherTongue = 'en'): Promise<RegisteredUser> {
    return t.register({ motherTongue, nickname: `V${motherTongue}` });
  }

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      translationProviders: [provider],
      translationRunner: { backoffMs: 5, batchWindowMs: 5 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
  });

  afterEach(async () => {
    await t.ctx.services.translations.drain();
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  });

  afterAll(async () => {
    await t.close();
  });

  it('gives a late joiner no notice about an older message: not pushed, pulled, nor listed', async () => {
    const owner = await person();
    const member = await person();
    const late = await person();
    const { id, conversationId } = await group(owner, [member]);
    const secret = await send(owner, conversationId, 'Before you came');
    await befriend(owner, late);
    ok(await call(owner, 'POST', `/groups/${id}/members`, { userIds: [late.user.id] }));
    const memberSocket = await connect(member);
    const lateSocket = await connect(late);

    const notice = ok<Message>(
      await call(owner, 'POST', `/conversations/${conversationId}/messages/${secret.seq}/revoke`),
    );
    expect(notice.content).toEqual({ kind: 'revoke', targetSeq: secret.seq });
    await memberSocket.next((frame) => about(frame, conversationId, notice.seq));
    expect(await heardOf(lateSocket, conversationId, secret.seq)).toEqual([]);

    const pulled = await pull(late, conversationId);
    expect(pulled.map((m) => m.content.kind)).toEqual(['system']);
    expect((await listed(late, conversationId)).lastMessage?.content).toMatchObject({
      kind: 'system',
      event: 'invited',
    });
    // The member who was there gets the notice every way.
    expect((await pull(member, conversationId)).at(-1)?.content).toEqual(notice.content);
    expect((await listed(member, conversationId)).lastMessage?.seq).toBe(notice.seq);
  });

  it('after a clear, a revoke of an older message reaches only the person who still has it', async () => {
    const ada = await person();
    const bob = await person();
    await befriend(ada, bob);
    const conversationId = singleConversationId(ada.user.id, bob.user.id);
    const old = await send(bob, conversationId, 'Clear this away');
    ok(await call(ada, 'POST', `/conversations/${conversationId}/clear`));
    const adaSocket = await connect(ada);
    const bobSocket = await connect(bob);

    const notice = ok<Message>(
      await call(bob, 'POST', `/conversations/${conversationId}/messages/${old.seq}/revoke`),
    );
    await bobSocket.next((frame) => about(frame, conversationId, notice.seq));
    expect(await heardOf(adaSocket, conversationId, old.seq)).toEqual([]);
    expect(await pull(ada, conversationId)).toEqual([]);
    expect((await listed(ada, conversationId)).lastMessage).toBeNull();

    // Messages sent after the clear still go both ways.
    const later = await send(bob, conversationId, 'Still here');
    await adaSocket.next((frame) => about(frame, conversationId, later.seq));
  });

  it('sends a translation of an older message to the members whose history holds it only', async () => {
    const owner = await person('en');
    const early = await person('es');
    const late = await person('es');
    const { id, conversationId } = await group(owner, [early]);
    // No one is online: nothing is translated eagerly.
    const old = await send(owner, conversationId, 'The meeting moves to the small room today.');
    expect(old.lang).toBe('en');
    await befriend(owner, late);
    ok(await call(owner, 'POST', `/groups/${id}/members`, { userIds: [late.user.id] }));
    await t.ctx.services.translations.drain();
    const earlySocket = await connect(early);
    const lateSocket = await connect(late);

    const { translations } = ok<TranslateResult>(
      await call(early, 'POST', '/translations', { conversationId, seqs: [old.seq] }),
    );
    expect(translations).toMatchObject([{ seq: old.seq, lang: 'es', status: 'pending' }]);
    const { translation } = await earlySocket.next(is('translation'));
    expect(translation).toMatchObject({ seq: old.seq, status: 'done' });
    expect(await heardOf(lateSocket, conversationId, old.seq)).toEqual([]);
    // Nor may the late joiner ask for it.
    expect(
      ok<TranslateResult>(
        await call(late, 'POST', '/translations', { conversationId, seqs: [old.seq] }),
      ).translations,
    ).toEqual([]);
  });

  it('sends a translation in a single chat to the person who did not clear it only', async () => {
    const ada = await person('en');
    const bob = await person('es');
    await befriend(ada, bob);
    const conversationId = singleConversationId(ada.user.id, bob.user.id);
    await send(bob, conversationId, '👋');
    // Both read this chat in German, so a German translation is for both.
    for (const user of [ada, bob]) {
      ok(await call(user, 'PATCH', `/conversations/${conversationId}`, { translateTo: 'de' }));
    }
    const old = await send(ada, conversationId, 'Please bring the blue folder tomorrow morning.');
    await t.ctx.services.translations.drain();
    ok(await call(ada, 'POST', `/conversations/${conversationId}/clear`));
    const adaSocket = await connect(ada);
    const bobSocket = await connect(bob);

    ok(
      await call(bob, 'POST', '/translations', {
        conversationId,
        seqs: [old.seq],
        retry: true,
      }),
    );
    const { translation } = await bobSocket.next(is('translation'));
    expect(translation).toMatchObject({ seq: old.seq, lang: 'de' });
    expect(await heardOf(adaSocket, conversationId, old.seq)).toEqual([]);
  });

  it('counts no readers of a message from before the asking admin joined', async () => {
    const owner = await person();
    const member = await person();
    const admin = await person();
    const { id, conversationId } = await group(owner, [member]);
    const old = await send(owner, conversationId, 'Before the new admin');
    ok(await call(member, 'POST', `/conversations/${conversationId}/read`, { seq: old.seq }));
    // Read counts leave out members who joined after a message was sent.
    t.clock.advance(1000);
    await befriend(owner, admin);
    ok(await call(owner, 'POST', `/groups/${id}/members`, { userIds: [admin.user.id] }));
    ok(await call(owner, 'PUT', `/groups/${id}/members/${admin.user.id}/role`, { role: 'admin' }));
    const fresh = await send(owner, conversationId, 'After the new admin');

    expectError(
      await call(admin, 'GET', `/groups/${id}/messages/${old.seq}/reads`),
      'MESSAGE_NOT_FOUND',
    );
    expect(
      ok<MessageReadsResult>(await call(admin, 'GET', `/groups/${id}/messages/${fresh.seq}/reads`)),
    ).toMatchObject({ readCount: 0 });
    // The owner, who was there, still sees who read the older one.
    expect(
      ok<MessageReadsResult>(await call(owner, 'GET', `/groups/${id}/messages/${old.seq}/reads`))
        .readers,
    ).toMatchObject([{ id: member.user.id }]);
  });

  it('forgets mentions from before a clear', async () => {
    const owner = await person();
    const member = await person();
    const { conversationId } = await group(owner, [member]);
    const named = await send(owner, conversationId, '@member look', {
      mentions: [member.user.id],
    });
    expect((await listed(member, conversationId)).mentionSeq).toBe(named.seq);
    const all = await send(owner, conversationId, '@all look', { mentionAll: true });
    expect((await listed(member, conversationId)).mentionSeq).toBe(all.seq);

    ok(await call(member, 'POST', `/conversations/${conversationId}/clear`));
    expect((await listed(member, conversationId)).mentionSeq).toBe(0);
    const again = await send(owner, conversationId, '@member again', {
      mentions: [member.user.id],
    });
    expect((await listed(member, conversationId)).mentionSeq).toBe(again.seq);
  });

  it('looks up any number of quoted messages and blocks at once', async () => {
    const ada = await person();
    const bob = await person();
    await befriend(ada, bob);
    const conversationId = singleConversationId(ada.user.id, bob.user.id);
    const said = await send(ada, conversationId, 'Far down the list');
    ok(await call(bob, 'PUT', `/blocks/${ada.user.id}`));
    // A batch of sends may quote a thousand messages, and mention twenty people in each:
    // more pairs than one statement may bind.
    const pairs = Array.from({ length: 20_000 }, (_, index) => [`u${index}`, index + 1] as const);
    const found = await new MessageRepo(t.ctx.db).messagesAt([
      ...pairs.slice(0, 1000),
      [conversationId, said.seq],
    ]);
    expect(found.map((row) => row.id)).toEqual([said.id]);
    const blocks = await t.ctx.services.contacts.blocksAmong([
      ...pairs.map(([id]) => [id, ada.user.id] as const),
      [bob.user.id, ada.user.id],
    ]);
    expect([...blocks]).toEqual([`${bob.user.id}\n${ada.user.id}`]);
  });

  describe('quotes', () => {
    /** A reply quoting `seq`, and whatever a client adds to the quote. */
    function reply(from: RegisteredUser, conversationId: string, seq: number, forged = {}) {
      return send(from, conversationId, 'Replying', { quote: { seq, ...forged } });
    }

    const quoteOf = (message: Message | undefined) =>
      message?.content.kind === 'text' ? message.content.quote : undefined;

    async function pulledQuote(user: RegisteredUser, message: Message) {
      const pulled = await pull(user, message.conversationId);
      return quoteOf(pulled.find((m) => m.seq === message.seq));
    }

    it('replaces a forged quote with the sender and words of the stored message', async () => {
      const ada = await person();
      const bob = await person();
      const eve = await person();
      await befriend(ada, bob);
      const conversationId = singleConversationId(ada.user.id, bob.user.id);
      const said = await send(ada, conversationId, '  I will be\nlate   today ');
      const adaSocket = await connect(ada);

      const forged = await reply(bob, conversationId, said.seq, {
        senderId: eve.user.id,
        text: 'I hate you all',
      });
      const real = { seq: said.seq, senderId: ada.user.id, text: 'I will be late today' };
      expect(quoteOf(forged)).toEqual(real);
      const pushed = await adaSocket.next(
        (frame) => frame.t === 'message' && frame.message.seq === forged.seq,
      );
      expect(pushed.t === 'message' && quoteOf(pushed.message)).toEqual(real);
      expect(await pulledQuote(ada, forged)).toEqual(real);
      expect((await listed(ada, conversationId)).lastMessage?.content).toMatchObject({
        quote: real,
      });

      // A seq with no message, or a notice, quotes nothing.
      expect(quoteOf(await reply(bob, conversationId, 999))).toEqual({
        seq: 999,
        unavailable: true,
      });
      const burn = ok<Message>(
        await call(ada, 'PUT', `/conversations/${conversationId}/burn`, { seconds: 0 }),
      );
      expect(quoteOf(await reply(bob, conversationId, burn.seq))).toEqual({
        seq: burn.seq,
        unavailable: true,
      });
    });

    it('shows a quote of a revoked message as unavailable, also when revoked later', async () => {
      const ada = await person();
      const bob = await person();
      await befriend(ada, bob);
      const conversationId = singleConversationId(ada.user.id, bob.user.id);
      const gone = await send(ada, conversationId, 'Oops, wrong chat');
      ok(await call(ada, 'POST', `/conversations/${conversationId}/messages/${gone.seq}/revoke`));
      expect(quoteOf(await reply(bob, conversationId, gone.seq))).toEqual({
        seq: gone.seq,
        unavailable: true,
      });

      const later = await send(ada, conversationId, 'Meet at six');
      const quoting = await reply(bob, conversationId, later.seq);
      expect(quoteOf(quoting)).toMatchObject({ seq: later.seq, text: 'Meet at six' });
      ok(await call(ada, 'POST', `/conversations/${conversationId}/messages/${later.seq}/revoke`));
      for (const user of [ada, bob]) {
        expect(await pulledQuote(user, quoting)).toEqual({ seq: later.seq, unavailable: true });
      }
    });

    it('shows a quote of a burnt message as unavailable, also when it burns later', async () => {
      const ada = await person();
      const bob = await person();
      await befriend(ada, bob);
      const conversationId = singleConversationId(ada.user.id, bob.user.id);
      await send(ada, conversationId, '👋');
      ok(await call(ada, 'PUT', `/conversations/${conversationId}/burn`, { seconds: 10 }));
      const secret = await send(ada, conversationId, 'The code is 4711');
      // Bob's reply marks it read: it burns ten seconds later.
      const quoting = await reply(bob, conversationId, secret.seq);
      expect(quoteOf(quoting)).toMatchObject({ seq: secret.seq, text: 'The code is 4711' });
      t.clock.advance(11_000);
      expect(await pulledQuote(ada, quoting)).toEqual({ seq: secret.seq, unavailable: true });
      expect(quoteOf(await reply(bob, conversationId, secret.seq))).toEqual({
        seq: secret.seq,
        unavailable: true,
      });
    });

    it('gives a late joiner a quote of an older message as unavailable, by push and pull', async () => {
      const owner = await person();
      const member = await person();
      const late = await person();
      const { id, conversationId } = await group(owner, [member]);
      const old = await send(owner, conversationId, 'Only for the first members');
      await befriend(owner, late);
      ok(await call(owner, 'POST', `/groups/${id}/members`, { userIds: [late.user.id] }));
      const ownerSocket = await connect(owner);
      const lateSocket = await connect(late);

      const quoting = await reply(member, conversationId, old.seq);
      const shown = { seq: old.seq, senderId: owner.user.id, text: 'Only for the first members' };
      expect(quoteOf(quoting)).toEqual(shown);
      const toOwner = await ownerSocket.next(is('message'));
      expect(quoteOf(toOwner.message)).toEqual(shown);
      const toLate = await lateSocket.next(is('message'));
      expect(toLate.message.seq).toBe(quoting.seq);
      expect(quoteOf(toLate.message)).toEqual({ seq: old.seq, unavailable: true });
      expect(await pulledQuote(late, quoting)).toEqual({ seq: old.seq, unavailable: true });
      expect((await listed(late, conversationId)).lastMessage?.content).toMatchObject({
        quote: { seq: old.seq, unavailable: true },
      });
      expect(await pulledQuote(owner, quoting)).toEqual(shown);
      // Nor can the late joiner quote it themselves.
      expect(quoteOf(await reply(late, conversationId, old.seq))).toEqual({
        seq: old.seq,
        unavailable: true,
      });
    });

    it('after a clear, pushes a quote of an older message as unavailable to who cleared', async () => {
      const ada = await person();
      const bob = await person();
      await befriend(ada, bob);
      const conversationId = singleConversationId(ada.user.id, bob.user.id);
      const old = await send(bob, conversationId, 'Remember this?');
      ok(await call(ada, 'POST', `/conversations/${conversationId}/clear`));
      const adaSocket = await connect(ada);

      const quoting = await reply(bob, conversationId, old.seq);
      expect(quoteOf(quoting)).toMatchObject({ seq: old.seq, text: 'Remember this?' });
      const pushed = await adaSocket.next(is('message'));
      expect(pushed.message.seq).toBe(quoting.seq);
      expect(quoteOf(pushed.message)).toEqual({ seq: old.seq, unavailable: true });
      expect(await pulledQuote(ada, quoting)).toEqual({ seq: old.seq, unavailable: true });
    });
  });
});
