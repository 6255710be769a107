import { TELTLK_ID_CHANGE_INTERVAL_DAYS, type Channel, type UiLanguage } from '@teltlk/protocol';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY } from '../../lib/clock.js';
import { newId, newSecret } from '../../lib/random.js';

/** How often a chosen Teltlk ID may change. */
export const TELTLK_ID_INTERVAL_MS = TELTLK_ID_CHANGE_INTERVAL_DAYS * DAY;

/** What registration knows of a new account. */
export interface NewAccount {
  /** The verified phone or email the account signs in with; none for one made through Pi. */
  login?: { channel: Channel; destination: string };
  /** null: no password (an account made through Pi); no password then matches. */
  passwordHash: string | null;
  /** The Pi account it is made for: uid as the Platform API returned it. */
  pi?: { uid: string; username: string };
  nickname: string;
  country: string;
  motherTongue: string;
  inviteCode?: string;
  uiLanguage?: UiLanguage;
}

/** A generated Teltlk ID or invite code was taken between our check and the insert; try again. */
export class GeneratedValueCollision extends Error {
  override name = 'GeneratedValueCollision';
}

/** A freshly generated Teltlk ID or invite code colliding twice in a row is all but impossible. */
const REGISTER_TRIES = 3;

/**
 * Runs `work` (a transaction that creates an account) again when a generated value
 * collided, a few times; then 'Registration failed'.
 */
export async function withFreshGeneratedValues<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof GeneratedValueCollision)) throw error;
      if (attempt >= REGISTER_TRIES) throw new AppError('REGISTRATION_FAILED');
    }
  }
}

/** What a new account row is given; everything else takes its default. */
export type NewUserFields = Pick<
  UserRow,
  | 'teltlk_id'
  | 'teltlk_id_changed_at'
  | 'phone'
  | 'email'
  | 'password_hash'
  | 'nickname'
  | 'country'
  | 'mother_tongue'
  | 'invite_code'
  | 'invited_by'
  | 'ui_language'
  | 'official'
> &
  Partial<Pick<UserRow, 'pi_uid' | 'pi_username'>>;

/**
 * A new account row: the given identity, default settings, no history. The one place a
 * user row's defaults are written (registration, official accounts, benchmark accounts).
 */
export function newUserRow(now: number, fields: NewUserFields): UserRow {
  return {
    ...fields,
    id: newId(),
    teltlk_id_lower: fields.teltlk_id.toLowerCase(),
    avatar_path: null,
    mother_tongue_first: 1,
    notifications: 1,
    vibration: 1,
    alert_sound: 1,
    notification_previews: 0,
    failed_logins: 0,
    login_locked_until: null,
    created_at: now,
    updated_at: now,
    event_seq: 0,
    pi_uid: fields.pi_uid ?? null,
    pi_username: fields.pi_username ?? null,
  };
}

/** Stored for an account without a password: not an argon2 hash, so no password matches. */
export function noPasswordHash(): string {
  return `!none!${newSecret()}`;
}

/** Whether a password can sign in to the account (an argon2 hash is stored). */
export function hasPassword(user: Pick<UserRow, 'password_hash'>): boolean {
  return user.password_hash.startsWith('$argon2');
}
