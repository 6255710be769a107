import { readFile } from 'node:fs/promises';
import { DEFAULT_UI_LANGUAGE } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { paths } from './src/app/paths';
import { loginMarkup } from './src/features/auth/login-markup';
import { catalogText } from './src/i18n/catalogs';
import { zh_CN } from './src/i18n/zh_CN';
import { SIGN_IN_SLOT, withSignInPage } from './sign-in-plugin';

const indexHtml = () => readFile(new URL('./index.html', import.meta.url), 'utf8');

describe('the sign-in page written into index.html', () => {
  it('is the whole page in the default language, held back but for its header', async () => {
    const html = withSignInPage(await indexHtml());
    expect(DEFAULT_UI_LANGUAGE).toBe('zh_CN');
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).not.toContain(SIGN_IN_SLOT);
    // The landmark, busy and held until the entry knows the visitor is signed out.
    expect(html).toContain('<main class="tt-page" aria-busy="true" data-signin="held">');
    expect(html).toContain(`<h1 data-login="title">${zh_CN.login.welcome}</h1>`);
    expect(html).toContain(`<p data-login="tagline">${zh_CN.login.tagline}</p>`);
    expect(html).toMatch(/<img class="tt-brand-mark" src="\.\/logo\.svg" width="72" height="72"/);
    expect(html).toContain(`<form class="tt-form" novalidate aria-label="${zh_CN.login.title}"`);
    expect(html).toMatch(/<input dir="auto" autocomplete="username"[^>]* id="login-account"/);
    expect(html).toMatch(/<input dir="auto" type="password"[^>]* id="login-password"/);
    expect(html).toContain(
      `<label class="tt-label" for="login-account" data-login="account-label">${zh_CN.login.account}</label>`,
    );
    // Nothing can be sent or switched before the page's script has started.
    expect(html).toMatch(/<button type="submit"[^>]* disabled aria-busy="true"/);
    expect(html).toMatch(/<select id="login-language" data-login="language" disabled>/);
    expect(html).toContain('<option value="zh_CN" selected>简体中文</option>');
    expect(html).toContain(
      `<span class="boot-spinner" role="status" aria-label="${zh_CN.common.loading}">`,
    );
    for (const path of [paths.register, paths.piLogin, paths.forget, paths.agreement]) {
      expect(html).toContain(`href="#${path}"`);
    }
    // Nothing inline: the CSP allows only the site's own files.
    expect(html).not.toMatch(/<style|<script(?![^>]*\ssrc=)|\sstyle="/);
  });

  it('refuses an index.html without its place', () => {
    expect(() => withSignInPage('<main class="tt-page"></main>')).toThrow(/sign-in page/);
  });
});

describe('the sign-in page markup', () => {
  const text = (key: Parameters<typeof catalogText>[1]) => catalogText(zh_CN, key);

  it('is ready to use when the view writes it', () => {
    const markup = loginMarkup({ language: 'en_US', text });
    expect(markup).not.toMatch(/disabled|aria-busy|tt-button-spinner/);
    expect(markup).toContain('<option value="en_US" selected>');
    // Every part the view takes over is there once.
    for (const part of ['form', 'account', 'password', 'submit', 'toggle', 'legal', 'pi-login']) {
      expect(markup.split(`data-login="${part}"`)).toHaveLength(2);
    }
  });

  it('escapes its texts', () => {
    const markup = loginMarkup({ language: 'zh_CN', text: () => '<b>"&"</b>' });
    expect(markup).not.toContain('<b>');
    expect(markup).toContain('&lt;b&gt;&quot;&amp;&quot;&lt;/b&gt;');
  });
});
