import { useMemo } from 'react';
import { useCountryCodes } from '../api/queries';
import type { Choice } from './choice-list';
import { countryOptions, type CountryOption } from './countries';
import { languageOptions } from './languages';
import { useUiLocale } from './use-ui-locale';

/** Countries from the server, named in the interface language. */
export function useCountryOptions(): {
  countries: CountryOption[];
  isLoading: boolean;
  error: unknown;
} {
  const locale = useUiLocale();
  const query = useCountryCodes();
  const countries = useMemo(
    () => countryOptions(query.data?.countries ?? [], locale),
    [query.data, locale],
  );
  return { countries, isLoading: query.isLoading, error: query.error };
}

export function countryChoices(
  countries: readonly CountryOption[],
  withDialCode: boolean,
): Choice[] {
  return countries.map((country) => ({
    value: country.code,
    primary: country.name,
    aside: withDialCode ? country.dialCode : undefined,
    keywords: `${country.code} ${country.dialCode}`,
  }));
}

/** Mother tongues: native name first, the name in the interface language beside it. */
export function useLanguageChoices(): Choice[] {
  const locale = useUiLocale();
  return useMemo(
    () =>
      languageOptions(locale).map((language) => ({
        value: language.code,
        primary: language.native,
        secondary: language.localized === language.native ? undefined : language.localized,
        keywords: `${language.english} ${language.code}`,
      })),
    [locale],
  );
}
