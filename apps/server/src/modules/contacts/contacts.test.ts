import {
  USER_SEARCHES_PER_MINUTE,
  type BlockListResult,
  type Friend,
  type FriendRequest,
  type UserProfile,
} from '@teltlk/protocol';

type UserSearchResult = { user: UserProfile };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../lib/clock.js';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { contactsApi } from '../../test/contacts-api.js';

describe.each(dialects)('contacts on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const {
    api,
    ok,
    noContent,
    search,
    send,
    accept,
    reject,
    requests,
    friends,
    profile,
    events,
    lastSeq,
    friendsPair,
    canMessage,
  } = contactsApi(() => t);

  describe('search', () => {
    it('finds users by phone, email and Teltlk ID, in any case', async () => {
      const me = await t.register();
      const byPhone = await t.register({ channel: 'phone', nickname: 'Phoebe' });
      const byEmail = await t.register({ nickname: 'Emma' });
      const found = async (q: string) => (await ok<UserSearchResult>(search(me, q))).user;

      expect(await found(byPhone.destination)).toEqual({
        id: byPhone.user.id,
        teltlkId: byPhone.user.teltlkId,
        nickname: 'Phoebe',
        avatarUrl: null,
        country: 'CN',
        motherTongue: 'zh',
        official: false,
        relation: 'none',
        remark: null,
        blocked: false,
      });
      expect((await found(byEmail.destination.toUpperCase())).id).toBe(byEmail.user.id);
      expect((await found(`  ${byEmail.destination}  `)).id).toBe(byEmail.user.id);
      expect((await found(byEmail.user.teltlkId.toUpperCase())).id).toBe(byEmail.user.id);
      expect((await found(me.user.teltlkId)).relation).toBe('self');
    });

    it('says the account does not exist when nothing matches exactly', async () => {
      const me = await t.register();
      const other = await t.register();
      expectError(await search(me, 'nobody123'), 'USER_NOT_FOUND');
      expectError(await search(me, '+8613000000000'), 'USER_NOT_FOUND');
      expectError(await search(me, other.destination.slice(0, -1)), 'USER_NOT_FOUND');
      expectError(await search(me, other.user.teltlkId.slice(0, -1)), 'USER_NOT_FOUND');
      expectError(await search(me, ''), 'VALIDATION_FAILED');
      expectError(await profile(me, 'unknownid'), 'USER_NOT_FOUND');
      expectError(await profile(me, 'bad-id!'), 'VALIDATION_FAILED');
    });

    it('limits look-ups per user in a sliding minute', async () => {
      const me = await t.register();
      const other = await t.register();
      for (let i = 0; i < USER_SEARCHES_PER_MINUTE; i += 1) {
        // Misses count too: the limit is against enumeration.
        expect((await search(me, i % 2 ? other.user.teltlkId : 'nobody123')).statusCode).not.toBe(
          429,
        );
        t.clock.advance(SECOND);
      }
      expectError(await search(me, other.user.teltlkId), 'RATE_LIMITED');
      // Another user is not affected.
      await ok(search(other, me.user.teltlkId));
      // The first look-up leaves the window after a minute, freeing one slot.
      t.clock.advance(MINUTE - USER_SEARCHES_PER_MINUTE * SECOND + 1);
      await ok(search(me, other.user.teltlkId));
      expectError(await search(me, other.user.teltlkId), 'RATE_LIMITED');
    });
  });

  describe('friend applications', () => {
    it('sends, lists, replaces and accepts, with events for both sides', async () => {
      const ada = await t.register({ nickname: 'Ada' });
      const bob = await t.register({ nickname: 'Bob' });

      const first = await ok<FriendRequest>(send(ada, bob, '  Hello Bob  '));
      expect(first).toMatchObject({
        from: { id: ada.user.id, nickname: 'Ada' },
        to: { id: bob.user.id, nickname: 'Bob' },
        greeting: 'Hello Bob',
        status: 'pending',
        createdAt: t.clock.now(),
        handledAt: null,
      });
      expect(await requests(bob)).toEqual({ received: [first], sent: [] });
      expect(await requests(ada)).toEqual({ received: [], sent: [first] });

      t.clock.advance(MINUTE);
      const second = await ok<FriendRequest>(send(ada, bob, 'Hi again'));
      expect(second).toMatchObject({
        id: first.id,
        greeting: 'Hi again',
        status: 'pending',
        createdAt: t.clock.now(),
      });
      expect((await requests(bob)).received).toEqual([second]);

      t.clock.advance(MINUTE);
      const agreed = await ok<FriendRequest>(accept(bob, first.id));
      expect(agreed).toMatchObject({ id: first.id, status: 'agreed', handledAt: t.clock.now() });
      expectError(await accept(bob, first.id), 'FRIEND_REQUEST_HANDLED');
      expectError(await reject(bob, first.id), 'FRIEND_REQUEST_HANDLED');

      expect((await friends(ada)).friends).toEqual([
        { user: agreed.to, remark: null, since: t.clock.now() },
      ]);
      expect((await friends(bob)).friends.map((f) => f.user.id)).toEqual([ada.user.id]);
      expect(await ok<UserProfile>(profile(ada, bob))).toMatchObject({ relation: 'friend' });
      expectError(await send(ada, bob), 'ALREADY_FRIENDS');
      expectError(await send(bob, ada), 'ALREADY_FRIENDS');

      for (const [who, other] of [
        [ada, agreed.to],
        [bob, agreed.from],
      ] as const) {
        expect(await events(who)).toEqual([
          { type: 'friendRequest', request: first },
          { type: 'friendRequest', request: second },
          { type: 'friendRequest', request: agreed },
          {
            type: 'friendAdded',
            friend: {
              user: other,
              remark: null,
              since: t.clock.now(),
            },
          },
        ]);
      }
    });

    it('rejects, and a later application makes it pending again', async () => {
      const ada = await t.register();
      const bob = await t.register();
      const request = await ok<FriendRequest>(send(ada, bob, 'Hi'));
      const rejected = await ok<FriendRequest>(reject(bob, request.id));
      expect(rejected).toMatchObject({ status: 'rejected', handledAt: t.clock.now() });
      expect((await requests(ada)).sent).toEqual([rejected]);
      expect(await events(ada)).toContainEqual({ type: 'friendRequest', request: rejected });
      expect((await friends(bob)).friends).toEqual([]);

      t.clock.advance(SECOND);
      const again = await ok<FriendRequest>(send(ada, bob, 'Please'));
      expect(again).toMatchObject({ id: request.id, status: 'pending', handledAt: null });
      await ok(accept(bob, request.id));
    });

    it('accepts the other side\'s pending application when both ask, and marks the first "added"', async () => {
      const ada = await t.register();
      const bob = await t.register();
      const cyd = await t.register();
      const adaToBob = await ok<FriendRequest>(send(ada, bob));
      const answer = await ok<FriendRequest>(send(bob, ada, 'Me too'));
      // Bob's send accepted Ada's application; no application of Bob's was stored.
      expect(answer).toMatchObject({ id: adaToBob.id, status: 'agreed' });
      expect((await requests(bob)).sent).toEqual([]);
      expect((await friends(ada)).friends.map((f) => f.user.id)).toEqual([bob.user.id]);

      // Both sent at the same moment, so neither send saw the other's: stored directly.
      // Accepting one marks the other "added".
      const cydToAda = await ok<FriendRequest>(send(cyd, ada));
      const before = await lastSeq(ada);
      await t.ctx.db
        .insertInto('friend_requests')
        .values({
          id: 'adatocyd',
          from_user_id: ada.user.id,
          to_user_id: cyd.user.id,
          greeting: '',
          status: 'pending',
          created_at: t.clock.now(),
          updated_at: t.clock.now(),
          handled_at: null,
        })
        .execute();
      await ok(accept(ada, cydToAda.id));
      const adaList = await requests(ada);
      expect(adaList.sent.find((r) => r.id === 'adatocyd')).toMatchObject({
        status: 'added',
        handledAt: t.clock.now(),
      });
      expect(adaList.received.find((r) => r.id === cydToAda.id)?.status).toBe('agreed');
      expect((await events(ada, before)).map((e) => e.type)).toEqual([
        'friendRequest',
        'friendRequest',
        'friendAdded',
      ]);
      expectError(await accept(cyd, 'adatocyd'), 'FRIEND_REQUEST_HANDLED');
    });

    it('handles an application once when two accepts race', async () => {
      const ada = await t.register();
      const bob = await t.register();
      const request = await ok<FriendRequest>(send(ada, bob));
      const answers = await Promise.all([accept(bob, request.id), accept(bob, request.id)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect((await events(ada)).filter((e) => e.type === 'friendAdded')).toHaveLength(1);
      expect((await friends(bob)).friends).toHaveLength(1);
    });

    it('refuses oneself, unknown users and official accounts', async () => {
      const ada = await t.register();
      expectError(await send(ada, ada), 'CANNOT_ADD_SELF');
      expectError(await send(ada, 'unknownid'), 'USER_NOT_FOUND');
      expectError(await send(ada, 'bad id'), 'VALIDATION_FAILED');
      const bob = await t.register();
      const long = expectError(await send(ada, bob, 'x'.repeat(101)), 'VALIDATION_FAILED');
      expect(long.issues).toEqual([{ path: 'greeting', rule: 'greeting' }]);

      const { card } = await t.ctx.services.contacts.createOfficial({
        teltlkId: 'TeltlkNews',
        nickname: 'Teltlk News',
      });
      const refused = expectError(await send(ada, card.id), 'VALIDATION_FAILED');
      expect(refused.issues).toEqual([{ path: 'userId', rule: 'user' }]);
    });

    it('lets only the recipient act on an application, and shows lists only to their owner', async () => {
      const ada = await t.register();
      const bob = await t.register();
      const eve = await t.register();
      const request = await ok<FriendRequest>(send(ada, bob));
      expectError(await accept(eve, request.id), 'NOT_FOUND');
      expectError(await reject(eve, request.id), 'NOT_FOUND');
      // Not even the sender may accept their own application.
      expectError(await accept(ada, request.id), 'NOT_FOUND');
      expectError(await accept(bob, 'nosuchrequest'), 'NOT_FOUND');
      expect(await requests(eve)).toEqual({ received: [], sent: [] });
      expect(await events(eve)).toEqual([]);
      expect((await requests(bob)).received[0]?.status).toBe('pending');

      await ok(accept(bob, request.id));
      expect((await friends(eve)).friends).toEqual([]);
      // Eve cannot touch the friendship of others.
      expectError(await api('PATCH', `/friends/${bob.user.id}`)(eve, { remark: 'x' }), 'NOT_FOUND');
      await noContent(api('DELETE', `/friends/${bob.user.id}`)(eve));
      expect((await friends(ada)).friends.map((f) => f.user.id)).toEqual([bob.user.id]);
      expect((await friends(bob)).friends.map((f) => f.user.id)).toEqual([ada.user.id]);
      expect(await ok<BlockListResult>(api('GET', '/blocks')(eve))).toEqual({ blocked: [] });
    });
  });

  describe('friends', () => {
    it('sorts by remark or nickname, sets and clears remarks for one side only', async () => {
      const me = await t.register({ nickname: 'Me' });
      const names = ['carol', 'Alice', 'bob'];
      const others: RegisteredUser[] = [];
      for (const nickname of names) {
        const other = await t.register({ nickname });
        others.push(other);
        const request = await ok<FriendRequest>(send(other, me));
        await ok(accept(me, request.id));
      }
      const shown = async () => (await friends(me)).friends.map((f) => f.remark ?? f.user.nickname);
      expect(await shown()).toEqual(['Alice', 'bob', 'carol']);

      const [carol] = others;
      const before = await lastSeq(me);
      const carolBefore = await lastSeq(carol!);
      const updated = await ok<Friend>(
        api('PATCH', `/friends/${carol!.user.id}`)(me, { remark: '  Aunt C  ' }),
      );
      expect(updated).toMatchObject({ user: { id: carol!.user.id }, remark: 'Aunt C' });
      expect(await shown()).toEqual(['Alice', 'Aunt C', 'bob']);
      expect(await events(me, before)).toEqual([{ type: 'friendUpdated', friend: updated }]);
      expect(await lastSeq(carol!)).toBe(carolBefore);
      expect(await ok<UserProfile>(profile(me, carol!))).toMatchObject({ remark: 'Aunt C' });
      // Carol's own list is untouched.
      expect((await friends(carol!)).friends[0]?.remark).toBeNull();

      await ok(api('PATCH', `/friends/${carol!.user.id}`)(me, { remark: '' }));
      expect(await shown()).toEqual(['Alice', 'bob', 'carol']);
      await ok(api('PATCH', `/friends/${carol!.user.id}`)(me, { remark: 'X' }));
      const cleared = await ok<Friend>(
        api('PATCH', `/friends/${carol!.user.id}`)(me, { remark: null }),
      );
      expect(cleared.remark).toBeNull();
      expectError(
        await api('PATCH', `/friends/${carol!.user.id}`)(me, { remark: 'x'.repeat(33) }),
        'VALIDATION_FAILED',
      );
      expectError(
        await api('PATCH', `/friends/${carol!.user.id}`)(me, { remark: 'x', extra: 1 }),
        'VALIDATION_FAILED',
      );
    });

    it('deletes a friendship on both sides', async () => {
      const [ada, bob] = await friendsPair();
      const adaSeq = await lastSeq(ada);
      const bobSeq = await lastSeq(bob);
      await noContent(api('DELETE', `/friends/${bob.user.id}`)(ada));
      expect((await friends(ada)).friends).toEqual([]);
      expect((await friends(bob)).friends).toEqual([]);
      expect(await events(ada, adaSeq)).toEqual([{ type: 'friendRemoved', userId: bob.user.id }]);
      expect(await events(bob, bobSeq)).toEqual([{ type: 'friendRemoved', userId: ada.user.id }]);
      expect(await canMessage(ada, bob)).toBe('NOT_FRIENDS');
      // Deleting again changes nothing and tells nobody.
      await noContent(api('DELETE', `/friends/${bob.user.id}`)(ada));
      expect(await lastSeq(bob)).toBe(bobSeq + 1);
      // They can become friends again.
      const again = await ok<FriendRequest>(send(bob, ada));
      await ok(accept(ada, again.id));
      expect(await canMessage(ada, bob)).toBe('ok');
    });
  });
});
