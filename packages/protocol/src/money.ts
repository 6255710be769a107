/**
 * Money as the ledger keeps it: integers in a currency's smallest unit, never floats.
 * Pi has 7 decimal places (one Pi is 10,000,000 units).
 */
export const CURRENCIES = { PI: { decimals: 7 } } as const;
export type Currency = keyof typeof CURRENCIES;

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && Object.hasOwn(CURRENCIES, value);
}

/**
 * Units of a decimal amount typed or sent as text ("3.5" → 35000000 for Pi), or null when
 * it is not a plain positive-or-zero decimal with at most the currency's places, or is too
 * large to count exactly.
 */
export function toUnits(amount: string, currency: Currency): number | null {
  const { decimals } = CURRENCIES[currency];
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > decimals) return null;
  const units = Number(whole + fraction.padEnd(decimals, '0'));
  return Number.isSafeInteger(units) ? units : null;
}

/** The decimal text of an amount in units ("35000000" → "3.5"), without trailing zeros. */
export function fromUnits(units: number, currency: Currency): string {
  const { decimals } = CURRENCIES[currency];
  const sign = units < 0 ? '-' : '';
  const digits = String(Math.abs(units)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
