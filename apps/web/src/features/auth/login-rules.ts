import type { Message } from '../../ui/error-message';

export type LoginField = 'account' | 'password';

/** What the sign-in form says before asking the server: both fields are needed. */
export function checkLogin(
  account: string,
  password: string,
): Partial<Record<LoginField, Message>> {
  const fields: Partial<Record<LoginField, Message>> = {};
  if (!account.trim()) fields.account = { key: 'rule.account' };
  if (!password) fields.password = { key: 'rule.password' };
  return fields;
}
