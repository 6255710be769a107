import { describe, expect, it } from 'vitest';
import { en_US } from './documents-en_US';
import { zh_CN } from './documents-zh_CN';
import { zh_TW } from './documents-zh_TW';

const kinds = ['agreement', 'service', 'privacy'] as const;

describe('legal texts', () => {
  it.each(kinds)('%s has the same sections in every language', (kind) => {
    const shape = (texts: typeof en_US) =>
      texts[kind].map((section) => [section.paragraphs.length, section.items?.length ?? 0]);
    expect(shape(zh_CN)).toEqual(shape(en_US));
    expect(shape(zh_TW)).toEqual(shape(en_US));
  });

  it.each(kinds)('%s has real text, no placeholders', (kind) => {
    for (const texts of [en_US, zh_CN, zh_TW]) {
      for (const section of texts[kind]) {
        for (const text of [section.heading, ...section.paragraphs, ...(section.items ?? [])]) {
          expect(text.trim().length).toBeGreaterThan(1);
          expect(text).not.toMatch(/lorem|ipsum|TODO/i);
        }
      }
    }
  });
});
