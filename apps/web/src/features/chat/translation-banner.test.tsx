import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { storedTranslation as translation } from '../../ui/conversation/test-fixtures';
import type { DevicePairState } from './device-translator';
import { bannerMode, TranslationBanner } from './translation-banner';
import type { TranslationRowContext } from './use-translation';

const unavailable = {
  status: 'unavailable',
  text: null,
  error: 'TRANSLATION_UNAVAILABLE',
} as const;

function context(patch: Partial<TranslationRowContext> = {}): TranslationRowContext {
  return {
    scope: { selfId: 'a', translate: true, target: 'en' },
    source: 'none',
    translations: new Map([
      [4, translation({ seq: 4, from: 'es', ...unavailable })],
      [5, translation({ seq: 5, from: 'de', ...unavailable })],
      [6, translation({ seq: 6, from: 'es', ...unavailable })],
      [7, translation({ seq: 7, from: 'fr' })],
    ]),
    motherTongueFirst: true,
    switched: new Set(),
    onSwitch: () => {},
    request: () => {},
    retry: () => {},
    ...patch,
  };
}

const render = (row: TranslationRowContext) =>
  renderToStaticMarkup(<TranslationBanner conversationId="si_a_b" context={row} />);

describe('TranslationBanner', () => {
  it('names once the languages nothing here translates, what still works and how to translate one', () => {
    const html = render(context());
    expect(html.match(/<aside /g)).toHaveLength(1);
    expect(html).toContain('aria-label="Translation"');
    expect(html).toContain(
      '<p>This server doesn’t translate Spanish and German into English, so those messages show as written.</p>',
    );
    expect(html).toContain('work as usual');
    expect(html).toContain('To translate one message, press and hold it');
    expect(html).toContain('aria-label="Close"');
  });

  it('says nothing where every shown message is translated, or translation is off', () => {
    const translated = context({ translations: new Map([[7, translation({ seq: 7 })]]) });
    expect(render(translated)).toBe('');
    const off = context({ scope: { selfId: 'a', translate: false, target: 'en' } });
    expect(render(off)).toBe('');
  });
});

describe('bannerMode', () => {
  const states = (map: Record<string, DevicePairState>) => (from: string) =>
    map[from] ?? { kind: 'unavailable' };
  const open = () => false;

  it('shows a download under way first, at the pace of the slowest pack', () => {
    const mode = bannerMode(
      ['es', 'de', 'ja'],
      states({
        es: { kind: 'downloading', progress: 0.8 },
        de: { kind: 'downloading', progress: 0.3 },
        ja: { kind: 'downloadable' },
      }),
      open,
    );
    expect(mode).toEqual({ kind: 'downloading', sources: ['es', 'de'], progress: 0.3 });
    expect(
      bannerMode(['es'], states({ es: { kind: 'downloading', progress: null } }), open),
    ).toEqual({ kind: 'downloading', sources: ['es'], progress: null });
  });

  it('offers a pack to download, then a retry of a failed one, then says what is unavailable', () => {
    const all = states({
      es: { kind: 'downloadable' },
      de: { kind: 'failed' },
      it: { kind: 'ready' },
      ja: { kind: 'checking' },
    });
    expect(bannerMode(['es', 'de', 'fr'], all, open)).toEqual({
      kind: 'downloadable',
      sources: ['es'],
    });
    expect(bannerMode(['de', 'fr'], all, open)).toEqual({ kind: 'failed', sources: ['de'] });
    expect(bannerMode(['fr', 'it', 'ja'], all, open)).toEqual({
      kind: 'unavailable',
      sources: ['fr'],
    });
    // Translated on the device, or still being asked about: no banner.
    expect(bannerMode(['it', 'ja'], all, open)).toBeNull();
  });

  it('stays closed for the languages it was closed for', () => {
    const none = states({});
    expect(bannerMode(['es', 'de'], none, (from) => from === 'es')).toEqual({
      kind: 'unavailable',
      sources: ['de'],
    });
    expect(bannerMode(['es'], none, () => true)).toBeNull();
    const offered = states({ es: { kind: 'downloadable' }, de: { kind: 'failed' } });
    expect(bannerMode(['es', 'de'], offered, () => true)).toBeNull();
    // A download the person started shows whatever was closed before.
    const started = states({ es: { kind: 'downloading', progress: 0.5 } });
    expect(bannerMode(['es'], started, () => true)).toEqual({
      kind: 'downloading',
      sources: ['es'],
      progress: 0.5,
    });
  });
});
