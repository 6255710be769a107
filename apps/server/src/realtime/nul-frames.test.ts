import { SOCKET_CLOSE, singleConversationId } from '@teltlk/protocol';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeProvider } from '../test/fake-provider.js';
import { DbWatch } from '../test/db-digest.js';
import { createTestApp, dialects, type RegisteredUser, type TestApp } from '../test/harness.js';
import { socketUrl, TestSocket } from '../test/test-client.js';

/**
 * A NUL character in a socket frame is refused like one in an HTTP request. A message
 * text holding one was stored; on PostgreSQL its translation then failed to be stored
 * ("invalid byte sequence for encoding UTF8: 0x00") and stayed pending.
 */
describe.each(dialects)('NUL characters in socket frames on $dialect', ({ dialect }) => {
  let t: TestApp;
  let url: string;
  let owner: RegisteredUser;
  let friend: RegisteredUser;
  const warnings: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      logger: pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) }),
      translationProviders: [new FakeProvider()],
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
    owner = await t.register({ motherTongue: 'en' });
    friend = await t.register({ motherTongue: 'es' });
    const { contacts } = t.ctx.services;
    const request = await contacts.sendRequest(
      { userId: owner.user.id, sessionId: 'test' },
      { userId: friend.user.id },
    );
    await contacts.acceptRequest({ userId: friend.user.id, sessionId: 'test' }, request.id);
  });
  afterAll(() => t?.close());

  it('refuses a message text holding one, and writes nothing', async () => {
    const sender = await TestSocket.connect(url, owner.token);
    // The reader is online, so a stored message would be translated for them at once.
    const reader = await TestSocket.connect(url, friend.token);
    const watch = new DbWatch(t.ctx.db, t.ctx.dialect);
    await watch.reset();
    const answer = await sender.sendMessage(
      singleConversationId(owner.user.id, friend.user.id),
      'Good morning,\u0000 shall we meet at the station today?',
    );
    await t.ctx.services.translations.drain();
    expect(answer).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await watch.changes()).toEqual([]);
    expect(warnings).toEqual([]);
    expect(sender.isOpen).toBe(true);
    await sender.close();
    await reader.close();
  });

  it('closes a socket whose auth frame holds one, as a broken frame', async () => {
    const socket = await TestSocket.open(url);
    socket.send({ t: 'auth', token: `${owner.token}\u0000` });
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.protocol);
  });
});
