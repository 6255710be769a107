import { fromUnits, toUnits, type Currency } from '@teltlk/protocol';

/** An amount in units, written for the reader's locale ("1,234.5"), with up to the currency's places. */
export function formatMoney(units: number, currency: Currency, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 7 }).format(
    Number(fromUnits(units, currency)),
  );
}

/** Units of what a person typed (a comma as the decimal mark is taken too), or null. */
export function typedUnits(text: string, currency: Currency): number | null {
  return toUnits(text.trim().replace(',', '.'), currency);
}
