import type { AuthResult, UiLanguage } from '@teltlk/protocol';
import type { CatalogKey, TextParams } from '../../i18n/catalogs';
import { isUiLanguage } from '../../i18n/language';
import type { FormErrors, Message } from '../../ui/error-message';
import { onFocusWithin } from '../../ui/first-use';
import { lineIconMarkup } from '../../ui/line-icons';
import { setPageTitle } from '../../ui/page-title';
import { LEGAL_LINKS, loginMarkup, type LoginPart } from './login-markup';
import { checkLogin, type LoginField } from './login-rules';
import { putPiLoginFirst } from './pi-first';

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

interface Field {
  input: HTMLInputElement;
  control: HTMLElement;
  error: HTMLParagraphElement;
}

/** A text written only when it changes: the page taken over from index.html is not laid out again. */
function write(node: Element, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

function writeAttribute(node: Element, name: string, value: string): void {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
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

/**
 * `/` and `/pages/login/login`: sign in with phone, email or Teltlk ID and a password.
 * The page's elements are index.html's when the entry shows it (written there at build,
 * see login-markup.ts), kept with whatever was typed into them meanwhile; inside the app
 * they are written here from the same markup.
 */
export function mountLoginView(main: HTMLElement, host: LoginHost): LoginView {
  let errors: FormErrors<LoginField> = { fields: {}, general: null };
  let busy = false;
  let passwordShown = false;
  const say = (message: Message | null | undefined) =>
    message ? host.text(message.key, message.params) : undefined;

  if (!main.querySelector('[data-login="form"]')) {
    main.innerHTML = loginMarkup({ language: host.language(), text: (key) => host.text(key) });
  }
  const part = <T extends HTMLElement>(name: LoginPart) =>
    main.querySelector<T>(`[data-login="${name}"]`)!;
  const alertParagraph = (className: string) => {
    const paragraph = document.createElement('p');
    paragraph.className = className;
    paragraph.setAttribute('role', 'alert');
    return paragraph;
  };
  const field = (name: 'account' | 'password'): Field => {
    const input = part<HTMLInputElement>(name);
    const error = alertParagraph('tt-error');
    error.id = `${input.id}-error`;
    return { input, control: input.parentElement!, error };
  };
  const languageSelect = part<HTMLSelectElement>('language');
  const form = part<HTMLFormElement>('form');
  const account = field('account');
  const password = field('password');
  const toggle = part<HTMLButtonElement>('toggle');
  const submit = part<HTMLButtonElement>('submit');
  const alert = alertParagraph('tt-alert');
  const legal = part('legal');
  // Done already by the entry for index.html's page, before it showed.
  putPiLoginFirst(main);
  // Each text of the page, found once.
  const textKeys: [LoginPart, CatalogKey][] = [
    ['language-label', 'language.label'],
    ['title', 'login.welcome'],
    ['tagline', 'login.tagline'],
    ['account-label', 'login.account'],
    ['password-label', 'login.password'],
    ['toggle-text', 'form.showPassword'],
    ['submit-text', 'login.submit'],
    ['code-login', 'login.codeLogin'],
    ['qr-login', 'login.qrLogin'],
    ['forgot', 'login.forgot'],
    ['register', 'login.register'],
    ['pi-login', 'login.withPi'],
  ];
  const texts = textKeys.map(([name, key]) => [part(name), key] as const);

  function drawToggle(): void {
    password.input.type = passwordShown ? 'text' : 'password';
    toggle.setAttribute('aria-pressed', String(passwordShown));
    toggle.querySelector('svg')!.outerHTML = lineIconMarkup(passwordShown ? 'eye' : 'eyeOff');
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
    if (busy && !spinner) {
      const added = document.createElement('span');
      added.className = 'tt-button-spinner';
      added.setAttribute('aria-hidden', 'true');
      submit.prepend(added);
    }
    if (!busy) spinner?.remove();
  }

  function update(): void {
    const language = host.language();
    for (const option of languageSelect.options) {
      if (isUiLanguage(option.value)) write(option, host.text(`language.${option.value}`));
    }
    languageSelect.value = language;
    for (const [node, key] of texts) write(node, host.text(key));
    writeAttribute(form, 'aria-label', host.text('login.title'));
    writeAttribute(account.input, 'placeholder', host.text('login.accountPlaceholder'));
    writeAttribute(legal, 'aria-label', host.text('login.legal'));
    legal.querySelectorAll('a').forEach((link, index) => {
      const entry = LEGAL_LINKS[index];
      if (entry) write(link, host.text(entry[1]));
    });
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
  form.addEventListener('submit', onSubmit);
  toggle.addEventListener('click', onToggle);
  languageSelect.addEventListener('change', onLanguage);

  // Ready: what index.html held back until now (see loginMarkup) is let go.
  main.removeAttribute('aria-busy');
  languageSelect.disabled = false;
  drawBusy();
  update();
  const stopFocusWatch = onFocusWithin(form, () => void loadRequests());

  return {
    update,
    destroy() {
      form.removeEventListener('submit', onSubmit);
      stopFocusWatch();
      toggle.removeEventListener('click', onToggle);
      languageSelect.removeEventListener('change', onLanguage);
    },
  };
}
