import type { LocalMessage } from '@teltlk/im-sdk';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  receivedText,
  storedTranslation as translation,
} from '../../ui/conversation/test-fixtures';
import { TranslatedText } from './translated-text';
import type { TranslationRowContext } from './use-translation';

const message = receivedText();

function context(patch: Partial<TranslationRowContext> = {}): TranslationRowContext {
  return {
    scope: { selfId: 'a', translate: true, target: 'en' },
    source: 'server',
    translations: new Map([[4, translation()]]),
    motherTongueFirst: true,
    switched: new Set(),
    onSwitch: () => {},
    request: () => {},
    retry: () => {},
    ...patch,
  };
}

function render(row: TranslationRowContext, shown: LocalMessage = message): string {
  return renderToStaticMarkup(<TranslatedText message={shown} original="bonjour" context={row} />);
}

/** Visible texts in document order, with the hidden labels taken out. */
const visibleOrder = (html: string) =>
  html
    .replace(/<span class="tt-visually-hidden">[^<]*<\/span>/g, '')
    .match(/<p [^>]*>([^<]*)<\/p>/g)
    ?.map((p) => p.replace(/<[^>]+>/g, ''));

describe('TranslatedText', () => {
  it('puts the translation first with mother tongue first, named to switch to the original', () => {
    const html = render(context());
    expect(visibleOrder(html)).toEqual(['hello', 'bonjour']);
    expect(html).toContain('aria-label="Show original first"');
    expect(html).toContain('<hr class="tt-msg-rule"/>');
  });

  it('puts the original first when switched, or without mother tongue first', () => {
    const switched = render(context({ switched: new Set(['b:client-0004']) }));
    expect(visibleOrder(switched)).toEqual(['bonjour', 'hello']);
    expect(switched).toContain('aria-label="Show translation first"');
    const originalFirst = render(context({ motherTongueFirst: false }));
    expect(visibleOrder(originalFirst)).toEqual(['bonjour', 'hello']);
  });

  it('shows the original with a pending mark, a retry button, or the quota text', () => {
    expect(render(context({ translations: new Map() }))).toContain(
      'role="img" aria-label="Translating…"',
    );
    const failed = render(
      context({ translations: new Map([[4, translation({ status: 'failed', text: null })]]) }),
    );
    expect(failed).toContain('>Translation failed, tap to retry</button>');
    const quota = render(
      context({
        translations: new Map([
          [4, translation({ status: 'failed', text: null, error: 'TRANSLATION_QUOTA_EXCEEDED' })],
        ]),
      }),
    );
    expect(quota).toMatch(
      />You have reached today\S+s translation limit, please try again tomorrow<\/button>/,
    );
  });

  it('shows the original alone for a pair nothing translates: the chat’s banner says so', () => {
    const unavailable = translation({
      status: 'unavailable',
      text: null,
      error: 'TRANSLATION_UNAVAILABLE',
    });
    const html = render(
      context({
        scope: { selfId: 'a', translate: true, target: 'zh-Hant' },
        translations: new Map([[4, unavailable]]),
      }),
    );
    expect(html).toBe('<p class="tt-msg-text" dir="auto" lang="fr">bonjour</p>');
  });

  it('leaves a same-language message alone', () => {
    expect(render(context(), { ...message, lang: 'en' })).toBe(
      '<p class="tt-msg-text" dir="auto" lang="en">bonjour</p>',
    );
  });
});
