import { UI_LANGUAGES, escapeHtml, type UiLanguage } from '@teltlk/protocol';
import { paths } from '../../app/paths';
import type { CatalogKey } from '../../i18n/catalogs';
import { lineIconMarkup } from '../../ui/line-icons';

/*
 * The sign-in page as HTML, without the DOM: the build writes it into index.html in the
 * default language, so the whole page is laid out and painted before any script runs,
 * and login-view.ts takes the same markup over (or writes it, inside the app). The parts
 * the view works with carry `data-login` names.
 */

export interface LoginMarkupOptions {
  language: UiLanguage;
  text: (key: CatalogKey) => string;
}

/** The names of the parts the view finds again in the markup. */
export type LoginPart =
  | 'language-label'
  | 'language'
  | 'title'
  | 'tagline'
  | 'form'
  | 'account'
  | 'account-label'
  | 'password'
  | 'password-label'
  | 'toggle'
  | 'toggle-text'
  | 'submit'
  | 'submit-text'
  | 'code-login'
  | 'qr-login'
  | 'forgot'
  | 'register'
  | 'pi-login'
  | 'legal';

/** The three legal documents the page links to, with their link texts. */
export const LEGAL_LINKS = [
  [paths.agreement, 'legal.agreement'],
  [paths.service, 'legal.service'],
  [paths.privacy, 'legal.privacy'],
] as const;

type Attributes = Record<string, string | boolean>;

function attributes(values: Attributes): string {
  return Object.entries(values)
    .map(([name, value]) => {
      if (value === false) return '';
      return value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`;
    })
    .join('');
}

const tag = (name: string, values: Attributes, inner = '') =>
  `<${name}${attributes(values)}>${inner}</${name}>`;

/** A routed link: the app's router reads the hash, and the entry loads the app on it. */
const routeHref = (path: string) => `#${path}`;

/** A labelled input, as ui/text-field.tsx draws one; its error is added when there is one. */
function field(
  name: 'account' | 'password',
  label: string,
  input: Attributes,
  suffix = '',
): string {
  const id = `login-${name}`;
  return tag(
    'div',
    { class: 'tt-field' },
    tag('label', { class: 'tt-label', for: id, 'data-login': `${name}-label` }, label) +
      tag(
        'div',
        { class: 'tt-field-control' },
        `<input${attributes({ dir: 'auto', ...input, id, class: 'tt-input', 'data-login': name })}>` +
          suffix,
      ),
  );
}

/**
 * The content of the sign-in page's `<main>`. Before the page's script has started the
 * language menu and the submit button are disabled (the button with its spinner): what
 * is typed meanwhile stays, as the view takes over these same elements.
 */
export function loginMarkup({ language, text }: LoginMarkupOptions, waiting = false): string {
  const text$ = (key: CatalogKey) => escapeHtml(text(key));
  const options = UI_LANGUAGES.map((option) =>
    tag('option', { value: option, selected: option === language }, text$(`language.${option}`)),
  ).join('');
  const top = tag(
    'div',
    { class: 'tt-login-top' },
    tag(
      'div',
      { class: 'tt-language-select' },
      lineIconMarkup('globe') +
        tag(
          'label',
          { for: 'login-language', 'data-login': 'language-label' },
          text$('language.label'),
        ) +
        tag(
          'select',
          { id: 'login-language', 'data-login': 'language', disabled: waiting },
          options,
        ),
    ),
  );
  const toggle = tag(
    'button',
    { type: 'button', class: 'tt-icon-button', 'aria-pressed': 'false', 'data-login': 'toggle' },
    lineIconMarkup('eyeOff') +
      tag(
        'span',
        { class: 'tt-visually-hidden', 'data-login': 'toggle-text' },
        text$('form.showPassword'),
      ),
  );
  const link = (part: LoginPart, path: string, key: CatalogKey) =>
    tag('a', { class: 'tt-link-button', href: routeHref(path), 'data-login': part }, text$(key));
  const form = tag(
    'form',
    { class: 'tt-form', novalidate: true, 'aria-label': text('login.title'), 'data-login': 'form' },
    field('account', text$('login.account'), {
      autocomplete: 'username',
      autocapitalize: 'off',
      spellcheck: 'false',
      placeholder: text('login.accountPlaceholder'),
    }) +
      field(
        'password',
        text$('login.password'),
        {
          type: 'password',
          autocomplete: 'current-password',
          autocapitalize: 'off',
          autocorrect: 'off',
          spellcheck: 'false',
        },
        toggle,
      ) +
      tag(
        'button',
        {
          type: 'submit',
          class: 'tt-button tt-button-primary tt-button-block',
          disabled: waiting,
          'aria-busy': waiting && 'true',
          'data-login': 'submit',
        },
        (waiting ? tag('span', { class: 'tt-button-spinner', 'aria-hidden': 'true' }) : '') +
          tag('span', { 'data-login': 'submit-text' }, text$('login.submit')),
      ) +
      tag(
        'div',
        { class: 'tt-auth-links' },
        link('code-login', paths.mobileLogin, 'login.codeLogin') +
          link('qr-login', paths.pcDevice, 'login.qrLogin') +
          link('forgot', paths.forget, 'login.forgot'),
      ),
  );
  const register = tag(
    'a',
    {
      class: 'tt-button tt-button-secondary tt-button-block',
      href: routeHref(paths.register),
      'data-login': 'register',
    },
    text$('login.register'),
  );
  const piLogin = tag(
    'a',
    {
      class: 'tt-button tt-button-secondary tt-button-block',
      href: routeHref(paths.piLogin),
      'data-login': 'pi-login',
    },
    text$('login.withPi'),
  );
  const legal = tag(
    'nav',
    { 'aria-label': text('login.legal'), 'data-login': 'legal' },
    tag(
      'ul',
      { class: 'tt-legal-links' },
      LEGAL_LINKS.map(([path, key]) =>
        tag('li', {}, tag('a', { href: routeHref(path) }, text$(key))),
      ).join(''),
    ),
  );
  const brand = tag(
    'div',
    { class: 'tt-brand' },
    `<img class="tt-brand-mark" src="./logo.svg" width="72" height="72" alt="">` +
      tag('h1', { 'data-login': 'title' }, text$('login.welcome')) +
      tag('p', { 'data-login': 'tagline' }, text$('login.tagline')),
  );
  // Signing in with Pi comes first in the Pi Browser (pi-first.ts).
  return top + tag('div', { class: 'tt-auth' }, brand + form + register + piLogin + legal);
}
