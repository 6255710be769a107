import { singleConversationId, type Message, type TranslateResult } from '@teltlk/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type RegisteredUser, type TestApp } from '../../test/harness.js';
import { FakeProvider } from '../../test/fake-provider.js';
import { TranslationRepo } from './repo.js';

/**
 * The daily character quota is charged in one conditional statement: requests that
 * arrive together, on one node or several, cannot each see room for themselves and pass
 * the cap between them.
 */

const CAP = 100;
/** 31 characters: three fit under the cap, a fourth does not. */
const TEXT = 'Please bring the blue folder A.';
/** Texts as long as TEXT, each different (the same text twice would be one provider call). */
const textOf = (index: number) => TEXT.replace('A', String.fromCharCode(65 + index));
const DAY = '2025-01-15';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

let unique = 0;
/** A (user, day) nobody has charged yet. */
function freshUser(): string {
  unique += 1;
  return `quota-${Date.now().toString(36)}-${unique}`;
}

async function befriend(t: TestApp, a: RegisteredUser, b: RegisteredUser): Promise<void> {
  const { contacts } = t.ctx.services;
  const request = await contacts.sendRequest(
    { userId: a.user.id, sessionId: 'test' },
    { userId: b.user.id },
  );
  await contacts.acceptRequest({ userId: b.user.id, sessionId: 'test' }, request.id);
}

/** Settles every promise, counting those that resolved. */
async function fulfilled(promises: readonly Promise<unknown>[]): Promise<number> {
  const settled = await Promise.allSettled(promises);
  for (const outcome of settled) {
    if (outcome.status === 'rejected') {
      expect(outcome.reason).toMatchObject({ code: 'TRANSLATION_QUOTA_EXCEEDED' });
    }
  }
  return settled.filter((outcome) => outcome.status === 'fulfilled').length;
}

describe.each(dialects)('translation quota on $dialect', ({ dialect }) => {
  const provider = new FakeProvider();
  let t: TestApp;
  let repo: TranslationRepo;

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      translationProviders: [provider],
      translationRunner: { backoffMs: 5, batchWindowMs: 5 },
      env: { TRANSLATE_DAILY_CHARACTERS: String(CAP) },
    });
    repo = new TranslationRepo(t.ctx.db);
  });
  afterAll(async () => {
    await t.ctx.services.translations.drain();
    await t.close();
  });

  it('counts fifty concurrent charges, the day’s first among them, up to the cap and no further', async () => {
    const user = freshUser();
    const charges = await Promise.all(
      Array.from({ length: 50 }, () => repo.chargeUsage(user, DAY, 7, CAP)),
    );
    expect(charges.filter(Boolean)).toHaveLength(Math.floor(CAP / 7));
    expect(await repo.usage(user, DAY)).toBe(Math.floor(CAP / 7) * 7);
  });

  it('takes exactly the concurrent charges that fit, whatever their sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: CAP + 10 }), { minLength: 1, maxLength: 30 }),
        async (sizes) => {
          const user = freshUser();
          const charges = await Promise.all(
            sizes.map((size) => repo.chargeUsage(user, DAY, size, CAP)),
          );
          const used = await repo.usage(user, DAY);
          const counted = sizes.filter((_, index) => charges[index]);
          expect(used).toBe(counted.reduce((sum, size) => sum + size, 0));
          expect(used).toBeLessThanOrEqual(CAP);
          // Usage only grew, so each refused charge would pass the cap even now.
          for (const [index, size] of sizes.entries()) {
            if (!charges[index]) expect(used + size).toBeGreaterThan(CAP);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('gives a reader asking for ten translations in one request only what the quota holds', async () => {
    const [en, es] = [
      await t.register({ motherTongue: 'en' }),
      await t.register({ motherTongue: 'es' }),
    ];
    await befriend(t, en, es);
    const chat = singleConversationId(en.user.id, es.user.id);
    const send = async (clientMsgId: string, text: string) => {
      const sent = await t.call('POST', '/api/v1/messages', {
        token: en.token,
        body: { conversationId: chat, clientMsgId, content: { kind: 'text', text } },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      return sent.json<Message>();
    };
    // The conversation begins with a wave, which has nothing to translate.
    await send('quota-wave-0', '👋');
    // Nothing eager: the reader's asking is all that is charged to them.
    const off = await t.call('PATCH', `/api/v1/conversations/${chat}`, {
      token: es.token,
      body: { translate: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    const seqs: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      seqs.push((await send(`quota-text-${index}`, textOf(index))).seq);
    }
    const calls = provider.calls.length;

    const asked = await t.call('POST', '/api/v1/translations', {
      token: es.token,
      body: { conversationId: chat, seqs, lang: 'es' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const answers = asked.json<TranslateResult>().translations;
    const fits = Math.floor(CAP / TEXT.length);
    expect(answers.filter(({ status }) => status === 'pending')).toHaveLength(fits);
    const refused = answers.filter(({ status }) => status === 'failed');
    expect(refused).toHaveLength(seqs.length - fits);
    for (const answer of refused) expect(answer.error).toBe('TRANSLATION_QUOTA_EXCEEDED');
    await t.ctx.services.translations.drain();
    expect(provider.calls.length - calls).toBe(fits);
    expect(await repo.usage(es.user.id, DAY)).toBe(fits * TEXT.length);
  });

  it('lets concurrent previews of one user through only up to the quota', async () => {
    const en = await t.register({ motherTongue: 'en' });
    const { translations } = t.ctx.services;
    const accepted = await fulfilled(
      Array.from({ length: 10 }, () => translations.preview(en.user.id, { text: TEXT, to: 'es' })),
    );
    expect(accepted).toBe(Math.floor(CAP / TEXT.length));
    expect(await repo.usage(en.user.id, DAY)).toBe(accepted * TEXT.length);
  });

  it('makes room again when a charge is given back', async () => {
    const user = freshUser();
    expect(await repo.chargeUsage(user, DAY, CAP, CAP)).toBe(true);
    expect(await repo.chargeUsage(user, DAY, 1, CAP)).toBe(false);
    await repo.refundUsage(user, DAY, 40);
    expect(await repo.chargeUsage(user, DAY, 40, CAP)).toBe(true);
    expect(await repo.chargeUsage(user, DAY, 1, CAP)).toBe(false);
    expect(await repo.usage(user, DAY)).toBe(CAP);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('translation quota across two nodes', () => {
  let north: TestApp;
  let south: TestApp;

  beforeAll(async () => {
    const env = { TRANSLATE_DAILY_CHARACTERS: String(CAP) };
    north = await createTestApp({
      dialect: 'postgres',
      env,
      translationProviders: [new FakeProvider()],
    });
    south = await createTestApp({
      env: { ...env, DATABASE_URL: north.ctx.config.databaseUrl ?? '' },
      translationProviders: [new FakeProvider()],
    });
  });
  afterAll(async () => {
    await south?.close();
    await north?.close();
  });

  it('lets previews of one user on both nodes at once through only up to the quota', async () => {
    const en = await north.register({ motherTongue: 'en' });
    const preview = (node: TestApp) =>
      node.ctx.services.translations.preview(en.user.id, { text: TEXT, to: 'es' });
    const accepted = await fulfilled(
      Array.from({ length: 10 }, (_, index) => preview(index % 2 === 0 ? north : south)),
    );
    expect(accepted).toBe(Math.floor(CAP / TEXT.length));
    const repo = new TranslationRepo(north.ctx.db);
    expect(await repo.usage(en.user.id, DAY)).toBe(accepted * TEXT.length);
  });
});
