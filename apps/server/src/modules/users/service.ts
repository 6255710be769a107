import {
  DEFAULT_UI_LANGUAGE,
  type Channel,
  type ErrorCode,
  type Me,
  type Settings,
  type UiLanguage,
  type UserCard,
  accountKind,
} from '@teltlk/protocol';
import { uniqueViolationColumn } from '../../db/database.js';
import type { Db, UserRow, UserUpdate } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import {
  clearFailures,
  reserveThenCheck,
  reserveUnlessLocked,
  type LockColumns,
} from '../../lib/attempts.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import type { SessionService } from '../auth/sessions.js';
import type { SecurityActivityLog } from '../security/activity.js';
import type { StepUpRule } from '../security/step-up.js';
import type { FileStore } from '../files/store.js';
import {
  GeneratedValueCollision,
  TELTLK_ID_INTERVAL_MS,
  hasPassword,
  newUserRow,
  noPasswordHash,
  type NewAccount,
} from './accounts.js';
import { UserProfile } from './profile.js';
import type { UserRepo } from './repo.js';
import { generateInviteCode, generateTeltlkId, loginLockSteps } from './rules.js';

export {
  GeneratedValueCollision,
  hasPassword,
  newUserRow,
  noPasswordHash,
  withFreshGeneratedValues,
  type NewAccount,
  type NewUserFields,
} from './accounts.js';

/** Where an account counts wrong passwords and keeps the lock they earn. */
const loginColumns = (userId: string): LockColumns => ({
  table: 'users',
  key: { column: 'id', value: userId },
  count: 'failed_logins',
  lockedUntil: 'login_locked_until',
});
const GENERATION_TRIES = 10;

/** What the user service is built on. */
export interface UserDeps {
  db: Db;
  repo: UserRepo;
  sessions: SessionService;
  files: FileStore;
  passwords: PasswordHasher;
  clock: Clock;
  stepUp: StepUpRule;
  activity: SecurityActivityLog;
}

/**
 * Accounts as the other modules read and make them: finding, creating, binding to Pi,
 * checking passwords, and what others see of a user. The owner's own changes are the
 * profile's.
 */
export class UserService {
  readonly profile: UserProfile;

  constructor(private readonly deps: UserDeps) {
    this.profile = new UserProfile(deps, this);
  }

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
