import { describe, expect, it } from 'vitest';
import { FakeProvider } from '../../test/fake-provider.js';
import { openAiProvider } from './providers/openai.js';
import { ProviderError } from './providers/provider.js';
import { translationReport } from './setup.js';

describe('the start-up translation report', () => {
  it('says plainly when no provider is configured', async () => {
    expect(await translationReport([])).toEqual([
      'Translation: no provider configured; messages are shown untranslated, except Chinese ' +
        "script conversion and the browser's on-device translator where present",
    ]);
  });

  it('names each provider in order with a summary of its pairs', async () => {
    const fromEnglish = (from: string, to: string) =>
      (from === 'en' && to !== 'en') || (from === 'es' && to === 'en');
    const listing = new FakeProvider(1, fromEnglish);
    const model = openAiProvider({ url: 'http://127.0.0.1:9/v1', apiKey: null, model: 'm' });
    const [heading, fake, openai] = await translationReport([listing, model]);
    expect(heading).toContain('in the order tried');
    expect(heading).toContain('zh <-> zh-Hant');
    // Hundreds of English targets are counted, not printed.
    expect(fake).toMatch(/^ {2}fake: \d+ pairs: en->\w+,\w+,\w+,\w+,\w+,\w+\(\+\d+\) es->en$/);
    expect(openai).toBe('  openai: any language pair');
  });

  it('says which engine could not be reached', async () => {
    const down = new FakeProvider();
    down.coverage = () => Promise.reject(new ProviderError('connection refused', true));
    const [, line] = await translationReport([down]);
    expect(line).toBe('  fake: could not be reached to list its pairs (asked again on use)');
  });
});
