import { routes, ApiClient } from '@teltlk/client';
import type { AuthResult, UiLanguage } from '@teltlk/protocol';
import { intlLocale } from '../../i18n/language';
import { toFormErrors, type FormErrors } from '../../ui/error-message';
import { normaliseAccount } from './account';
import type { LoginField } from './login-rules';

/*
 * The sign-in page's call, apart from the page: it brings the API client and its response
 * schemas, which the page loads once someone starts filling in the form. No session is
 * involved yet, so it needs none of the app around the client (the page may be showing
 * before the app has loaded).
 */

export function signInWithPassword(
  account: string,
  password: string,
  language: UiLanguage,
): Promise<AuthResult> {
  const guest = new ApiClient({ getToken: () => null, getLanguage: () => intlLocale(language) });
  return guest.call(routes.auth.login, {
    body: { account: normaliseAccount(account), password },
  });
}

export function loginErrors(failure: unknown): FormErrors<LoginField> {
  return toFormErrors(failure, {
    fields: ['account', 'password'],
    codeFields: { ACCOUNT_NOT_FOUND: 'account', PASSWORD_INCORRECT: 'password' },
    fallback: 'login',
  });
}
