import { readFile } from 'node:fs/promises';
import { DEFAULT_UI_LANGUAGE } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { zh_CN } from '../i18n/zh_CN';

describe('the static sign-in header of index.html', () => {
  it('says what the sign-in page says in the default language, beside the logo', async () => {
    const html = await readFile(new URL('../../index.html', import.meta.url), 'utf8');
    expect(DEFAULT_UI_LANGUAGE).toBe('zh_CN');
    expect(html).toContain(`<html lang="zh-CN">`);
    // The sign-in page's landmark too, so the page has its main before the app runs.
    expect(html).toContain('<main class="tt-page" aria-busy="true">');
    expect(html).toContain(`<h1>${zh_CN.login.welcome}</h1>`);
    expect(html).toContain(`<p>${zh_CN.login.tagline}</p>`);
    expect(html).toContain(`aria-label="${zh_CN.common.loading}"`);
    expect(html).toMatch(/<img class="tt-brand-mark" src="\.\/logo\.svg" width="72" height="72"/);
    // Nothing inline: the CSP allows only the site's own files.
    expect(html).not.toMatch(/<style|<script(?![^>]*\ssrc=)|\sstyle="/);
  });
});
