import {
  MERGED_DEPTH_MAX,
  type MergedContent,
  type Message,
  type MessagePageResult,
  type MyGroup,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { storedMedia, userApi } from '../../test/fixtures.js';

describe.each(dialects)('chat history records on $dialect', ({ dialect }) => {
  let t: TestApp;
  const { call, ok, send, friends } = userApi(() => t);
  const say = async (from: RegisteredUser, conversationId: string, text: string) =>
    ok<Message>(await send(from, conversationId, { kind: 'text', text }));
  const merge = (from: RegisteredUser, to: string, conversationId: string, seqs: number[]) =>
    send(from, to, { kind: 'merged', source: { conversationId, seqs } });

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(() => t.close());

  it('forwards several messages as one record, written from what is stored', async () => {
    const [ada, bob, cat] = await Promise.all([t.register(), t.register(), t.register()]);
    const adaBob = await friends(ada, bob);
    const adaCat = await friends(ada, cat);
    const first = await say(bob, adaBob, 'The ferry leaves at nine');
    const reply = ok<Message>(
      await send(ada, adaBob, { kind: 'text', text: 'See you there', quote: { seq: first.seq } }),
    );
    ok<Message>(
      await send(bob, adaBob, {
        kind: 'location',
        latitude: 22.3,
        longitude: 114.1,
        name: 'Pier 6',
      }),
    );
    const hidden = await say(bob, adaBob, 'Deleted by Ada');
    expect(
      (await call(ada, 'POST', `/conversations/${adaBob}/messages/${hidden.seq}/hide`)).statusCode,
    ).toBe(204);

    const record = ok<Message>(
      await merge(ada, adaCat, adaBob, [first.seq, reply.seq, 3, hidden.seq, 999]),
    );
    const content = record.content as MergedContent;
    expect(content.kind).toBe('merged');
    expect(content.items.map((item) => [item.senderId, item.senderName, item.content])).toEqual([
      [bob.user.id, bob.user.nickname, { kind: 'text', text: 'The ferry leaves at nine' }],
      // The reply without its quote: the record holds what was said.
      [ada.user.id, ada.user.nickname, { kind: 'text', text: 'See you there' }],
      [
        bob.user.id,
        bob.user.nickname,
        { kind: 'location', latitude: 22.3, longitude: 114.1, name: 'Pier 6' },
      ],
    ]);
    expect(content.items[0]!.createdAt).toBe(first.createdAt);
    // Cat reads it as it was sent.
    const page = ok<MessagePageResult>(await call(cat, 'GET', `/conversations/${adaCat}/messages`));
    expect(page.messages.at(-1)?.content).toEqual(content);

    // Cat forwards Ada's record to Bob alone: it goes on as it is. Nested in a new one with
    // another message, it is an item.
    const catBob = await friends(cat, bob);
    const again = ok<Message>(await merge(cat, catBob, adaCat, [record.seq]));
    expect(again.content).toEqual(content);
    const note = await say(cat, adaCat, 'Look at this');
    const nested = ok<Message>(await merge(cat, catBob, adaCat, [record.seq, note.seq]));
    expect((nested.content as MergedContent).items[0]!.content).toEqual(content);
  });

  it("gives the record's readers its photos", async () => {
    const [ada, bob, cat] = await Promise.all([t.register(), t.register(), t.register()]);
    const adaBob = await friends(ada, bob);
    const adaCat = await friends(ada, cat);
    const id = await storedMedia(t, bob);
    const photo = ok<Message>(
      await send(bob, adaBob, {
        kind: 'image',
        image: { id, width: 1, height: 1, size: 1, mime: 'x' },
      }),
    );
    const urls = async () =>
      ok<{ urls: unknown[] }>(await call(cat, 'POST', '/media/urls', { ids: [id] })).urls;
    expect(await urls()).toHaveLength(0);
    ok<Message>(await merge(ada, adaCat, adaBob, [photo.seq]));
    expect(await urls()).toHaveLength(1);
  });

  it('refuses what the sender cannot see, and records nested too deep', async () => {
    const [ada, bob, eve] = await Promise.all([t.register(), t.register(), t.register()]);
    const adaBob = await friends(ada, bob);
    const adaEve = await friends(ada, eve);
    const secret = await say(ada, adaBob, 'Between Ada and Bob');
    // Eve may not forward from a chat she is not in, even into her own.
    expectError(await merge(eve, adaEve, adaBob, [secret.seq]), 'CONVERSATION_NOT_FOUND');
    // Revoked, or not there: nothing to forward.
    ok(await call(ada, 'POST', `/conversations/${adaBob}/messages/${secret.seq}/revoke`));
    expectError(await merge(ada, adaEve, adaBob, [secret.seq, 500]), 'MESSAGE_NOT_FOUND');
    for (const seqs of [[], Array.from({ length: 101 }, (_, index) => index + 1)]) {
      expectError(await merge(ada, adaEve, adaBob, seqs), 'VALIDATION_FAILED');
    }
    // A record of records, MERGED_DEPTH_MAX deep and no deeper.
    let source = await say(ada, adaBob, 'Level 0');
    for (let depth = 1; depth <= MERGED_DEPTH_MAX; depth += 1) {
      const extra = await say(ada, adaBob, `Beside level ${depth}`);
      source = ok<Message>(await merge(ada, adaBob, adaBob, [source.seq, extra.seq]));
    }
    const extra = await say(ada, adaBob, 'One too many');
    const deep = expectError(
      await merge(ada, adaBob, adaBob, [source.seq, extra.seq]),
      'MERGED_TOO_DEEP',
    );
    expect(deep.params).toEqual({ max: MERGED_DEPTH_MAX });
  });

  it("follows a group's choice of kinds", async () => {
    const [owner, member] = await Promise.all([t.register(), t.register()]);
    const chat = await friends(owner, member);
    const group = ok<MyGroup>(
      await call(owner, 'POST', '/groups', { memberIds: [member.user.id] }),
    );
    expect(group.allowedKinds).toContain('merged');
    const said = await say(member, chat, 'Worth sharing');
    ok<Message>(await merge(member, `sg_${group.id}`, chat, [said.seq]));
    ok(
      await t.call('PATCH', `/api/v1/groups/${group.id}`, {
        token: owner.token,
        body: { allowedKinds: ['text'] },
      }),
    );
    expectError(
      await merge(member, `sg_${group.id}`, chat, [said.seq]),
      'MESSAGE_KIND_NOT_ALLOWED',
    );
  });
});
