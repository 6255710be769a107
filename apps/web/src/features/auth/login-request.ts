import type { AuthResult } from '@teltlk/protocol';
import { api } from '../../api/client';
import { toFormErrors, type FormErrors } from '../../ui/error-message';
import { normaliseAccount } from './account';

/*
 * The sign-in page's calls, apart from the page: they bring the API client and its
 * response schemas, which the page loads once someone starts filling in the form.
 */

export type LoginField = 'account' | 'password';

export function signInWithPassword(account: string, password: string): Promise<AuthResult> {
  return api.login({ account: normaliseAccount(account), password });
}

export function loginErrors(failure: unknown): FormErrors<LoginField> {
  return toFormErrors(failure, {
    fields: ['account', 'password'],
    codeFields: { ACCOUNT_NOT_FOUND: 'account', PASSWORD_INCORRECT: 'password' },
    fallback: 'login',
  });
}
