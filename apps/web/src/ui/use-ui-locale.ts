import { useTranslation } from 'react-i18next';
import { intlLocale, resolveUiLanguage } from '../i18n/language';

/**
 * The BCP 47 locale of the interface language, following language switches. A module of
 * its own: the pickers' module brings every country and language name along.
 */
export function useUiLocale(): string {
  const { i18n } = useTranslation();
  return intlLocale(resolveUiLanguage(i18n.language));
}
