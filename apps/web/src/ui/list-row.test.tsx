import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { InfoRow } from './list-row';

// The icon library resolves its own copy of React outside the bundler; icons are
// decoration here, so they render as nothing.
vi.mock('antd-mobile-icons', () => ({ RightOutline: () => null }));

describe('list rows', () => {
  it('take the direction of a right-to-left name and value from their text', () => {
    const html = renderToStaticMarkup(<InfoRow label="مريم" value="שלום" />);
    expect(html).toContain('<span class="tt-row-label" dir="auto">مريم</span>');
    expect(html).toContain('<span class="tt-row-value" dir="auto">שלום</span>');
  });
});
