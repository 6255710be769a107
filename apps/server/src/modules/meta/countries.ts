import type { CountryListResult } from '@teltlk/protocol';
import {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  isValidPhoneNumber,
} from 'libphonenumber-js/max';
import type { z } from 'zod';

/** Countries and phone numbers as libphonenumber-js knows them; names are localised by clients. */

let countryList: CountryListResult | null = null;

export function listCountries(): CountryListResult {
  countryList ??= {
    countries: getCountries()
      .map((code) => ({ code, dialCode: String(getCountryCallingCode(code)) }))
      .sort((a, b) => a.code.localeCompare(b.code)),
  };
  return countryList;
}

export function isCountryCode(code: string): boolean {
  return isSupportedCountry(code);
}

/** Full metadata, so a number is checked against real number ranges, not just its length. */
export function isValidPhone(phone: string): boolean {
  return isValidPhoneNumber(phone);
}

/**
 * Adds the checks the shared contract leaves to the server (it has no phone metadata):
 * a phone destination must be a real number and a country must be a known one.
 */
export function withPlaceChecks<T extends z.ZodType>(schema: T): T {
  return schema.superRefine((value, ctx) => {
    const { channel, destination, country } = (value ?? {}) as Record<string, unknown>;
    if (channel === 'phone' && typeof destination === 'string' && !isValidPhone(destination)) {
      ctx.addIssue({ code: 'custom', path: ['destination'], message: 'phone' });
    }
    if (typeof country === 'string' && !isCountryCode(country)) {
      ctx.addIssue({ code: 'custom', path: ['country'], message: 'country' });
    }
  });
}
