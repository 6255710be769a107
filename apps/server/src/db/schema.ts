import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';

/**
 * Table types, kept beside the migrations that create them. Times are epoch milliseconds;
 * booleans are 0/1 integers on both dialects so rows read the same everywhere.
 */

export interface UsersTable {
  id: string;
  teltlk_id: string;
  teltlk_id_lower: string;
  /** Last change made by the user; null while the generated ID is still in use. */
  teltlk_id_changed_at: number | null;
  phone: string | null;
  email: string | null;
  password_hash: string;
  nickname: string;
  avatar_path: string | null;
  country: string;
  mother_tongue: string;
  invite_code: string;
  invited_by: string | null;
  ui_language: string;
  mother_tongue_first: number;
  notifications: number;
  vibration: number;
  alert_sound: number;
  failed_logins: number;
  login_locked_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface VerificationCodesTable {
  id: string;
  purpose: string;
  channel: string;
  destination: string;
  code_hash: string;
  ip: string | null;
  created_at: number;
  expires_at: number;
  attempts: number;
  /** Set when the code was used, burnt by wrong guesses, superseded or failed to send. */
  consumed_at: number | null;
  ticket_hash: string | null;
  ticket_expires_at: number | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
}

/** The database or a transaction on it: repos take either. */
export type Db = Kysely<Database>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type CodeRow = Selectable<VerificationCodesTable>;
