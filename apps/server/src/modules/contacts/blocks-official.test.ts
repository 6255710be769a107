import {
  type BlockListResult,
  type FriendRequest,
  type OfficialListResult,
  type UserProfile,
} from '@teltlk/protocol';

type UserSearchResult = { user: UserProfile };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands, runOperator } from '../../operator.js';
import { createTestApp, dialects, expectError, type TestApp } from '../../test/harness.js';
import { contactsApi } from '../../test/contacts-api.js';

describe.each(dialects)('blocks and official accounts on $dialect', ({ dialect }) => {
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
    requests,
    friends,
    profile,
    block,
    unblock,
    events,
    lastSeq,
    friendsPair,
    canMessage,
  } = contactsApi(() => t);

  describe('blocks', () => {
    it("refuses a blocked sender's applications and messages, without unfriending", async () => {
      const ada = await t.register();
      const bob = await t.register();
      const bobSeq = await lastSeq(bob);

      await block(bob, ada);
      await block(bob, ada);
      const blocked = await ok<BlockListResult>(api('GET', '/blocks')(bob));
      expect(blocked.blocked.map((card) => card.id)).toEqual([ada.user.id]);
      expect(await events(bob, bobSeq)).toEqual([{ type: 'blocked', user: blocked.blocked[0] }]);
      expect(await ok<UserProfile>(profile(bob, ada))).toMatchObject({ blocked: true });
      expect(await ok<UserProfile>(profile(ada, bob))).toMatchObject({ blocked: false });

      const adaSeq = await lastSeq(ada);
      expectError(await send(ada, bob, 'let me in'), 'MESSAGE_REFUSED');
      expect(await requests(bob)).toEqual({ received: [], sent: [] });
      expect(await requests(ada)).toEqual({ received: [], sent: [] });
      expect(await lastSeq(ada)).toBe(adaSeq);
      expect(await lastSeq(bob)).toBe(bobSeq + 1);

      // Bob may still ask Ada; her accepting makes them friends.
      const request = await ok<FriendRequest>(send(bob, ada));
      await ok(accept(ada, request.id));
      expect(await canMessage(ada, bob)).toBe('MESSAGE_REFUSED');
      expect(await canMessage(bob, ada)).toBe('ok');
      expect((await friends(bob)).friends.map((f) => f.user.id)).toEqual([ada.user.id]);

      await unblock(bob, ada);
      await unblock(bob, ada);
      expect(await ok<BlockListResult>(api('GET', '/blocks')(bob))).toEqual({ blocked: [] });
      expect((await events(bob)).filter((e) => e.type === 'unblocked')).toEqual([
        { type: 'unblocked', userId: ada.user.id },
      ]);
      expect(await canMessage(ada, bob)).toBe('ok');
    });

    it('hides applications received before the block, until unblocked', async () => {
      const ada = await t.register();
      const bob = await t.register();
      const request = await ok<FriendRequest>(send(ada, bob));
      await block(bob, ada);
      expect((await requests(bob)).received).toEqual([]);
      await unblock(bob, ada);
      expect((await requests(bob)).received.map((r) => r.id)).toEqual([request.id]);
    });

    it('checks its input', async () => {
      const ada = await t.register();
      expectError(await api('PUT', `/blocks/${ada.user.id}`)(ada), 'VALIDATION_FAILED');
      expectError(await api('PUT', '/blocks/unknownid')(ada), 'USER_NOT_FOUND');
      await noContent(api('DELETE', '/blocks/unknownid')(ada));
    });
  });

  describe('who may message whom', () => {
    it('needs a friendship unless an official account is on either side', async () => {
      const [ada, bob] = await friendsPair();
      const eve = await t.register();
      expect(await canMessage(ada, bob)).toBe('ok');
      expect(await canMessage(bob, ada)).toBe('ok');
      expect(await canMessage(ada, eve)).toBe('NOT_FRIENDS');
      expect(await canMessage(ada, 'unknownid')).toBe('USER_NOT_FOUND');
      expect(await canMessage('unknownid', ada)).toBe('USER_NOT_FOUND');

      const { card } = await t.ctx.services.contacts.createOfficial({
        teltlkId: 'TeltlkHelp',
        nickname: 'Teltlk Help',
      });
      expect(await canMessage(eve, card.id)).toBe('ok');
      expect(await canMessage(card.id, eve)).toBe('ok');
      await noContent(api('PUT', `/blocks/${card.id}`)(eve));
      expect(await canMessage(card.id, eve)).toBe('MESSAGE_REFUSED');
      expect(await canMessage(eve, card.id)).toBe('ok');
    });

    it('gives cards of any users, leaving unknown ids out', async () => {
      const [ada, bob] = await friendsPair();
      const cards = await t.ctx.services.contacts.cards([ada.user.id, bob.user.id, 'unknownid']);
      expect([...cards.keys()].sort()).toEqual([ada.user.id, bob.user.id].sort());
      expect(cards.get(ada.user.id)).toMatchObject({ nickname: 'Ada', official: false });
    });
  });

  describe('official accounts', () => {
    const lines: string[] = [];
    const errors: string[] = [];
    const out = {
      log: (line: string) => lines.push(line),
      error: (line: string) => errors.push(line),
    };
    // The runner closes what it opened; the test app's context stays open for the next test.
    const open = () => Promise.resolve({ ...t.ctx, close: () => Promise.resolve() });

    it('are created by the operator command, idempotently, and listed', async () => {
      const created = await commands['official:create']!.run(
        [
          '--teltlk-id',
          'TeltlkTeam',
          '--nickname',
          'Teltlk Team',
          '--country',
          'sg',
          '--language=en',
        ],
        open,
      );
      expect(created).toEqual([
        expect.stringMatching(/^created \w+\tTeltlkTeam\tTeltlk Team\tSG\ten$/),
      ]);
      const again = await commands['official:create']!.run(
        ['--teltlk-id', 'teltlkteam', '--nickname', 'Other'],
        open,
      );
      expect(again).toEqual([created[0]!.replace('created', 'exists')]);

      const listed = await commands['official:list']!.run([], open);
      expect(listed).toContainEqual(created[0]!.replace('created ', ''));

      const user = await t.register();
      const { accounts } = await ok<OfficialListResult>(api('GET', '/official-accounts')(user));
      const team = accounts.find((account) => account.teltlkId === 'TeltlkTeam');
      expect(team).toMatchObject({ nickname: 'Teltlk Team', official: true, country: 'SG' });
      expect(accounts.every((account) => account.official)).toBe(true);
      // Found by search, and nobody can sign in as it.
      expect((await ok<UserSearchResult>(search(user, 'teltlkTEAM'))).user.official).toBe(true);
      expectError(
        await t.call('POST', '/api/v1/auth/login', {
          body: { account: 'TeltlkTeam', password: 'Passw0rd!' },
        }),
        'PASSWORD_INCORRECT',
      );
    });

    it('refuse bad arguments with a clear message and a non-zero exit', async () => {
      const run = async (argv: string[]) => {
        lines.length = 0;
        errors.length = 0;
        return runOperator(argv, open, out);
      };
      expect(await run(['official:create', '--nickname', 'X'])).toBe(2);
      expect(errors.join('\n')).toContain('--teltlk-id is required');
      expect(await run(['official:create', '--teltlk-id', '1abc', '--nickname', 'X'])).toBe(2);
      expect(errors.join('\n')).toContain('must be 7 to 16 letters');
      expect(
        await run([
          'official:create',
          '--teltlk-id',
          'TeltlkBad',
          '--nickname',
          'X',
          '--country',
          'ZZ',
        ]),
      ).toBe(2);
      expect(
        await run([
          'official:create',
          '--teltlk-id',
          'TeltlkBad',
          '--nickname',
          'X',
          '--bogus',
          'y',
        ]),
      ).toBe(2);
      expect(errors.join('\n')).toContain('unknown option: --bogus');
      expect(await run(['official:create', '--teltlk-id'])).toBe(2);
      expect(await run(['official:nope'])).toBe(2);
      expect(errors.join('\n')).toContain('unknown command');
      expect(await run([])).toBe(2);
      expect(lines.join('\n')).toContain('official:create');

      // A Teltlk ID a person already uses is not turned into an official account.
      const person = await t.register();
      expect(
        await run(['official:create', '--teltlk-id', person.user.teltlkId, '--nickname', 'X']),
      ).toBe(1);
      expect(errors.join('\n')).toContain('already taken');
      expect(await run(['official:list'])).toBe(0);
      expect(lines.some((line) => line.includes('TeltlkBad'))).toBe(false);
    });
  });
});
