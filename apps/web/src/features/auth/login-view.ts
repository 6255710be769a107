import { UI_LANGUAGES, type AuthResult, type UiLanguage } from '@teltlk/protocol';
import type { CatalogKey, TextParams } from '../../i18n/catalogs';
import { isUiLanguage } from '../../i18n/language';
import type { FormErrors, Message } from '../../ui/error-message';
import { lineIcon } from '../../ui/line-icons';
import { paths } from '../../app/paths';
import { checkLogin, type LoginField } from './login-rules';
import { setPageTitle } from '../../ui/page-title';

/*
 * The sign-in page, written against the DOM rather than React. It is what a signed-out
 * visitor sees first, so it runs before the app's framework has loaded (a slow phone
 * shows and answers at once); inside the app the same page is mounted by a small React
 * wrapper (login-page.tsx). There is one sign-in page either way.
 */

/** What the page needs from whoever shows it: the app, or the entry before the app. */
export interface LoginHost {
  /** The interface language the page is shown in. */
  language(): UiLanguage;
  /** A catalog text in that language. */
  text(key: CatalogKey, params?: TextParams): string;
  /** Switches the interface language; the page then calls `update()`'s work itself. */
  chooseLanguage(language: UiLanguage): Promise<void>;
  /** Starts the session of a successful sign-in and goes on to the signed-in app. */
  signedIn(result: AuthResult): Promise<void>;
}

export interface LoginView {
  /** Writes every text again in the host's current language. */
  update(): void;
  destroy(): void;
}

/** The calls load on the first focus in the form (or the first submit), not with the page. */
const loadRequests = () => import('./login-request');

type Attributes = Record<string, string | number | boolean | undefined>;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | null)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** A routed link: the app's router reads the hash, and the entry loads the app on it. */
const routeHref = (path: string) => `#${path}`;

interface Field {
  input: HTMLInputElement;
  control: HTMLDivElement;
  label: HTMLLabelElement;
  error: HTMLParagraphElement;
}

/** A labelled input with its error tied to it, as ui/text-field.tsx draws one. */
function field(id: string, attributes: Attributes, suffix: Node | null = null): [Field, Node] {
  const label = element('label', { class: 'tt-label', for: id });
  const input = element('input', { dir: 'auto', ...attributes, id, class: 'tt-input' });
  const control = element('div', { class: 'tt-field-control' }, input, suffix);
  const error = element('p', { id: `${id}-error`, class: 'tt-error', role: 'alert' });
  return [{ input, control, label, error }, element('div', { class: 'tt-field' }, label, control)];
}

function showFieldError(target: Field, message: string | undefined): void {
  if (message) {
    target.error.textContent = message;
    target.control.dataset.invalid = 'true';
    target.input.setAttribute('aria-invalid', 'true');
    target.input.setAttribute('aria-describedby', target.error.id);
    if (!target.error.isConnected) target.control.after(target.error);
  } else {
    delete target.control.dataset.invalid;
    target.input.removeAttribute('aria-invalid');
    target.input.removeAttribute('aria-describedby');
    target.error.remove();
  }
}

/** `/` and `/pages/login/login`: sign in with phone, email or Teltlk ID and a password. */
export function mountLoginView(main: HTMLElement, host: LoginHost): LoginView {
  let errors: FormErrors<LoginField> = { fields: {}, general: null };
  let busy = false;
  let passwordShown = false;
  const say = (message: Message | null | undefined) =>
    message ? host.text(message.key, message.params) : undefined;

  const languageLabel = element('label', { for: 'login-language' });
  const languageSelect = element('select', { id: 'login-language' });
  const [account, accountField] = field('login-account', {
    autocomplete: 'username',
    autocapitalize: 'off',
    spellcheck: 'false',
  });
  const toggleText = element('span', { class: 'tt-visually-hidden' });
  const toggle = element('button', { type: 'button', class: 'tt-icon-button' });
  const [password, passwordField] = field(
    'login-password',
    {
      type: 'password',
      autocomplete: 'current-password',
      autocapitalize: 'off',
      autocorrect: 'off',
      spellcheck: 'false',
    },
    toggle,
  );
  const alert = element('p', { class: 'tt-alert', role: 'alert' });
  const submitText = element('span');
  const submit = element(
    'button',
    { type: 'submit', class: 'tt-button tt-button-primary tt-button-block' },
    submitText,
  );
  const codeLogin = element('a', { class: 'tt-link-button', href: routeHref(paths.mobileLogin) });
  const forgot = element('a', { class: 'tt-link-button', href: routeHref(paths.forget) });
  const qrLogin = element('a', { class: 'tt-link-button', href: routeHref(paths.pcDevice) });
  const form = element(
    'form',
    { class: 'tt-form', novalidate: true },
    accountField,
    passwordField,
    submit,
    element('div', { class: 'tt-auth-links' }, codeLogin, qrLogin, forgot),
  );
  const register = element('a', {
    class: 'tt-button tt-button-secondary tt-button-block',
    href: routeHref(paths.register),
  });
  // Pioneers arriving from the Pi Browser sign in with their Pi account: there it comes
  // first, as the main way in.
  // The Pi Browser names itself in its user agent (as @teltlk/pi-sdk reads it); checked
  // here without the SDK, which this first page does not load.
  const inPiBrowser = /\bPiBrowser\b/i.test(navigator.userAgent);
  const piLogin = element('a', {
    class: `tt-button ${inPiBrowser ? 'tt-button-primary' : 'tt-button-secondary'} tt-button-block`,
    href: routeHref(paths.piLogin),
  });
  const legalPaths = [paths.agreement, paths.service, paths.privacy];
  const legalLinks = legalPaths.map((path) => element('a', { href: routeHref(path) }));
  const legal = element(
    'nav',
    {},
    element(
      'ul',
      { class: 'tt-legal-links' },
      ...legalLinks.map((link) => element('li', {}, link)),
    ),
  );
  const title = element('h1');
  const tagline = element('p');

  function drawToggle(): void {
    password.input.type = passwordShown ? 'text' : 'password';
    toggle.setAttribute('aria-pressed', String(passwordShown));
    toggle.replaceChildren(lineIcon(passwordShown ? 'eye' : 'eyeOff'), toggleText);
  }

  function drawErrors(): void {
    showFieldError(account, say(errors.fields.account));
    showFieldError(password, say(errors.fields.password));
    const general = say(errors.general);
    if (general) {
      alert.textContent = general;
      if (!alert.isConnected) submit.before(alert);
    } else alert.remove();
  }

  function drawBusy(): void {
    submit.disabled = busy;
    if (busy) submit.setAttribute('aria-busy', 'true');
    else submit.removeAttribute('aria-busy');
    const spinner = submit.querySelector('.tt-button-spinner');
    if (busy && !spinner)
      submit.prepend(element('span', { class: 'tt-button-spinner', 'aria-hidden': 'true' }));
    if (!busy) spinner?.remove();
  }

  function update(): void {
    const language = host.language();
    languageLabel.textContent = host.text('language.label');
    languageSelect.replaceChildren(
      ...UI_LANGUAGES.map((option) =>
        element(
          'option',
          { value: option, selected: option === language },
          document.createTextNode(host.text(`language.${option}`)),
        ),
      ),
    );
    languageSelect.value = language;
    title.textContent = host.text('login.welcome');
    tagline.textContent = host.text('login.tagline');
    form.setAttribute('aria-label', host.text('login.title'));
    account.label.textContent = host.text('login.account');
    account.input.placeholder = host.text('login.accountPlaceholder');
    password.label.textContent = host.text('login.password');
    toggleText.textContent = host.text('form.showPassword');
    submitText.textContent = host.text('login.submit');
    codeLogin.textContent = host.text('login.codeLogin');
    forgot.textContent = host.text('login.forgot');
    qrLogin.textContent = host.text('login.qrLogin');
    register.textContent = host.text('login.register');
    piLogin.textContent = host.text('login.withPi');
    legal.setAttribute('aria-label', host.text('login.legal'));
    const legalKeys = ['legal.agreement', 'legal.service', 'legal.privacy'] as const;
    legalLinks.forEach((link, index) => (link.textContent = host.text(legalKeys[index]!)));
    drawErrors();
    setPageTitle(host.text('common.appName'));
  }

  async function signIn(): Promise<void> {
    const requests = await loadRequests();
    let result: AuthResult;
    try {
      result = await requests.signInWithPassword(
        account.input.value,
        password.input.value,
        host.language(),
      );
    } catch (failure) {
      errors = requests.loginErrors(failure);
      return;
    }
    try {
      await host.signedIn(result);
    } catch {
      errors = { fields: {}, general: { key: 'fallback.load' } };
    }
  }

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    errors = { fields: checkLogin(account.input.value, password.input.value), general: null };
    drawErrors();
    if (Object.keys(errors.fields).length > 0) return;
    busy = true;
    drawBusy();
    void signIn()
      .catch(() => {
        errors = { fields: {}, general: { key: 'fallback.login' } };
      })
      .finally(() => {
        busy = false;
        // The page may have given way to the signed-in app meanwhile.
        if (!main.isConnected) return;
        drawBusy();
        drawErrors();
      });
  };
  const onToggle = () => {
    passwordShown = !passwordShown;
    drawToggle();
  };
  const onLanguage = () => {
    const chosen = languageSelect.value;
    if (isUiLanguage(chosen) && chosen !== host.language())
      void host.chooseLanguage(chosen).then(update);
  };
  const onFocus = () => void loadRequests();

  form.addEventListener('submit', onSubmit);
  form.addEventListener('focusin', onFocus, { once: true });
  toggle.addEventListener('click', onToggle);
  languageSelect.addEventListener('change', onLanguage);

  main.replaceChildren(
    element(
      'div',
      { class: 'tt-login-top' },
      element(
        'div',
        { class: 'tt-language-select' },
        lineIcon('globe'),
        languageLabel,
        languageSelect,
      ),
    ),
    element(
      'div',
      { class: 'tt-auth' },
      element(
        'div',
        { class: 'tt-brand' },
        element('img', {
          class: 'tt-brand-mark',
          src: './logo.svg',
          width: 72,
          height: 72,
          alt: '',
        }),
        title,
        tagline,
      ),
      ...(inPiBrowser ? [piLogin, form, register] : [form, register, piLogin]),
      legal,
    ),
  );
  main.removeAttribute('aria-busy');
  drawToggle();
  update();

  return {
    update,
    destroy() {
      form.removeEventListener('submit', onSubmit);
      form.removeEventListener('focusin', onFocus);
      toggle.removeEventListener('click', onToggle);
      languageSelect.removeEventListener('change', onLanguage);
    },
  };
}
