import { singleConversationId, type ServerFrame } from '@teltlk/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type RegisteredUser } from '../../test/harness.js';
import { FakeProvider } from '../../test/fake-provider.js';
import { isMessage, isTranslation, World } from '../../test/translation-world.js';

describe.each(dialects)('Chinese readers and senders on $dialect', ({ dialect }) => {
  // Every pair but into Japanese, which no engine here has.
  const provider = new FakeProvider(1, (from, to) => from !== to && to !== 'ja');
  let w: World;
  let simplified: RegisteredUser;
  let traditional: RegisteredUser;
  let chat: string;

  beforeAll(async () => {
    w = await World.open({ dialect, translationProviders: [provider] });
    simplified = await w.person('zh');
    traditional = await w.person('zh-Hant');
    chat = await w.chat(simplified, traditional);
  });
  afterAll(() => w.close());
  afterEach(async () => {
    await w.t.ctx.services.translations.drain();
    await w.closeSockets();
  });

  /** Provider characters the user caused today. */
  const usage = (user: RegisteredUser) =>
    w.t.ctx.services.translations['deps'].repo.usage(
      user.user.id,
      new Date(w.t.clock.now()).toISOString().slice(0, 10),
    );

  it('names a message by the script its characters are in', async () => {
    const written = await w.send(simplified, chat, '今天天氣很好，我們去公園散步吧');
    expect(written.lang).toBe('zh-Hant');
    const either = await w.send(traditional, chat, '你好');
    expect(either.lang).toBe('zh-Hant');
    expect((await w.send(traditional, chat, '今天天气很好，我们去公园散步吧')).lang).toBe('zh');
  });

  it('does not translate a Traditional text for a Traditional reader', async () => {
    const reader = await w.connect(traditional);
    const before = provider.calls.length;
    const message = await w.send(simplified, chat, '今天天氣很好，我們去公園散步吧');
    await reader.next(isMessage);
    await w.t.ctx.services.translations.drain();
    expect(await w.translate(traditional, chat, [message.seq])).toEqual([]);
    expect(reader.frames.some(isTranslation)).toBe(false);
    expect(provider.calls.length).toBe(before);
  });

  it('does not translate a text common to both scripts for any Chinese reader', async () => {
    const before = provider.calls.length;
    const message = await w.send(simplified, chat, '你好，我在公司');
    expect(message.lang).toBe('zh');
    expect(await w.translate(traditional, chat, [message.seq])).toEqual([]);
    const [english] = await w.translate(traditional, chat, [message.seq], { lang: 'en' });
    expect(english).toMatchObject({ status: 'pending', lang: 'en' });
    await w.t.ctx.services.translations.drain();
    expect(provider.calls.length).toBe(before + 1);
  });

  it("converts Simplified for a Traditional reader locally, in Taiwan's phrasing, for free", async () => {
    const reader = await w.connect(traditional);
    const before = provider.calls.length;
    const used = await usage(simplified);
    const message = await w.send(simplified, chat, '我的鼠标和软件都坏了');
    const { translation } = await reader.next(isTranslation);
    expect(translation).toMatchObject({
      messageId: message.id,
      from: 'zh',
      lang: 'zh-Hant',
      status: 'done',
      text: '我的滑鼠和軟體都壞了',
    });
    expect(provider.calls.length).toBe(before);
    expect(await usage(simplified)).toBe(used);
    const row = await w.t.ctx.db
      .selectFrom('translations')
      .select('provider')
      .where('message_id', '=', message.id)
      .executeTakeFirstOrThrow();
    expect(row.provider).toBe('opencc');
  });

  it('converts Traditional for a Simplified reader from the phrasing of Taiwan', async () => {
    const used = [await usage(simplified), await usage(traditional)];
    const message = await w.send(traditional, chat, '我的滑鼠和軟體都壞了');
    expect(message.lang).toBe('zh-Hant');
    expect(await w.settled(simplified, message)).toMatchObject({
      status: 'done',
      text: '我的鼠标和软件都坏了',
    });
    expect([await usage(simplified), await usage(traditional)]).toEqual(used);
  });

  it('never gives a sender a translation of their own message, in a group either', async () => {
    const [writer, reader] = [await w.person('es'), await w.person('es')];
    const owner = await w.person('en');
    const group = await w.group(owner, [writer, reader]);
    const [writerSocket, readerSocket] = [await w.connect(writer), await w.connect(reader)];
    const before = provider.calls.length;
    const message = await w.send(writer, group, 'I write this one in English, my friends.');
    expect(message.lang).toBe('en');
    await readerSocket.next(isTranslation);
    await w.t.ctx.services.translations.drain();
    // Made once, for the Spanish reader and the English owner not at all (offline).
    expect(provider.calls.slice(before).map((call) => call.to)).toEqual(['es']);
    expect(await w.translate(writer, group, [message.seq])).toEqual([]);
    await w.send(owner, group, 'A second one, so the first frame would have come by now.');
    await readerSocket.next(isTranslation);
    const ownTranslation = (frame: ServerFrame) =>
      isTranslation(frame) && frame.translation.messageId === message.id;
    expect(writerSocket.frames.some(ownTranslation)).toBe(false);
    // Nor in a single chat, asked into a language of the sender's choice.
    const single = singleConversationId(writer.user.id, owner.user.id);
    const own = await w.send(writer, single, 'Another English sentence from a Spanish speaker.');
    expect(await w.translate(writer, single, [own.seq])).toEqual([]);
    expect(await w.translate(writer, single, [own.seq], { lang: 'de' })).toEqual([]);
  });

  it('stores a pair no provider has as unavailable, not failed', async () => {
    const reader = await w.person('ja');
    const conversation = await w.chat(simplified, reader);
    const socket = await w.connect(reader);
    const message = await w.send(simplified, conversation, '我们明天去公园散步吧');
    const { translation } = await socket.next(isTranslation);
    expect(translation).toMatchObject({
      messageId: message.id,
      status: 'unavailable',
      error: 'TRANSLATION_UNAVAILABLE',
      text: null,
    });
    expect((await w.translate(reader, conversation, [message.seq]))[0]).toMatchObject({
      status: 'unavailable',
    });
    expect(await usage(reader)).toBe(0);
  });
});
