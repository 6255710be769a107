import { composePhone } from '../../ui/countries';

/**
 * What to look up. The server matches phones as +E.164: a number with "+" loses its
 * spaces and dashes, and digits alone are a number in the searcher's own country.
 * Anything else (Teltlk ID, email) goes as typed.
 */
export function searchTerm(typed: string, dialCode: string | undefined): string {
  const trimmed = typed.trim();
  if (/^\+[\d\s()-]+$/.test(trimmed)) return `+${trimmed.replace(/\D/g, '')}`;
  if (dialCode && /^[\d\s()-]+$/.test(trimmed) && /\d/.test(trimmed)) {
    return composePhone(dialCode, trimmed);
  }
  return trimmed;
}
