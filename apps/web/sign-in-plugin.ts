import { DEFAULT_UI_LANGUAGE } from '@teltlk/protocol';
import type { Plugin } from 'vite';
import { loginMarkup } from './src/features/auth/login-markup';
import { catalogText } from './src/i18n/catalogs';
import { zh_CN } from './src/i18n/zh_CN';

/** Where index.html's `<main>` takes the sign-in page. */
export const SIGN_IN_SLOT = '<!-- sign-in page -->';

/**
 * index.html with the sign-in page written into it, in the default language (Simplified
 * Chinese), as it stands before its script has started: the page's first paint is the
 * whole page, and the script takes over its elements (login-view.ts).
 */
export function withSignInPage(html: string): string {
  if (DEFAULT_UI_LANGUAGE !== 'zh_CN') throw new Error('sign-in page: the default catalog moved');
  if (!html.includes(SIGN_IN_SLOT)) throw new Error(`sign-in page: ${SIGN_IN_SLOT} is missing`);
  const markup = loginMarkup(
    { language: DEFAULT_UI_LANGUAGE, text: (key) => catalogText(zh_CN, key) },
    true,
  );
  return html.replace(SIGN_IN_SLOT, () => markup);
}

export function signInPagePlugin(): Plugin {
  return {
    name: 'teltlk-sign-in-page',
    transformIndexHtml: { order: 'pre', handler: withSignInPage },
  };
}
