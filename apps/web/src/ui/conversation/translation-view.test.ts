import { needsTranslation } from '@teltlk/im-sdk';
import type { Translation } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import {
  bubbleTranslation,
  deviceTakesOver,
  toggleSwitched,
  translationFirst,
  translationSource,
  translationSummary,
  unavailableSources,
} from './translation-view';
import { receivedText as message, storedTranslation as stored } from './test-fixtures';

const scope = { selfId: 'a', translate: true, target: 'en' };

describe('which messages are translated', () => {
  it('translates others’ texts in another language into the target', () => {
    expect(needsTranslation(message(), scope)).toBe(true);
    expect(needsTranslation(message({ senderId: 'a' }), scope)).toBe(false);
    expect(needsTranslation(message({ lang: 'en' }), scope)).toBe(false);
    expect(needsTranslation(message({ lang: null }), scope)).toBe(false);
    expect(needsTranslation(message(), { ...scope, translate: false })).toBe(false);
    expect(needsTranslation(message({ content: { kind: 'revoked' }, revokedAt: 9 }), scope)).toBe(
      false,
    );
    expect(needsTranslation(message({ lang: 'zh' }), { ...scope, target: 'zh-Hant' })).toBe(true);
  });
});

describe('bubbleTranslation', () => {
  const base = { needed: true, stored: undefined, device: null };

  it('shows nothing extra for a message that needs no translation', () => {
    expect(bubbleTranslation({ ...base, needed: false, stored: stored() })).toEqual({
      kind: 'none',
    });
  });

  it('follows the server: pending until done, failed with its reason', () => {
    expect(bubbleTranslation(base)).toEqual({ kind: 'pending' });
    expect(
      bubbleTranslation({ ...base, stored: stored({ status: 'pending', text: null }) }),
    ).toEqual({ kind: 'pending' });
    expect(bubbleTranslation({ ...base, stored: stored() })).toEqual({
      kind: 'done',
      text: 'hello',
    });
    expect(
      bubbleTranslation({
        ...base,
        stored: stored({ status: 'failed', text: null, error: 'TRANSLATION_QUOTA_EXCEEDED' }),
      }),
    ).toEqual({ kind: 'failed', code: 'TRANSLATION_QUOTA_EXCEEDED', onDevice: false });
  });

  it('leaves a pair the server calls unavailable to the device, and notes when it cannot', () => {
    const unavailable = {
      ...base,
      stored: stored({ status: 'unavailable', text: null, error: 'TRANSLATION_UNAVAILABLE' }),
    };
    expect(deviceTakesOver(unavailable.stored)).toBe(true);
    expect(deviceTakesOver(stored({ status: 'failed', text: null }))).toBe(false);
    expect(deviceTakesOver(undefined)).toBe(false);
    expect(bubbleTranslation({ ...unavailable, device: { status: 'pending' } })).toEqual({
      kind: 'pending',
    });
    expect(bubbleTranslation({ ...unavailable, device: { status: 'done', text: 'hi' } })).toEqual({
      kind: 'done',
      text: 'hi',
    });
    expect(bubbleTranslation(unavailable)).toEqual({ kind: 'unavailable' });
    // The device's translator broke or did not answer in time: a retry goes to it.
    expect(bubbleTranslation({ ...unavailable, device: { status: 'failed' } })).toEqual({
      kind: 'failed',
      code: null,
      onDevice: true,
    });
  });

  it('names each language the server cannot translate into the target once, in order', () => {
    const unavailable = {
      status: 'unavailable',
      text: null,
      error: 'TRANSLATION_UNAVAILABLE',
    } as const;
    const shown = new Map<number, Translation>([
      [1, stored({ seq: 1, from: 'es', ...unavailable })],
      [2, stored({ seq: 2, from: 'fr' })],
      [3, stored({ seq: 3, from: 'de', ...unavailable })],
      [4, stored({ seq: 4, from: 'es', ...unavailable })],
      [5, stored({ seq: 5, from: 'it', lang: 'de', ...unavailable })],
      [6, stored({ seq: 6, from: 'ja', status: 'failed', text: null })],
    ]);
    expect(unavailableSources(shown, 'en')).toEqual(['es', 'de']);
    expect(unavailableSources(shown, 'zh')).toEqual([]);
    expect(unavailableSources(new Map(), 'en')).toEqual([]);
  });

  it('takes the source from the server info and the browser', () => {
    expect(translationSource(null, false)).toBe('server');
    expect(translationSource({ available: true }, true)).toBe('server');
    expect(translationSource({ available: false }, true)).toBe('device');
    expect(translationSource({ available: false }, false)).toBe('none');
  });
});

describe('order', () => {
  it('puts the translation first with mother tongue first, unless the message was switched', () => {
    expect(translationFirst(true, false)).toBe(true);
    expect(translationFirst(true, true)).toBe(false);
    expect(translationFirst(false, false)).toBe(false);
    expect(translationFirst(false, true)).toBe(true);
  });

  it('switches one message back and forth', () => {
    const once = toggleSwitched(new Set(['x']), 'y');
    expect([...once].sort()).toEqual(['x', 'y']);
    expect([...toggleSwitched(once, 'y')]).toEqual(['x']);
  });
});

describe('translationSummary', () => {
  it('says Off, or names the target language natively', () => {
    expect(translationSummary({ translate: false, translateTo: 'de' }, 'en', 'Off')).toBe('Off');
    expect(translationSummary({ translate: true, translateTo: 'de' }, 'en', 'Off')).toBe('Deutsch');
    expect(translationSummary({ translate: true, translateTo: null }, 'zh-Hant', 'Off')).toBe(
      '繁體中文',
    );
    expect(translationSummary({ translate: true, translateTo: null }, null, 'Off')).toBeNull();
  });
});
