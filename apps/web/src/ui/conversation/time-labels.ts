import { formatDate } from '../time';

const DAY_MS = 24 * 3600 * 1000;

function startOfDay(time: number): number {
  const date = new Date(time);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** Whole local calendar days between two times (0: the same day, 1: yesterday). */
export function daysBetween(then: number, now: number): number {
  return Math.round((startOfDay(now) - startOfDay(then)) / DAY_MS);
}

/**
 * The time of a chat list row, as messengers show it: the clock today, "Yesterday",
 * the weekday within a week, the date beyond.
 */
export function listTime(then: number, now: number, locale: string, yesterday: string): string {
  const days = daysBetween(then, now);
  if (days <= 0) return clockTime(then, locale);
  if (days === 1) return yesterday;
  if (days < 7) return new Intl.DateTimeFormat(locale, { weekday: 'short' }).format(then);
  const sameYear = new Date(then).getFullYear() === new Date(now).getFullYear();
  return new Intl.DateTimeFormat(
    locale,
    sameYear ? { month: 'numeric', day: 'numeric' } : { dateStyle: 'short' },
  ).format(then);
}

/** Hours and minutes, e.g. "14:05". */
export function clockTime(time: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(time);
}

/** A day separator in the message list: "Today", "Yesterday", else the date. */
export function dayLabel(
  time: number,
  now: number,
  locale: string,
  labels: { today: string; yesterday: string },
): string {
  const days = daysBetween(time, now);
  if (days === 0) return labels.today;
  if (days === 1) return labels.yesterday;
  return formatDate(time, locale);
}

const durationUnits = [
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
] as const;

/**
 * A duration in the largest whole unit, e.g. "30 seconds", "5 minutes", "1 hour",
 * "1小时": Intl names the units, so the catalogs need no plural forms.
 */
export function formatDuration(seconds: number, locale: string): string {
  const [unit, count] = durationUnits
    .map(([name, size]) => [name, seconds / size] as const)
    .find(([, value]) => Number.isInteger(value) && value > 0) ?? ['second', seconds];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(count);
}
