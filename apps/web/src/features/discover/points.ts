import { POINT_UNITS } from '@teltlk/protocol';

/** Points (counted in thousandths) as people read them: up to three decimals, or exactly `digits`. */
export function formatPoints(units: number, locale: string, digits?: number): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits ?? 0,
    maximumFractionDigits: digits ?? 3,
  }).format(units / POINT_UNITS);
}

/** `hh:mm:ss` of whole seconds. */
export function clockText(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const s = Math.max(0, Math.floor(seconds));
  return `${two(Math.floor(s / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

/**
 * Points earned by `at` on this device's clock, from the server's answer: what was earned
 * at `serverNow`, and the rate since. The device's clock may be off; only its progress
 * since the answer is used, never its absolute time.
 */
export function accruedNow(
  accrued: number,
  ratePerHour: number,
  answeredAt: number,
  at: number,
  leftMs: number,
): number {
  const elapsed = Math.min(Math.max(0, at - answeredAt), Math.max(0, leftMs));
  return accrued + Math.floor((ratePerHour * elapsed) / 3_600_000);
}
