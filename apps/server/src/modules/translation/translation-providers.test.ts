import { type Message } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeProvider } from '../../test/fake-provider.js';
import { openAiProvider } from './providers/openai.js';
import { COPY_OTHERS, honest, obedientModel, promptTexts, RUN_ON } from '../../test/test-model.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { World } from '../../test/translation-world.js';

describe('translation batching', () => {
  it('batches short texts of the same language pair into one call', async () => {
    const batching = new FakeProvider(8);
    const b = await World.open({ translationProviders: [batching] });
    try {
      const [x, y] = [await b.person('en'), await b.person('es')];
      const conversation = await b.chat(x, y);
      // Y turns translation off first, so nothing is made eagerly.
      await b.call(y, 'PATCH', `/conversations/${conversation}`, { translate: false });
      const sent: Message[] = [];
      for (const text of [
        'See you soon',
        'Thank you very much',
        'Where are you now?',
        'Good night',
      ]) {
        sent.push(await b.send(x, conversation, text));
      }
      await b.t.ctx.services.translations.drain();
      expect(batching.calls).toHaveLength(0);
      await b.translate(
        y,
        conversation,
        sent.map((message) => message.seq),
        { lang: 'es' },
      );
      await b.t.ctx.services.translations.drain();
      expect(batching.calls).toHaveLength(1);
      expect(batching.calls[0]!.texts).toHaveLength(4);
    } finally {
      await b.close();
    }
  });
});

describe('translation by a language model', () => {
  let server: TestServer;
  let w: World;
  beforeAll(async () => {
    server = await startTestServer();
    server.handle(obedientModel());
    const model = openAiProvider({ url: `${server.url}/v1`, apiKey: null, model: 'obedient' });
    // A wide window: texts asked for by two requests at once surely fall in one.
    w = await World.open({
      translationProviders: [model],
      translationRunner: { batchWindowMs: 500 },
    });
  });
  afterAll(async () => {
    await w.close();
    await server.close();
  });

  it('never mixes conversations or drafts in one prompt, and stores no answer far longer than its text', async () => {
    const reader = await w.person('es');
    const [alice, bob] = [await w.person('en'), await w.person('en')];
    const north = await w.chat(alice, reader);
    const south = await w.chat(bob, reader);
    const texts = {
      north: [
        // Long enough that a copy of it makes the copier's answer far longer than its text.
        'Alice here: the door code is 4711 and the alarm code is 9034, please do not share them with anyone at all.',
        COPY_OTHERS,
        RUN_ON,
      ],
      south: ['Bob here: my new phone number is +34 600 123 456, call me tonight.', 'Good night.'],
    };
    const sent: Record<'north' | 'south', Message[]> = { north: [], south: [] };
    for (const [side, conversation, sender] of [
      ['north', north, alice],
      ['south', south, bob],
    ] as const) {
      // Nothing eager: the reader asks for both conversations at once below.
      await w.call(reader, 'PATCH', `/conversations/${conversation}`, { translate: false });
      for (const text of texts[side]) sent[side].push(await w.send(sender, conversation, text));
    }
    const seqs = (side: 'north' | 'south') => sent[side].map((message) => message.seq);
    // Bob's draft, previewed meanwhile, is his alone too.
    const draft = 'Draft: my card PIN is 2468, do not send this one yet.';
    const [, , preview] = await Promise.all([
      w.translate(reader, north, seqs('north'), { lang: 'es' }),
      w.translate(reader, south, seqs('south'), { lang: 'es' }),
      w.call(bob, 'POST', '/translations/preview', { text: draft, to: 'es' }),
    ]);
    expect(w.ok<{ text: string }>(preview).text).toBe(honest(draft, 'es'));
    await w.t.ctx.services.translations.drain();

    const origin = (text: string) =>
      texts.north.includes(text) ? 'north' : texts.south.includes(text) ? 'south' : text;
    const prompts = server.requests.map(promptTexts);
    for (const prompt of prompts) expect(new Set(prompt.map(origin)).size).toBe(1);
    // Each conversation's texts did share a call.
    expect(prompts).toContainEqual(texts.north);
    expect(prompts).toContainEqual(texts.south);
    expect(prompts).toContainEqual([draft]);

    const stored = async (side: 'north' | 'south', conversation: string) =>
      w.translate(reader, conversation, seqs(side), { lang: 'es' });
    const [alicesText, copier, runOn] = await stored('north', north);
    expect(alicesText).toMatchObject({ status: 'done', text: honest(texts.north[0]!, 'es') });
    // The copying text's answer in the batch ran long; asked alone, it had nothing to copy.
    expect(copier).toMatchObject({ status: 'done', text: honest(COPY_OTHERS, 'es') });
    // The run-on text ran long alone too: failed, a reader may ask again, nothing stored.
    expect(runOn).toMatchObject({ status: 'failed', error: 'TRANSLATION_FAILED', text: null });
    expect(
      (await stored('south', south)).map((translation) => [translation.status, translation.text]),
    ).toEqual(texts.south.map((text) => ['done', honest(text, 'es')]));
  });

  it("never puts two senders' texts in one prompt, so a crafted text has only its sender's to copy", async () => {
    const [alice, bea] = [await w.person('en'), await w.person('es')];
    const chat = await w.chat(alice, bea);
    for (const person of [alice, bea])
      await w.call(person, 'PATCH', `/conversations/${chat}`, { translate: false });
    const texts = [
      'Alice here: the vault code is 1234, please keep it to yourself.',
      'Bea aquí: mañana llego a las nueve a la estación.',
      COPY_OTHERS,
    ];
    const senders = [alice, bea, bea];
    const sent: Message[] = [];
    for (const [index, text] of texts.entries())
      sent.push(await w.send(senders[index]!, chat, text));
    const before = server.requests.length;
    // Each reads the other's texts: both asked for in the same moment.
    await Promise.all([
      w.translate(alice, chat, [sent[1]!.seq, sent[2]!.seq], { lang: 'de' }),
      w.translate(bea, chat, [sent[0]!.seq], { lang: 'de' }),
    ]);
    await w.t.ctx.services.translations.drain();
    const prompts = server.requests.slice(before).map(promptTexts);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts)
      expect(prompt.includes(texts[0]!) && prompt.length > 1).toBe(false);
    // Alice's text went alone; Bea's copying text, in the same language, could not reach it.
    expect(prompts).toContainEqual([texts[0]]);
  });
});
