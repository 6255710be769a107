import {
  EDIT_WINDOW_SECONDS,
  type Message,
  type MessagePageResult,
  type MyGroup,
  type SearchMessagesResult,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { userApi } from '../../test/fixtures.js';
import { MessageSearch } from './search.js';

describe.each(dialects)('edit and search on $dialect', ({ dialect }) => {
  let t: TestApp;
  const { call, ok, send, pair } = userApi(() => t);

  const say = async (from: RegisteredUser, conversationId: string, text: string) =>
    ok<Message>(await send(from, conversationId, { kind: 'text', text }));

  const edit = (user: RegisteredUser, conversationId: string, seq: number, text: unknown) =>
    call(user, 'POST', `/conversations/${conversationId}/messages/${seq}/edit`, { text });

  async function search(user: RegisteredUser, q: string, extra: Record<string, string> = {}) {
    const query = new URLSearchParams({ q, ...extra });
    return ok<SearchMessagesResult>(await call(user, 'GET', `/messages/search?${query}`));
  }

  const texts = (result: SearchMessagesResult) =>
    result.messages.map(({ content }) => ('text' in content ? content.text : content.kind));

  async function pull(user: RegisteredUser, conversationId: string) {
    return ok<MessagePageResult>(
      await call(user, 'GET', `/conversations/${conversationId}/messages`),
    ).messages;
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('edit', () => {
    it('gives a text new words for both, marked edited, with a notice after it', async () => {
      const [a, b, id] = await pair();
      const first = await say(a, id, 'Lunch at noon?');
      await say(b, id, 'Sure');
      const notice = ok<Message>(await edit(a, id, first.seq, 'Lunch at one?'));
      expect(notice).toMatchObject({
        seq: 3,
        senderId: a.user.id,
        content: { kind: 'edit', targetSeq: first.seq, text: 'Lunch at one?' },
        lang: 'en',
      });
      for (const user of [a, b]) {
        const [edited] = await pull(user, id);
        expect(edited).toMatchObject({
          seq: first.seq,
          content: { kind: 'text', text: 'Lunch at one?' },
          editedAt: t.clock.now(),
        });
      }
      // Edited again: the newest words win.
      t.clock.advance(1000);
      ok<Message>(await edit(a, id, first.seq, 'Lunch at two?'));
      const [latest] = await pull(b, id);
      expect(latest).toMatchObject({ content: { text: 'Lunch at two?' }, editedAt: t.clock.now() });
    });

    it("refuses someone else's message, notices, revoked messages and blank words", async () => {
      const [a, b, id] = await pair();
      const mine = await say(a, id, 'Mine to change');
      expectError(await edit(b, id, mine.seq, 'Not yours'), 'EDIT_NOT_ALLOWED');
      const location = ok<Message>(
        await send(a, id, { kind: 'location', latitude: 1, longitude: 2, name: 'Harbour' }),
      );
      expectError(await edit(a, id, location.seq, 'A text now'), 'EDIT_NOT_ALLOWED');
      const forwarded = ok<Message>(
        await send(a, id, { kind: 'text', text: 'Said by someone else', forwarded: true }),
      );
      expectError(await edit(a, id, forwarded.seq, 'Changed'), 'EDIT_NOT_ALLOWED');
      const notice = ok<Message>(await edit(a, id, mine.seq, 'Changed once'));
      expectError(await edit(a, id, notice.seq, 'An edit of an edit'), 'EDIT_NOT_ALLOWED');
      expectError(await edit(a, id, mine.seq, '   '), 'BLANK_MESSAGE');
      expectError(await edit(a, id, mine.seq, 'x'.repeat(5001)), 'VALIDATION_FAILED');
      expectError(await edit(a, id, mine.seq, 42), 'VALIDATION_FAILED');
      expectError(await edit(a, id, 999, 'Nothing there'), 'MESSAGE_NOT_FOUND');
      const stranger = await t.register();
      expectError(await edit(stranger, id, mine.seq, 'Intruder'), 'CONVERSATION_NOT_FOUND');
      ok<Message>(await call(a, 'POST', `/conversations/${id}/messages/${mine.seq}/revoke`));
      expectError(await edit(a, id, mine.seq, 'Too late, revoked'), 'EDIT_NOT_ALLOWED');
    });

    it('allows 24 hours, and says so after', async () => {
      const [a, , id] = await pair();
      const message = await say(a, id, 'Early words');
      t.clock.advance(EDIT_WINDOW_SECONDS * 1000);
      ok<Message>(await edit(a, id, message.seq, 'Still in time'));
      t.clock.advance(1);
      const expired = expectError(await edit(a, id, message.seq, 'Too late'), 'EDIT_EXPIRED');
      expect(expired.message).toBe('Messages can only be edited within 24 hours of sending');
    });

    it("reaches a group's members, but no notice of a message before someone's history", async () => {
      const [owner, friend] = await pair();
      const group = ok<MyGroup>(
        await call(owner, 'POST', '/groups', { memberIds: [friend.user.id] }),
      );
      const id = `sg_${group.id}`;
      const early = await say(owner, id, 'Before the newcomer');
      const newcomer = await t.register();
      const { contacts } = t.ctx.services;
      const request = await contacts.sendRequest(
        { userId: owner.user.id, sessionId: 'test' },
        { userId: newcomer.user.id },
      );
      await contacts.acceptRequest({ userId: newcomer.user.id, sessionId: 'test' }, request.id);
      expect(
        (await call(owner, 'POST', `/groups/${group.id}/members`, { userIds: [newcomer.user.id] }))
          .statusCode,
      ).toBeLessThan(300);
      ok<Message>(await edit(owner, id, early.seq, 'Before the newcomer, edited'));
      const seenByFriend = await pull(friend, id);
      expect(seenByFriend.find((m) => m.seq === early.seq)?.content).toMatchObject({
        text: 'Before the newcomer, edited',
      });
      expect(seenByFriend.some((m) => m.content.kind === 'edit')).toBe(true);
      const seenByNewcomer = await pull(newcomer, id);
      expect(seenByNewcomer.some((m) => m.seq <= early.seq || m.content.kind === 'edit')).toBe(
        false,
      );
    });
  });

  describe('search', () => {
    it('finds texts, file names and place names, newest first, whatever the case', async () => {
      const [a, b, id] = await pair();
      await say(a, id, 'The Harbour Festival starts Friday');
      await say(b, id, 'harbour fireworks at nine');
      await say(b, id, 'Nothing to see here');
      ok<Message>(
        await send(a, id, {
          kind: 'location',
          latitude: 1,
          longitude: 2,
          name: 'Old Harbour Pier',
        }),
      );
      expect(texts(await search(b, 'HARBOUR', { conversationId: id }))).toEqual([
        'location',
        'harbour fireworks at nine',
        'The Harbour Festival starts Friday',
      ]);
      expect(texts(await search(a, 'fireworks'))).toEqual(['harbour fireworks at nine']);
      expect((await search(a, 'no such words anywhere')).messages).toEqual([]);
    });

    it('finds Chinese words of one, two and more characters', async () => {
      const [a, b, id] = await pair();
      await say(a, id, '我们明天去北京吃烤鸭');
      await say(b, id, '北京的天气很好');
      await say(b, id, '上海下雨了');
      expect(texts(await search(a, '北京', { conversationId: id }))).toEqual([
        '北京的天气很好',
        '我们明天去北京吃烤鸭',
      ]);
      expect(texts(await search(a, '北京吃烤鸭'))).toEqual(['我们明天去北京吃烤鸭']);
      expect(texts(await search(b, '雨', { conversationId: id }))).toEqual(['上海下雨了']);
      expect(texts(await search(b, '烤鸭'))).toEqual(['我们明天去北京吃烤鸭']);
      // Two characters that are no neighbours are no word.
      expect((await search(b, '京吃烤', { conversationId: id })).messages).toHaveLength(1);
      expect((await search(b, '京烤', { conversationId: id })).messages).toEqual([]);
      await say(a, id, 'ok, see you');
      expect(texts(await search(b, 'OK', { conversationId: id }))).toEqual(['ok, see you']);
    });

    it('treats % and _ as letters, and pages by cursor', async () => {
      const [a, , id] = await pair();
      await say(a, id, 'a discount of 50% today');
      await say(a, id, 'a discount of 50 today');
      await say(a, id, 'snake_case name');
      await say(a, id, 'snakeXcase name');
      expect(texts(await search(a, '50%'))).toEqual(['a discount of 50% today']);
      expect(texts(await search(a, 'snake_case'))).toEqual(['snake_case name']);
      for (let index = 0; index < 5; index += 1) await say(a, id, `paging token zq${index}`);
      const first = await search(a, 'paging token', { conversationId: id, limit: '2' });
      expect(texts(first)).toEqual(['paging token zq4', 'paging token zq3']);
      expect(first.next).not.toBeNull();
      const second = await search(a, 'paging token', {
        conversationId: id,
        limit: '2',
        cursor: first.next!,
      });
      expect(texts(second)).toEqual(['paging token zq2', 'paging token zq1']);
      const third = await search(a, 'paging token', {
        conversationId: id,
        limit: '2',
        cursor: second.next!,
      });
      expect(texts(third)).toEqual(['paging token zq0']);
      expect(third.next).toBeNull();
    });

    it('pages alike across the newest messages and the older ones below them', async () => {
      const [a, b, id] = await pair();
      const [c, , other] = await pair();
      for (let index = 0; index < 7; index += 1) {
        t.clock.advance(1);
        await say(index % 2 === 0 ? a : b, id, `window word ${index}`);
        await say(c, other, `window word elsewhere ${index}`);
      }
      // A window of three rows: the first page comes from it, the rest from the index.
      const search = new MessageSearch(t.ctx.db, dialect, { recentWindow: 3 });
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await search.find({
          userId: b.user.id,
          query: 'WINDOW word',
          limit: 2,
          now: t.clock.now(),
          ...(cursor === undefined ? {} : { cursor }),
        });
        seen.push(...page.rows.map((row) => (JSON.parse(row.content) as { text: string }).text));
        cursor = page.next ?? undefined;
      } while (cursor !== undefined);
      expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0].map((index) => `window word ${index}`));
    });

    it('finds only what the searcher can still see', async () => {
      const [a, b, id] = await pair();
      const revoked = await say(a, id, 'kumquat revoked');
      const hidden = await say(a, id, 'kumquat hidden by b');
      const edited = await say(a, id, 'kumquat before the edit');
      await say(a, id, 'kumquat still here');
      ok<Message>(await call(a, 'POST', `/conversations/${id}/messages/${revoked.seq}/revoke`));
      await call(b, 'POST', `/conversations/${id}/messages/${hidden.seq}/hide`);
      ok<Message>(await edit(a, id, edited.seq, 'papaya after the edit'));
      expect(texts(await search(b, 'kumquat'))).toEqual(['kumquat still here']);
      expect(texts(await search(a, 'kumquat'))).toEqual([
        'kumquat still here',
        'kumquat hidden by b',
      ]);
      expect(texts(await search(b, 'papaya'))).toEqual(['papaya after the edit']);
      // Someone outside the chat finds nothing of it, and may not search in it.
      const stranger = await t.register();
      expect((await search(stranger, 'kumquat')).messages).toEqual([]);
      expectError(
        await call(stranger, 'GET', `/messages/search?q=kumquat&conversationId=${id}`),
        'CONVERSATION_NOT_FOUND',
      );
      // Cleared history is gone from the searcher's results only.
      ok(await call(b, 'POST', `/conversations/${id}/clear`));
      expect((await search(b, 'kumquat')).messages).toEqual([]);
      expect(texts(await search(a, 'kumquat'))).toHaveLength(2);
    });

    it('refuses bad queries with field errors', async () => {
      const [a] = await pair();
      for (const query of [
        'q=',
        'q=%20%20',
        `q=${'x'.repeat(101)}`,
        'q=ok&limit=0',
        'q=ok&limit=51',
        'q=ok&cursor=NOT-OK',
        'q=ok&conversationId=nope',
      ]) {
        expectError(await call(a, 'GET', `/messages/search?${query}`), 'VALIDATION_FAILED');
      }
      expectError(await call(a, 'GET', '/messages/search'), 'VALIDATION_FAILED');
    });
  });
});
