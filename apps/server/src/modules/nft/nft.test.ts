import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  groupConversationId,
  singleConversationId,
  type Message,
  type NftItemView,
  type NftListResult,
} from '@teltlk/protocol';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runOperator } from '../../operator.js';
import { userApi } from '../../test/fixtures.js';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { NFT_IMAGE_PX } from './image.js';

/** A small badge picture, as an operator would have one. */
const badge = (colour: string) =>
  sharp({ create: { width: 300, height: 200, channels: 4, background: colour } })
    .png()
    .toBuffer();

describe.each(dialects)('NFT assets on $dialect', ({ dialect }) => {
  let t: TestApp;
  const { call, ok, pair } = userApi(() => t);
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(async () => {
    expect(await t.ctx.services.ledger.verify(t.ctx.db)).toEqual([]);
  });

  const walletOf = async (user: RegisteredUser, password = '123456') => {
    await call(user, 'POST', '/wallet');
    await call(user, 'PUT', '/wallet/password', { password });
  };
  const held = async (user: RegisteredUser) =>
    ok<NftListResult>(await call(user, 'GET', '/wallet/nfts')).items.map((item) => item.name);
  let sent = 0;
  const clientMsgId = () => `nft-${(sent += 1)}-${Date.now().toString(36)}`;
  const mint = async (name: string, to?: RegisteredUser) => {
    const { nfts } = t.ctx.services;
    const collectionId = await nfts.createCollection({ name: 'Pioneers', description: 'Badges' });
    return nfts.mint({
      collectionId,
      name,
      description: `${name}, for the first members`,
      image: await badge('#c9a227'),
      ...(to ? { to: to.user.id } : {}),
    });
  };

  it('lists what a person holds with its picture, and nobody else sees it as theirs', async () => {
    const [a, b] = await pair();
    const { id, serial } = await mint('Early bird', a);
    expect(serial).toBe(1);
    const list = ok<NftListResult>(await call(a, 'GET', '/wallet/nfts'));
    expect(list.items).toHaveLength(1);
    const [item] = list.items as [NftItemView];
    expect(item).toMatchObject({ id, name: 'Early bird', serial: 1 });
    expect(item.collection.name).toBe('Pioneers');
    const picture = await t.app.inject({ method: 'GET', url: item.imageUrl });
    expect(picture.statusCode).toBe(200);
    const meta = await sharp(picture.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', NFT_IMAGE_PX, NFT_IMAGE_PX]);
    expect(ok<NftItemView>(await call(a, 'GET', `/wallet/nfts/${id}`)).id).toBe(id);
    expect(await held(b)).toEqual([]);
    expectError(await call(b, 'GET', `/wallet/nfts/${id}`), 'NFT_NOT_FOUND');
  });

  it('gives an item to a friend with its message, once, and only what one holds', async () => {
    const [a, b, chat] = await pair();
    await walletOf(a);
    await walletOf(b);
    const { id } = await mint('Translator', a);
    const body = { conversationId: chat, clientMsgId: clientMsgId() };
    expectError(
      await call(a, 'POST', `/wallet/nfts/${id}/send`, { ...body, password: '000000' }),
      'PAYMENT_PASSWORD_INCORRECT',
    );
    expect(await held(a)).toEqual(['Translator']);
    const message = ok<Message>(
      await call(a, 'POST', `/wallet/nfts/${id}/send`, { ...body, password: '123456' }),
    );
    expect(message.content).toMatchObject({
      kind: 'nft',
      itemId: id,
      name: 'Translator',
      collection: 'Pioneers',
      toId: b.user.id,
    });
    // The same request again answers the same message and moves nothing.
    const again = ok<Message>(
      await call(a, 'POST', `/wallet/nfts/${id}/send`, { ...body, password: '123456' }),
    );
    expect(again.seq).toBe(message.seq);
    expect(await held(a)).toEqual([]);
    expect(await held(b)).toEqual(['Translator']);
    const page = ok<{ messages: Message[] }>(
      await call(b, 'GET', `/conversations/${encodeURIComponent(chat)}/messages`),
    );
    expect(page.messages.filter((m) => m.content.kind === 'nft')).toHaveLength(1);

    // What one no longer holds cannot be given again, and leaves no message.
    expectError(
      await call(a, 'POST', `/wallet/nfts/${id}/send`, {
        conversationId: chat,
        clientMsgId: clientMsgId(),
        password: '123456',
      }),
      'NFT_NOT_FOUND',
    );
    // Back again the other way.
    ok<Message>(
      await call(b, 'POST', `/wallet/nfts/${id}/send`, {
        conversationId: chat,
        clientMsgId: clientMsgId(),
        password: '123456',
      }),
    );
    expect(await held(a)).toEqual(['Translator']);
    const after = ok<{ messages: Message[] }>(
      await call(b, 'GET', `/conversations/${encodeURIComponent(chat)}/messages`),
    );
    expect(after.messages.filter((m) => m.content.kind === 'nft')).toHaveLength(2);
  });

  it('gives an item once when two gifts of it race, and never into a group or to a stranger', async () => {
    const [a, b, chat] = await pair();
    const [, c] = await pair();
    const chatAc = await userApi(() => t).friends(a, c);
    await walletOf(a);
    const { id } = await mint('Racer', a);
    const results = await Promise.all(
      [chat, chatAc, chat, chatAc].map((conversationId) =>
        call(a, 'POST', `/wallet/nfts/${id}/send`, {
          conversationId,
          clientMsgId: clientMsgId(),
          password: '123456',
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const refused of results.filter((r) => r.statusCode !== 200)) {
      expectError(refused, 'NFT_NOT_FOUND');
    }
    const holders = [await held(a), await held(b), await held(c)].filter((h) => h.length > 0);
    expect(holders).toEqual([['Racer']]);

    const { id: second } = await mint('Second', a);
    expectError(
      await call(a, 'POST', `/wallet/nfts/${second}/send`, {
        conversationId: groupConversationId('abcdefghijklmnopqrst'),
        clientMsgId: clientMsgId(),
        password: '123456',
      }),
      'NFT_SINGLE_ONLY',
    );
    const stranger = await t.register();
    const refused = await call(a, 'POST', `/wallet/nfts/${second}/send`, {
      conversationId: singleConversationId(stranger.user.id, a.user.id),
      clientMsgId: clientMsgId(),
      password: '123456',
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(await held(a)).toContain('Second');
    expect(await held(stranger)).toEqual([]);
  });

  it('has ledger:verify catch an item held twice', async () => {
    const [a, b] = await pair();
    const { id } = await mint('Copied', a);
    // A second unit behind the ledger's back: the balance without its entry, on b.
    await t.ctx.db
      .insertInto('ledger_accounts')
      .values({
        id: `u:${b.user.id}:nft:${id}:available`,
        owner_kind: 'user',
        owner_id: b.user.id,
        currency: `nft:${id}`,
        purpose: 'available',
        may_go_negative: 0,
        balance: 1,
        created_at: t.clock.now(),
      })
      .execute();
    const problems = await t.ctx.services.ledger.verify(t.ctx.db);
    expect(problems).toContain(`nft:${id} is held 2 times`);
    await t.ctx.db
      .deleteFrom('ledger_accounts')
      .where('id', '=', `u:${b.user.id}:nft:${id}:available`)
      .execute();
  });

  it('mints, grants and lists through the operator command', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'nft-'));
    try {
      const picture = join(folder, 'badge.png');
      await writeFile(picture, await badge('#2a7ae2'));
      const lines: string[] = [];
      const errors: string[] = [];
      const out = { log: (l: string) => lines.push(l), error: (l: string) => errors.push(l) };
      // The command closes the context it opened: it gets one whose close leaves the app up.
      const run = (...argv: string[]) => {
        lines.length = 0;
        errors.length = 0;
        const ctx = { ...t.ctx, close: () => Promise.resolve() };
        return runOperator(argv, () => Promise.resolve(ctx), out);
      };
      const person = await t.register();
      const teltlkId = (await t.ctx.services.users.get(person.user.id)).teltlk_id;
      expect(await run('nft:collection', '--name', 'Community', '--description', 'Badges')).toBe(0);
      const collection = /^collection (\w+)$/.exec(lines[0]!)![1]!;
      expect(
        await run('nft:mint', '--collection', collection, '--name', 'Helper', '--image', picture),
      ).toBe(0);
      const item = /^item (\w+) #1 in the vault$/.exec(lines[0]!)![1]!;
      expect(await held(person)).toEqual([]);
      expect(await run('nft:grant', '--item', item, '--to', teltlkId)).toBe(0);
      expect(await held(person)).toEqual(['Helper']);
      // Granted once: run again it says so; to someone else it finds the vault empty.
      expect(await run('nft:grant', '--item', item, '--to', teltlkId)).toBe(0);
      expect(lines[0]).toMatch(/was given to .* before$/);
      const other = await t.register();
      const otherId = (await t.ctx.services.users.get(other.user.id)).teltlk_id;
      expect(await run('nft:grant', '--item', item, '--to', otherId)).toBe(1);
      expect(errors[0]).toContain('not in the vault');
      expect(await held(other)).toEqual([]);
      expect(
        await run(
          'nft:mint',
          ...['--collection', collection, '--name', 'Mentor', '--image', picture],
          ...['--to', teltlkId],
        ),
      ).toBe(0);
      expect(lines[0]).toMatch(/ #2 given to /);
      expect(await run('nft:list', '--collection', collection)).toBe(0);
      expect(lines.map((l) => l.split('\t').slice(2))).toEqual([
        ['#1', 'Helper', person.user.id],
        ['#2', 'Mentor', person.user.id],
      ]);
      // Not a picture, an unknown collection, an unknown person: refused, nothing minted.
      await writeFile(join(folder, 'notes.txt'), 'not a picture');
      expect(
        await run(
          ...['nft:mint', '--collection', collection, '--name', 'Bad'],
          ...['--image', join(folder, 'notes.txt')],
        ),
      ).toBe(1);
      expect(
        await run('nft:mint', '--collection', 'nope', '--name', 'Bad', '--image', picture),
      ).toBe(2);
      expect(
        await run(
          ...['nft:mint', '--collection', collection, '--name', 'Bad', '--image', picture],
          ...['--to', 'nobody00000'],
        ),
      ).toBe(2);
      expect(await run('nft:list', '--collection', collection)).toBe(0);
      expect(lines).toHaveLength(2);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
