import {
  DEFAULT_UI_LANGUAGE,
  TELTLK_ID_CHANGE_INTERVAL_DAYS,
  type ChangePasswordBody,
  type Channel,
  type ErrorCode,
  type Me,
  type Settings,
  type UiLanguage,
  type UpdateProfileBody,
  type UpdateSettingsBody,
  type UserCard,
  accountKind,
} from '@teltlk/protocol';
import { uniqueViolationColumn } from '../../db/database.js';
import type { Db, UserRow, UserUpdate } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, type Clock } from '../../lib/clock.js';
import {
  clearFailures,
  reserveThenCheck,
  reserveUnlessLocked,
  type LockColumns,
} from '../../lib/attempts.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import { newId, newSecret } from '../../lib/random.js';
import type { AuthInfo, ClientInfo, SessionService } from '../auth/sessions.js';
import type { SecurityActivityLog } from '../security/activity.js';
import type { StepUpRule } from '../security/step-up.js';
import type { FileStore } from '../files/store.js';
import { toAvatarWebp } from './avatar.js';
import type { UserRepo } from './repo.js';
import { generateInviteCode, generateTeltlkId, loginLockSteps } from './rules.js';

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

const TELTLK_ID_INTERVAL_MS = TELTLK_ID_CHANGE_INTERVAL_DAYS * DAY;

/** Where an account counts wrong passwords and keeps the lock they earn. */
const loginColumns = (userId: string): LockColumns => ({
  table: 'users',
  key: { column: 'id', value: userId },
  count: 'failed_logins',
  lockedUntil: 'login_locked_until',
});
const GENERATION_TRIES = 10;

/** Settings are 0/1 columns; undefined leaves a column as it is. */
const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

export class UserService {
  constructor(
    private readonly deps: {
      db: Db;
      repo: UserRepo;
      sessions: SessionService;
      files: FileStore;
      passwords: PasswordHasher;
      clock: Clock;
      stepUp: StepUpRule;
      activity: SecurityActivityLog;
    },
  ) {}

  findByDestination(
    channel: Channel,
    destination: string,
    db: Db = this.deps.db,
  ): Promise<UserRow | undefined> {
    return this.deps.repo.in(db).findByDestination(channel, destination);
  }

  async isRegistered(channel: Channel, destination: string, db?: Db): Promise<boolean> {
    return (await this.findByDestination(channel, destination, db)) !== undefined;
  }

  /** Finds the account a sign-in string names: a phone number, an email or a Teltlk ID (any case). */
  findByAccount(account: string): Promise<UserRow | undefined> {
    const value = account.trim();
    switch (accountKind(value)) {
      case 'email':
        return this.deps.repo.findByDestination('email', value.toLowerCase());
      case 'phone':
        return this.deps.repo.findByDestination('phone', value);
      case 'teltlkId':
        return this.deps.repo.findByTeltlkId(value);
    }
  }

  /** Each of these users' mother tongue (the fallback when a text's language is unclear). */
  motherTongues(userIds: readonly string[]): Promise<Map<string, string>> {
    return this.deps.repo.motherTongues(userIds);
  }

  /** Ids of users who are not official accounts, after `afterId` in id order. */
  regularUserIds(afterId: string, limit: number): Promise<string[]> {
    return this.deps.repo.regularUserIds(afterId, limit);
  }

  /** The account; within a transaction, pass it (SQLite has one connection, held by it). */
  async get(userId: string, db: Db = this.deps.db): Promise<UserRow> {
    const user = await this.deps.repo.in(db).findById(userId);
    // Sessions are deleted with their user, so this only happens in a race with a deletion.
    if (!user) throw new AppError('UNAUTHENTICATED');
    return user;
  }

  findByPiUid(uid: string): Promise<UserRow | undefined> {
    return this.deps.repo.findByPiUid(uid);
  }

  /**
   * Binds the account to a Pi account (or unbinds it, with null), or refreshes the bound
   * account's username. One Pi account binds to one Teltlk account and the other way round.
   */
  async setPi(
    userId: string,
    pi: { uid: string; username: string } | null,
    db: Db,
    current?: UserRow,
  ): Promise<UserRow> {
    const repo = this.deps.repo.in(db);
    const user = current ?? (await repo.findById(userId));
    if (!user) throw new AppError('UNAUTHENTICATED');
    if (pi && user.pi_uid !== null && user.pi_uid !== pi.uid) {
      throw new AppError('ACCOUNT_PI_BOUND');
    }
    return this.updateUnique(
      db,
      userId,
      { pi_uid: pi?.uid ?? null, pi_username: pi?.username ?? null },
      { pi_uid: 'PI_ALREADY_BOUND' },
    );
  }

  /** Sets the account's phone or email to one just verified (a registration ticket). */
  async setDestination(
    userId: string,
    channel: Channel,
    destination: string,
    db: Db,
  ): Promise<UserRow> {
    const repo = this.deps.repo.in(db);
    if (await repo.findByDestination(channel, destination)) {
      throw new AppError('ACCOUNT_REGISTERED');
    }
    return this.updateUnique(
      db,
      userId,
      { [channel === 'email' ? 'email' : 'phone']: destination },
      { email: 'ACCOUNT_REGISTERED', phone: 'ACCOUNT_REGISTERED' },
    );
  }

  /** Updates the account; a unique column taken meanwhile is refused with its error. */
  private async updateUnique(
    db: Db,
    userId: string,
    changes: UserUpdate,
    taken: Partial<Record<string, ErrorCode>>,
  ): Promise<UserRow> {
    try {
      const updated = await this.deps.repo
        .in(db)
        .update(userId, { ...changes, updated_at: this.deps.clock.now() });
      if (!updated) throw new AppError('UNAUTHENTICATED');
      return updated;
    } catch (error) {
      const code = taken[uniqueViolationColumn(error) ?? ''];
      if (code) throw new AppError(code);
      throw error;
    }
  }

  /** Inserts a new account inside the caller's transaction. */
  async create(input: NewAccount, db: Db): Promise<UserRow> {
    const repo = this.deps.repo.in(db);
    const { login } = input;
    if (login && (await repo.findByDestination(login.channel, login.destination))) {
      throw new AppError('ACCOUNT_REGISTERED');
    }
    let invitedBy: string | null = null;
    if (input.inviteCode) {
      invitedBy = (await repo.findIdByInviteCode(input.inviteCode)) ?? null;
      if (!invitedBy) throw new AppError('INVITE_CODE_INVALID');
    }
    const teltlkId = await this.unused(
      generateTeltlkId,
      async (id) => !(await repo.findByTeltlkId(id)),
    );
    const user = newUserRow(this.deps.clock.now(), {
      teltlk_id: teltlkId,
      teltlk_id_changed_at: null,
      phone: login?.channel === 'phone' ? login.destination : null,
      email: login?.channel === 'email' ? login.destination : null,
      password_hash: input.passwordHash ?? noPasswordHash(),
      nickname: input.nickname,
      country: input.country,
      mother_tongue: input.motherTongue,
      invite_code: await this.unused(
        generateInviteCode,
        async (code) => !(await repo.findIdByInviteCode(code)),
      ),
      invited_by: invitedBy,
      ui_language: input.uiLanguage ?? DEFAULT_UI_LANGUAGE,
      official: 0,
      pi_uid: input.pi?.uid ?? null,
      pi_username: input.pi?.username ?? null,
    });
    try {
      await repo.insert(user);
    } catch (error) {
      const column = uniqueViolationColumn(error);
      if (column === 'email' || column === 'phone') throw new AppError('ACCOUNT_REGISTERED');
      if (column === 'pi_uid') throw new AppError('PI_ALREADY_BOUND');
      if (column === 'teltlk_id_lower' || column === 'invite_code') {
        throw new GeneratedValueCollision(column);
      }
      throw error;
    }
    return user;
  }

  /**
   * Inserts a product account (official): no email or phone, and a password hash no
   * password matches, so nobody can sign in as it. Its Teltlk ID counts as chosen.
   */
  async createOfficial(input: {
    teltlkId: string;
    nickname: string;
    country: string;
    motherTongue: string;
  }): Promise<UserRow> {
    const { repo } = this.deps;
    const user = newUserRow(this.deps.clock.now(), {
      teltlk_id: input.teltlkId,
      teltlk_id_changed_at: this.deps.clock.now(),
      phone: null,
      email: null,
      password_hash: noPasswordHash(),
      nickname: input.nickname,
      country: input.country,
      mother_tongue: input.motherTongue,
      invite_code: await this.unused(
        generateInviteCode,
        async (code) => !(await repo.findIdByInviteCode(code)),
      ),
      invited_by: null,
      ui_language: 'en_US',
      official: 1,
    });
    try {
      await repo.insert(user);
    } catch (error) {
      const column = uniqueViolationColumn(error);
      if (column === 'teltlk_id_lower') throw new AppError('TELTLK_ID_TAKEN');
      if (column === 'invite_code') throw new GeneratedValueCollision(column);
      throw error;
    }
    return user;
  }

  /**
   * Checks a password against the account's lock: after a few consecutive failures each
   * further one locks the account for longer; while locked, every attempt is refused
   * without being compared. The attempt is counted (and the lock it would earn set) before
   * the slow compare (reserveThenCheck); a correct password then clears the count.
   */
  async checkPassword(user: UserRow, password: string): Promise<void> {
    const { db, passwords, clock } = this.deps;
    // A place to hash first: a busy server refuses before anything is counted.
    const turn = passwords.turn();
    const columns = loginColumns(user.id);
    await reserveThenCheck({
      reserve: () =>
        reserveUnlessLocked(
          db,
          columns,
          loginLockSteps(),
          () => clock.now(),
          (seconds) => new AppError('LOGIN_LOCKED', { seconds }),
        ),
      compare: () => turn.verify(user.password_hash, password),
      right: () => clearFailures(db, columns),
      wrong: () => new AppError('PASSWORD_INCORRECT'),
      cancel: () => turn.cancel(),
    });
  }

  /** Sets a new password hash and forgets past failures (a reset proves who the owner is). */
  async setPasswordHash(userId: string, passwordHash: string, db: Db): Promise<void> {
    await this.deps.repo.in(db).update(userId, {
      password_hash: passwordHash,
      failed_logins: 0,
      login_locked_until: null,
      updated_at: this.deps.clock.now(),
    });
  }

  toMe(user: UserRow): Me {
    const changeableAt =
      user.teltlk_id_changed_at === null ? null : user.teltlk_id_changed_at + TELTLK_ID_INTERVAL_MS;
    return {
      id: user.id,
      teltlkId: user.teltlk_id,
      nickname: user.nickname,
      avatarUrl: user.avatar_path ? this.deps.files.urlOf(user.avatar_path) : null,
      country: user.country,
      motherTongue: user.mother_tongue,
      phone: user.phone,
      email: user.email,
      inviteCode: user.invite_code,
      teltlkIdChangeableAt:
        changeableAt !== null && changeableAt > this.deps.clock.now() ? changeableAt : null,
      createdAt: user.created_at,
      piUsername: user.pi_uid === null ? null : user.pi_username,
      hasPassword: hasPassword(user),
    };
  }

  /** What anyone may see of a user (contacts, conversation peers). */
  toCard(user: UserRow): UserCard {
    return {
      id: user.id,
      teltlkId: user.teltlk_id,
      nickname: user.nickname,
      avatarUrl: user.avatar_path ? this.deps.files.urlOf(user.avatar_path) : null,
      country: user.country,
      motherTongue: user.mother_tongue,
      official: user.official === 1,
    };
  }

  /** Cards of users by id; ids of users that no longer exist are left out. */
  async cardsOf(ids: readonly string[]): Promise<Map<string, UserCard>> {
    const rows = await this.deps.repo.findByIds([...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, this.toCard(row)]));
  }

  toSettings(user: UserRow): Settings {
    return {
      uiLanguage: user.ui_language as UiLanguage,
      motherTongueFirst: user.mother_tongue_first === 1,
      notifications: user.notifications === 1,
      vibration: user.vibration === 1,
      alertSound: user.alert_sound === 1,
      notificationPreviews: user.notification_previews === 1,
    };
  }

  async me(auth: AuthInfo): Promise<Me> {
    return this.toMe(await this.get(auth.userId));
  }

  async updateProfile(auth: AuthInfo, body: UpdateProfileBody): Promise<Me> {
    return this.toMe(
      await this.update(auth.userId, {
        nickname: body.nickname,
        country: body.country,
        mother_tongue: body.motherTongue,
      }),
    );
  }

  /**
   * Changes the Teltlk ID at most once per interval. The generated ID does not count as a
   * change. Asking for the current ID exactly changes nothing; a change of letter case is a
   * real change (people see it) and counts.
   */
  async changeTeltlkId(auth: AuthInfo, teltlkId: string): Promise<Me> {
    const { repo, clock } = this.deps;
    const user = await this.get(auth.userId);
    if (user.teltlk_id === teltlkId) return this.toMe(user);
    const now = clock.now();
    let changed: boolean;
    try {
      changed = await repo.changeTeltlkId(user.id, teltlkId, now, now - TELTLK_ID_INTERVAL_MS);
    } catch (error) {
      if (uniqueViolationColumn(error) === 'teltlk_id_lower') throw new AppError('TELTLK_ID_TAKEN');
      throw error;
    }
    if (!changed) throw new AppError('TELTLK_ID_MONTHLY');
    return this.me(auth);
  }

  async setAvatar(auth: AuthInfo, image: Buffer): Promise<Me> {
    const { files } = this.deps;
    const webp = await toAvatarWebp(image);
    const key = `avatars/${newId()}.webp`;
    await files.put(key, webp);
    const previous = (await this.get(auth.userId)).avatar_path;
    let user: UserRow;
    try {
      user = await this.update(auth.userId, { avatar_path: key });
    } catch (error) {
      await files.remove(key);
      throw error;
    }
    if (previous) await files.remove(previous);
    return this.toMe(user);
  }

  /**
   * Needs the current password (wrong ones count toward the lock), which is also the
   * step-up this sensitive action asks for; signs out every other session.
   */
  async changePassword(
    auth: AuthInfo,
    body: ChangePasswordBody,
    client: ClientInfo,
  ): Promise<void> {
    const { db, passwords, sessions, stepUp, activity } = this.deps;
    await this.checkPassword(await this.get(auth.userId), body.currentPassword);
    const hash = await passwords.hash(body.newPassword);
    const pending = await db.transaction().execute(async (trx) => {
      await this.setPasswordHash(auth.userId, hash, trx);
      await sessions.revokeAll(auth.userId, { except: auth.sessionId, db: trx });
      await stepUp.require(auth, 'account', 'password', trx);
      return activity.record(trx, {
        userId: auth.userId,
        action: 'passwordChanged',
        sessionId: auth.sessionId,
        client,
      });
    });
    activity.publish([pending]);
  }

  async settings(auth: AuthInfo): Promise<Settings> {
    return this.toSettings(await this.get(auth.userId));
  }

  async updateSettings(auth: AuthInfo, body: UpdateSettingsBody): Promise<Settings> {
    const user = await this.update(auth.userId, {
      ui_language: body.uiLanguage,
      mother_tongue_first: flag(body.motherTongueFirst),
      notifications: flag(body.notifications),
      vibration: flag(body.vibration),
      alert_sound: flag(body.alertSound),
      notification_previews: flag(body.notificationPreviews),
    });
    return this.toSettings(user);
  }

  /** Applies the defined fields of `changes`; an empty change just reads the row. */
  private async update(userId: string, changes: UserUpdate): Promise<UserRow> {
    const defined = Object.fromEntries(
      Object.entries(changes).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(defined).length === 0) return this.get(userId);
    const user = await this.deps.repo.update(userId, {
      ...defined,
      updated_at: this.deps.clock.now(),
    });
    if (!user) throw new AppError('UNAUTHENTICATED');
    return user;
  }

  private async unused(
    generate: () => string,
    isFree: (value: string) => Promise<boolean>,
  ): Promise<string> {
    for (let i = 0; i < GENERATION_TRIES; i += 1) {
      const value = generate();
      if (await isFree(value)) return value;
    }
    throw new AppError('REGISTRATION_FAILED');
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
