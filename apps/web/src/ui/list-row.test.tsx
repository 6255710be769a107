import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { InfoRow } from './list-row';

describe('list rows', () => {
  it('take the direction of a right-to-left name and value from their text', () => {
    const html = renderToStaticMarkup(<InfoRow label="مريم" value="שלום" />);
    expect(html).toContain('<span class="tt-row-label" dir="auto">مريم</span>');
    expect(html).toContain('<span class="tt-row-value" dir="auto">שלום</span>');
  });
});
