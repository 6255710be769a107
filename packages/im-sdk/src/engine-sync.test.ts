import type { UserCard } from '@teltlk/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServerWorld, startServer, until, type LiveServer } from './test-server.js';
import { record, seqs, texts } from './test-fixtures.js';
import type { LocalMessage } from './types.js';

/**
 * The engine against the real server: syncing the list, opening a conversation, what the
 * user and the peer do to messages, burning and typing. Faults the server cannot be made
 * to show (lost frames, dropped sockets) are in the fake server's tests.
 */

let server: LiveServer;
let world: ServerWorld;

beforeAll(async () => {
  server = await startServer();
}, 60_000);

afterAll(async () => {
  await server.t.close();
});

beforeEach(async () => {
  world = await ServerWorld.open(server);
}, 60_000);

afterEach(async () => {
  await world.close();
});

const started = () => world.started();

describe('ImEngine against the server', { timeout: 30_000 }, () => {
  it('syncs the list without pulling history, and pulls a conversation when it is opened', async () => {
    for (let i = 1; i <= 60; i++) await world.send({ kind: 'text', text: `m${i}` });
    const engine = world.engine();
    const events = record(engine, 'syncStart');
    await engine.start();
    expect(engine.getSnapshot().status).not.toBe('starting');
    await until(() => expect(engine.getSnapshot().conversations).toHaveLength(1));
    expect(events).toHaveLength(1);
    expect(engine.getSnapshot().conversations[0]).toMatchObject({
      id: world.conversationId,
      unread: 60,
      maxSeq: 60,
    });
    expect(engine.getSnapshot().totalUnread).toBe(60);
    expect(world.requests.some((path) => path.includes('/messages'))).toBe(false);

    const handle = engine.conversation(world.conversationId);
    await until(() => expect(handle.getSnapshot().messages).toHaveLength(50));
    expect(seqs(handle).at(0)).toBe(11);
    expect(seqs(handle).at(-1)).toBe(60);
    expect(handle.getSnapshot().hasMore).toBe(true);
    expect(world.requests.filter((path) => path.includes('/messages'))).toEqual([
      `GET /conversations/${world.conversationId}/messages?limit=50`,
    ]);

    await handle.loadOlder();
    expect(seqs(handle)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(handle.getSnapshot()).toMatchObject({ hasMore: false, loadingOlder: false });
  });

  it('says where it stands: starting, then up to date once synced', async () => {
    const engine = world.engine();
    expect(engine.getSnapshot().status).toBe('starting');
    const finished = record(engine, 'syncFinish');
    await engine.start();
    await until(() => expect(finished.length).toBeGreaterThan(0));
    await until(() => expect(engine.getSnapshot().status).toBe('ready'));
    expect(engine.getSnapshot().errors).toEqual([]);
  });

  it('shows what the peer pushes, revokes, and what we hide', async () => {
    await world.send({ kind: 'text', text: 'a' });
    await world.send({ kind: 'text', text: 'b' });
    const engine = await started();
    const revoked = record(engine, 'revoked');
    const arrived = record(engine, 'message');
    const handle = engine.conversation(world.conversationId);
    await until(() => expect(texts(handle)).toEqual(['a', 'b']));

    await world.send({ kind: 'text', text: 'c' });
    await until(() => expect(texts(handle)).toEqual(['a', 'b', 'c']));
    expect(arrived.map((message) => message.seq)).toEqual([3]);

    await world.call('POST', `/conversations/${world.conversationId}/messages/1/revoke`);
    await until(() => expect(texts(handle)).toEqual(['revoked', 'b', 'c']));
    expect(revoked).toEqual([{ conversationId: world.conversationId, seq: 1 }]);

    await handle.hide(2);
    await until(() => expect(texts(handle)).toEqual(['revoked', 'c']));
  });

  it('shows edits: from the peer as pushed, our own at once, and the list follows', async () => {
    await world.send({ kind: 'text', text: 'see you at six' });
    await world.send({ kind: 'text', text: 'mine' }, world.me);
    const engine = await started();
    const edited = record(engine, 'edited');
    const handle = engine.conversation(world.conversationId);
    await until(() => expect(texts(handle)).toEqual(['see you at six', 'mine']));

    await world.call('POST', `/conversations/${world.conversationId}/messages/1/edit`, {
      text: 'see you at seven',
    });
    await until(() => expect(texts(handle)).toEqual(['see you at seven', 'mine']));
    expect(edited).toEqual([{ conversationId: world.conversationId, seq: 1 }]);
    const [first] = await world.messages();
    expect(handle.getSnapshot().messages[0]?.editedAt).toBe(first?.editedAt);

    await handle.edit(2, 'mine, edited');
    await until(() => expect(texts(handle)).toEqual(['see you at seven', 'mine, edited']));
    await until(() =>
      expect(engine.getSnapshot().conversations[0]?.lastMessage?.content).toMatchObject({
        text: 'mine, edited',
      }),
    );
  });

  it('clears history on every device and keeps list changes from REST', async () => {
    const id = world.conversationId;
    await world.send({ kind: 'text', text: 'a' });
    const engine = await started();
    const handle = engine.conversation(id);
    await until(() => expect(texts(handle)).toEqual(['a']));
    await engine.updateConversation(id, { pinned: true });
    expect(engine.getSnapshot().conversations[0]?.pinned).toBe(true);
    await engine.clearHistory(id);
    await until(() => expect(texts(handle)).toEqual([]));
    expect(handle.getSnapshot().hasMore).toBe(false);
    await engine.updateConversation(id, { hidden: true });
    expect(engine.getSnapshot().conversations).toEqual([]);
    await world.send({ kind: 'text', text: 'back' });
    await until(() => expect(engine.getSnapshot().conversations).toHaveLength(1));
  });

  it('forwards a text message as a marked copy', async () => {
    await world.send({ kind: 'text', text: 'fwd me' });
    const engine = await started();
    const handle = engine.conversation(world.conversationId);
    await until(() => expect(texts(handle)).toEqual(['fwd me']));
    await engine.forward(handle.getSnapshot().messages[0] as LocalMessage, [world.conversationId]);
    await until(async () => expect(await world.messages()).toHaveLength(2));
    expect((await world.contents())[1]).toEqual({
      kind: 'text',
      text: 'fwd me',
      forwarded: true,
    });
  });

  it('forwards a contact card as a marked copy', async () => {
    const { user } = world.peer;
    const card: UserCard = {
      id: user.id,
      teltlkId: user.teltlkId,
      nickname: user.nickname,
      avatarUrl: user.avatarUrl,
      country: user.country,
      motherTongue: user.motherTongue,
      official: false,
    };
    await world.send({ kind: 'card', user: card });
    const engine = await started();
    const handle = engine.conversation(world.conversationId);
    await until(() => expect(handle.getSnapshot().messages).toHaveLength(1));
    await engine.forward(handle.getSnapshot().messages[0] as LocalMessage, [world.conversationId]);
    await until(async () => expect(await world.messages()).toHaveLength(2));
    expect((await world.contents())[1]).toEqual({ kind: 'card', user: card, forwarded: true });
  });

  it('sends and forwards a location, and quotes it by its place name', async () => {
    const engine = await started();
    const handle = engine.conversation(world.conversationId);
    const place = {
      kind: 'location',
      latitude: -33.8568,
      longitude: 151.2153,
      name: 'Opera',
    } as const;
    await handle.send(place);
    await until(() => expect(handle.getSnapshot().messages[0]?.status).toBe('sent'));
    expect((await world.contents())[0]).toEqual(place);
    await engine.forward(handle.getSnapshot().messages[0] as LocalMessage, [world.conversationId]);
    await until(async () => expect(await world.messages()).toHaveLength(2));
    expect((await world.contents())[1]).toEqual({ ...place, forwarded: true });
    await handle.send({ kind: 'text', text: 'See you there', quote: { seq: 1 } });
    // Shown from the local copy before the server's arrives, then as the server filled it in.
    await until(() => expect(handle.getSnapshot().messages).toHaveLength(3));
    const quote = { seq: 1, senderId: world.me.user.id, text: 'Opera', kind: 'location' };
    expect(handle.getSnapshot().messages.at(-1)?.content).toMatchObject({ quote });
    await until(async () => expect(await world.messages()).toHaveLength(3));
    expect((await world.contents())[2]).toMatchObject({ quote });
  });

  it('keeps snapshots stable between changes and notifies once per batch', async () => {
    await world.send({ kind: 'text', text: 'hi' });
    const engine = await started();
    await until(() => expect(engine.getSnapshot().conversations).toHaveLength(1));
    const first = engine.getSnapshot();
    expect(engine.getSnapshot()).toBe(first);
    // The drafts each listener call saw: changes of one task arrive together.
    const drafts: (string | undefined)[] = [];
    engine.subscribe(() => drafts.push(engine.getSnapshot().conversations[0]?.draft));
    engine.conversation(world.conversationId).setDraft('x');
    engine.conversation(world.conversationId).setDraft('xy');
    await until(() => expect(drafts.length).toBeGreaterThan(0));
    expect(drafts[0]).toBe('xy');
    expect(engine.getSnapshot()).not.toBe(first);
    expect(engine.getSnapshot().conversations[0]?.draft).toBe('xy');
  });

  it('shows burns and the peer typing', async () => {
    const id = world.conversationId;
    await world.send({ kind: 'text', text: 'a' });
    const engine = await started();
    const handle = engine.conversation(id);
    await until(() => expect(texts(handle)).toEqual(['a']));

    await engine.setBurn(id, 10);
    await until(() => expect(engine.getSnapshot().conversations[0]?.burnSeconds).toBe(10));
    await until(() => expect(texts(handle)).toEqual(['a', 'burn']));
    const burning = await world.send({ kind: 'text', text: 'secret' });
    // Its clock starts when it is read.
    expect(burning.burnAt).toBeNull();
    await until(() => expect(texts(handle)).toContain('secret'));
    // Read while the server's clock is behind: it burns 150 ms after the read rather than
    // the 10 s chosen, to keep the test short.
    await world.serverBehind(9_850, async () => {
      handle.markRead();
      await until(() => expect(texts(handle)).not.toContain('secret'));
    });

    await world.peerTypes();
    await until(() => expect(handle.getSnapshot().peerTyping).toBe(true));
  });

  it('sends a reply by the quoted seq, and shows the quote unavailable once it is revoked or burnt', async () => {
    const id = world.conversationId;
    const peerId = world.peer.user.id;
    await world.send({ kind: 'text', text: 'lunch?' });
    const engine = await started();
    const handle = engine.conversation(id);
    await until(() => expect(texts(handle)).toEqual(['lunch?']));
    const quoteOf = (text: string) => {
      const found = handle
        .getSnapshot()
        .messages.find(
          (message) => message.content.kind === 'text' && message.content.text === text,
        );
      return found?.content.kind === 'text' ? found.content.quote : undefined;
    };

    const sent = await handle.send({ kind: 'text', text: 'yes', quote: { seq: 1 } });
    expect(sent.content).toMatchObject({ quote: { seq: 1, senderId: peerId, text: 'lunch?' } });
    await until(async () => expect(await world.messages()).toHaveLength(2));
    const frame = world.network.frames.find((f) => f.t === 'send');
    expect(frame?.t === 'send' && frame.content).toEqual({
      kind: 'text',
      text: 'yes',
      quote: { seq: 1 },
    });
    await until(() => expect(handle.getSnapshot().messages[1]?.status).toBe('sent'));

    await world.call('POST', `/conversations/${id}/messages/1/revoke`);
    await until(() => expect(quoteOf('yes')).toEqual({ seq: 1, unavailable: true }));

    // The peer writes a message that burns once read, and quotes it in one that does not;
    // burning is on again when it is read, so the read starts its clock.
    const burn = (seconds: number) => world.call('PUT', `/conversations/${id}/burn`, { seconds });
    await burn(10);
    const secret = await world.send({ kind: 'text', text: 'secret' });
    await burn(0);
    await world.send({ kind: 'text', text: 'got it', quote: { seq: secret.seq } });
    await burn(10);
    await until(() =>
      expect(quoteOf('got it')).toEqual({ seq: secret.seq, senderId: peerId, text: 'secret' }),
    );
    await until(() => expect(engine.getSnapshot().conversations[0]?.burnSeconds).toBe(10));
    await world.serverBehind(9_850, async () => {
      handle.markRead();
      await until(() => expect(quoteOf('got it')).toEqual({ seq: secret.seq, unavailable: true }));
    });
    expect(texts(handle)).not.toContain('secret');
  });
});
