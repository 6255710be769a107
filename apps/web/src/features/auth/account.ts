import { accountKind } from '@teltlk/protocol';

/**
 * The sign-in account as the server expects it: a phone without spaces or dashes, an
 * email in lower case, a Teltlk ID as typed (trimmed).
 */
export function normaliseAccount(raw: string): string {
  const value = raw.trim();
  switch (accountKind(value)) {
    case 'phone':
      return `+${value.replace(/\D/g, '')}`;
    case 'email':
      return value.toLowerCase();
    case 'teltlkId':
      return value;
  }
}
