export interface CountryCode {
  code: string;
  dialCode: string;
}

export interface CountryOption extends CountryCode {
  name: string;
}

/** "+86" from "86", "+86" or "0086". */
export function formatDialCode(raw: string): string {
  const digits = raw.replace(/\D/g, '').replace(/^00/, '');
  return `+${digits}`;
}

function regionNames(locale: string): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  } catch {
    return null;
  }
}

/** The name of a country or region in the given locale, or its code when unknown. */
export function countryName(code: string, locale: string): string {
  return regionNames(locale)?.of(code) ?? code;
}

/** Countries named in the UI language and sorted the way that language sorts. */
export function countryOptions(codes: readonly CountryCode[], locale: string): CountryOption[] {
  const names = regionNames(locale);
  const collator = new Intl.Collator(locale);
  return codes
    .map((country) => ({
      code: country.code,
      dialCode: formatDialCode(country.dialCode),
      name: names?.of(country.code) ?? country.code,
    }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

/**
 * A sensible first guess of where someone is: the region of their browser languages,
 * else the one the interface language implies.
 */
export function guessRegion(browserLanguages: readonly string[], uiLanguage: string): string {
  for (const tag of browserLanguages) {
    try {
      const region = new Intl.Locale(tag).maximize().region;
      if (region && /^[A-Z]{2}$/.test(region)) return region;
    } catch {
      // Not a valid language tag; try the next one.
    }
  }
  return uiLanguage === 'zh_TW' ? 'TW' : uiLanguage === 'en_US' ? 'US' : 'CN';
}

/**
 * A full international number from a dial code and what the person typed. A number
 * typed with its own "+" wins; a national trunk "0" in front is dropped.
 */
export function composePhone(dialCode: string, typed: string): string {
  const trimmed = typed.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+')) return `+${digits}`;
  if (trimmed.startsWith('00') && digits.length > 10) return `+${digits.slice(2)}`;
  return `${formatDialCode(dialCode)}${digits.replace(/^0+/, '')}`;
}
