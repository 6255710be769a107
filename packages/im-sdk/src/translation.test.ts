import { describe, expect, it } from 'vitest';
import {
  isNewerTranslation,
  needsTranslation,
  stableTranslations,
  translationTarget,
} from './translation.js';
import { toLocal, toStored } from './reducers.js';
import { ME, PEER, serverMessage, serverTranslation } from './test-fixtures.js';

const message = (patch: Parameters<typeof serverMessage>[1] = {}) =>
  toLocal(toStored(serverMessage(1, { senderId: PEER, lang: 'fr', ...patch })));

describe('translation rules', () => {
  it('targets the conversation’s language, else the mother tongue', () => {
    expect(translationTarget({ translateTo: 'de' }, 'en')).toBe('de');
    expect(translationTarget({ translateTo: null }, 'en')).toBe('en');
    expect(translationTarget(undefined, null)).toBeNull();
  });

  it('translates texts of others in another known language, with translation on', () => {
    const scope = { selfId: ME, translate: true, target: 'en' };
    expect(needsTranslation(message(), scope)).toBe(true);
    expect(needsTranslation(message({ lang: 'en' }), scope)).toBe(false);
    expect(needsTranslation(message({ lang: null }), scope)).toBe(false);
    expect(needsTranslation(message({ senderId: ME }), scope)).toBe(false);
    expect(needsTranslation(message(), { ...scope, translate: false })).toBe(false);
    expect(needsTranslation(message(), { ...scope, target: null })).toBe(false);
    expect(needsTranslation(message({ content: { kind: 'revoked' }, revokedAt: 5 }), scope)).toBe(
      false,
    );
    expect(
      needsTranslation(message({ content: { kind: 'burn', seconds: 10 }, lang: 'fr' }), scope),
    ).toBe(false);
  });

  it('tells simplified and traditional Chinese apart, and nothing else', () => {
    const scope = { selfId: ME, translate: true, target: 'zh-Hant' };
    expect(needsTranslation(message({ lang: 'zh' }), scope)).toBe(true);
    expect(needsTranslation(message({ lang: 'zh-Hant' }), scope)).toBe(false);
    expect(needsTranslation(message({ lang: 'zh-Hant' }), { ...scope, target: 'zh' })).toBe(true);
  });

  it('keeps the same map and entries while nothing changed', () => {
    const first = stableTranslations(new Map(), [serverTranslation(1), serverTranslation(2)]);
    const same = stableTranslations(first, [serverTranslation(1), serverTranslation(2)]);
    expect(same).toBe(first);
    const next = stableTranslations(first, [
      serverTranslation(1),
      serverTranslation(2, { at: 11 }),
    ]);
    expect(next).not.toBe(first);
    expect(next.get(1)).toBe(first.get(1));
    expect(next.get(2)?.at).toBe(11);
    expect(stableTranslations(next, [serverTranslation(1)]).size).toBe(1);
  });

  it('takes the newer copy, and a settled one over a pending one of the same time', () => {
    const pending = serverTranslation(1, { status: 'pending', text: null, at: 10 });
    expect(isNewerTranslation(pending, undefined)).toBe(true);
    expect(isNewerTranslation(serverTranslation(1, { at: 10 }), pending)).toBe(true);
    expect(isNewerTranslation(pending, serverTranslation(1, { at: 10 }))).toBe(false);
    expect(isNewerTranslation(serverTranslation(1, { at: 9 }), pending)).toBe(false);
    expect(isNewerTranslation(pending, serverTranslation(1, { at: 9 }))).toBe(true);
  });
});
