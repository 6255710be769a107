import { POINT_UNITS } from '@teltlk/protocol';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { SECOND } from '../../lib/clock.js';

/**
 * The amounts and rates of growth, in one table the operator changes without a release
 * (`growth:set`, README "Growth settings"). Points are whole thousandths here; the
 * operator writes them as points with up to three decimals.
 */
export interface GrowthSettings {
  /** Points per hour every mining session earns. */
  basicRate: number;
  /** Per hour, for each counted invitee mining now in the same country or region. */
  localBooster: number;
  /** Per hour, for each counted invitee mining now elsewhere. */
  otherBooster: number;
  /** Invitees counted for boosters at once (same-country ones first). */
  boosterCap: number;
  /** Per hour for the rest of the session, once a rewarded ad was watched. */
  adBooster: number;
  /** Points for places 1, 2, … of the closed month's invites ranking. */
  monthInvitesRewards: number[];
  /** Points for places 1, 2, … of the closed day's invites ranking. */
  dayInvitesRewards: number[];
}

export const DEFAULT_GROWTH_SETTINGS: GrowthSettings = {
  basicRate: 250,
  localBooster: 50,
  otherBooster: 25,
  boosterCap: 50,
  adBooster: 100,
  monthInvitesRewards: [
    100_000, 50_000, 30_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000,
  ],
  dayInvitesRewards: [10_000, 5_000, 3_000],
};

type Kind = 'points' | 'count' | 'points-list';
/** Each setting, how it is written, and what it means (for `growth:settings` and the README). */
export const GROWTH_SETTING_KEYS: Record<keyof GrowthSettings, { kind: Kind; about: string }> = {
  basicRate: { kind: 'points', about: 'points per hour of every mining session' },
  localBooster: {
    kind: 'points',
    about: 'points per hour for each invitee mining now in the same country or region',
  },
  otherBooster: {
    kind: 'points',
    about: 'points per hour for each invitee mining now in another country or region',
  },
  boosterCap: { kind: 'count', about: 'invitees counted for boosters at once' },
  adBooster: {
    kind: 'points',
    about: 'points per hour for the rest of a session after a rewarded ad',
  },
  monthInvitesRewards: {
    kind: 'points-list',
    about: 'points for places 1, 2, … of the closed month of invites (comma-separated)',
  },
  dayInvitesRewards: {
    kind: 'points-list',
    about: 'points for places 1, 2, … of the closed day of invites (comma-separated)',
  },
};

export function isSettingKey(key: string): key is keyof GrowthSettings {
  return Object.hasOwn(GROWTH_SETTING_KEYS, key);
}

const POINTS_TEXT = /^\d{1,9}(?:\.\d{1,3})?$/;
const MAX_PLACES = 100;

/** Points as the operator writes them (up to three decimals), in thousandths. */
export function parsePoints(text: string): number {
  const trimmed = text.trim();
  if (!POINTS_TEXT.test(trimmed)) {
    throw new RangeError(`"${text}" is not an amount of points (up to 3 decimals)`);
  }
  const [whole = '0', part = ''] = trimmed.split('.');
  return Number(whole) * POINT_UNITS + Number(part.padEnd(3, '0'));
}

/** A setting as the operator writes it, in the stored form; RangeError when it is not valid. */
export function parseSetting(key: keyof GrowthSettings, text: string): number | number[] {
  const { kind } = GROWTH_SETTING_KEYS[key];
  if (kind === 'count') {
    if (!/^\d{1,4}$/.test(text.trim())) throw new RangeError(`"${text}" is not a count`);
    return Number(text.trim());
  }
  if (kind === 'points') return parsePoints(text);
  const parts = text.trim() === '' ? [] : text.split(',');
  if (parts.length > MAX_PLACES) throw new RangeError(`at most ${MAX_PLACES} places`);
  return parts.map(parsePoints);
}

/** Thousandths as points, as the operator writes them (`2.5`, `10`). */
export function formatPoints(units: number): string {
  const whole = Math.floor(units / POINT_UNITS);
  const part = units % POINT_UNITS;
  return part === 0
    ? String(whole)
    : `${whole}.${String(part).padStart(3, '0').replace(/0+$/, '')}`;
}

/** A stored value as the operator writes it. */
export function formatSetting(key: keyof GrowthSettings, value: number | number[]): string {
  if (Array.isArray(value)) return value.map(formatPoints).join(',');
  return GROWTH_SETTING_KEYS[key].kind === 'count' ? String(value) : formatPoints(value);
}

/** A read is kept this long, so a busy server reads the table a few times a minute. */
const CACHE_MS = 10 * SECOND;

/** The settings in force: the defaults with the operator's overrides, cached briefly. */
export class GrowthSettingsStore {
  private cached: { at: number; settings: GrowthSettings } | null = null;

  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  async current(): Promise<GrowthSettings> {
    const now = this.deps.clock.now();
    if (this.cached && now - this.cached.at < CACHE_MS && now >= this.cached.at) {
      return this.cached.settings;
    }
    const rows = await this.deps.db.selectFrom('growth_settings').selectAll().execute();
    const settings: GrowthSettings = { ...DEFAULT_GROWTH_SETTINGS };
    for (const row of rows) {
      if (!isSettingKey(row.key)) continue;
      const value: unknown = JSON.parse(row.value);
      Object.assign(settings, { [row.key]: value });
    }
    this.cached = { at: now, settings };
    return settings;
  }

  async set(key: keyof GrowthSettings, value: number | number[] | null): Promise<void> {
    const { db, clock } = this.deps;
    if (value === null) {
      await db.deleteFrom('growth_settings').where('key', '=', key).execute();
    } else {
      const row = { key, value: JSON.stringify(value), updated_at: clock.now() };
      await db
        .insertInto('growth_settings')
        .values(row)
        .onConflict((c) =>
          c.column('key').doUpdateSet({ value: row.value, updated_at: row.updated_at }),
        )
        .execute();
    }
    this.cached = null;
  }
}
