import type { Message, MyGroup, ServerFrame } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketUrl, TestSocket } from '../../test/test-client.js';
import { createTestApp, type RegisteredUser, type TestApp } from '../../test/harness.js';
import { FakeProvider } from '../../test/fake-provider.js';

/**
 * Two nodes on one PostgreSQL and one Redis, with readers of two languages on each: the
 * group message is translated once per language in all, and every reader gets the
 * translation into their own language, whichever node made it.
 */

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

type TranslationFrame = Extract<ServerFrame, { t: 'translation' }>;
const isTranslation = (frame: ServerFrame): frame is TranslationFrame => frame.t === 'translation';

describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('translation across two nodes', () => {
  const northProvider = new FakeProvider();
  const southProvider = new FakeProvider();
  let north: TestApp;
  let south: TestApp;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    const redis = { REDIS_URL: TEST_REDIS_URL ?? '' };
    north = await createTestApp({
      dialect: 'postgres',
      env: redis,
      translationProviders: [northProvider],
    });
    south = await createTestApp({
      env: { ...redis, DATABASE_URL: north.ctx.config.databaseUrl ?? '' },
      translationProviders: [southProvider],
    });
    await north.app.listen({ port: 0, host: '127.0.0.1' });
    await south.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await north?.ctx.services.translations.drain();
    await south?.ctx.services.translations.drain();
    await south?.close();
    await north?.close();
  });

  it('makes each language once, and reaches the readers of it on both nodes', async () => {
    const owner = await north.register({ motherTongue: 'en' });
    const readers: { user: RegisteredUser; lang: string; node: TestApp }[] = [];
    for (const node of [north, south]) {
      for (const lang of ['es', 'fr']) {
        readers.push({ user: await node.register({ motherTongue: lang }), lang, node });
      }
    }
    const { contacts } = north.ctx.services;
    for (const { user } of readers) {
      const request = await contacts.sendRequest(
        { userId: owner.user.id, sessionId: 'test' },
        { userId: user.user.id },
      );
      await contacts.acceptRequest({ userId: user.user.id, sessionId: 'test' }, request.id);
    }
    const created = await north.call('POST', '/api/v1/groups', {
      token: owner.token,
      body: { memberIds: readers.map(({ user }) => user.user.id) },
    });
    expect(created.statusCode, created.body).toBe(200);
    const group = `sg_${created.json<MyGroup>().id}`;
    const connected = await Promise.all(
      readers.map(async ({ user, node }) => {
        const socket = await TestSocket.connect(socketUrl(node.app.server.address()), user.token);
        sockets.push(socket);
        return socket;
      }),
    );

    const sent = await north.call('POST', '/api/v1/messages', {
      token: owner.token,
      body: {
        conversationId: group,
        clientMsgId: 'cluster-translation-1',
        content: { kind: 'text', text: 'Good evening to both halves of the group.' },
      },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const message = sent.json<Message>();

    for (const [index, socket] of connected.entries()) {
      const { translation } = await socket.next(isTranslation);
      expect(translation).toMatchObject({
        messageId: message.id,
        lang: readers[index]!.lang,
        status: 'done',
      });
    }
    await north.ctx.services.translations.drain();
    await south.ctx.services.translations.drain();
    const made = [...northProvider.calls, ...southProvider.calls].map((call) => call.to).sort();
    expect(made).toEqual(['es', 'fr']);
    // No reader got a translation into another language.
    for (const [index, socket] of connected.entries()) {
      const langs = socket.frames.filter(isTranslation).map((frame) => frame.translation.lang);
      expect(new Set(langs)).toEqual(new Set([readers[index]!.lang]));
    }
  });
});
