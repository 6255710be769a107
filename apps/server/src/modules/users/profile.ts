import {
  type ChangePasswordBody,
  type Me,
  type Settings,
  type UpdateProfileBody,
  type UpdateSettingsBody,
} from '@teltlk/protocol';
import { uniqueViolationColumn } from '../../db/database.js';
import type { UserRow, UserUpdate } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { newId } from '../../lib/random.js';
import type { AuthInfo, ClientInfo } from '../auth/sessions.js';
import { TELTLK_ID_INTERVAL_MS } from './accounts.js';
import { toAvatarWebp } from './avatar.js';
import type { UserDeps, UserService } from './service.js';

/** Settings are 0/1 columns; undefined leaves a column as it is. */
const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/**
 * The caller's own account, as its owner changes it: profile, Teltlk ID, avatar, password
 * and settings. What other modules read of accounts is the user service's.
 */
export class UserProfile {
  constructor(
    private readonly deps: UserDeps,
    private readonly users: UserService,
  ) {}

  async me(auth: AuthInfo): Promise<Me> {
    return this.users.toMe(await this.users.get(auth.userId));
  }

  async updateProfile(auth: AuthInfo, body: UpdateProfileBody): Promise<Me> {
    return this.users.toMe(
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
    const user = await this.users.get(auth.userId);
    if (user.teltlk_id === teltlkId) return this.users.toMe(user);
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
    const previous = (await this.users.get(auth.userId)).avatar_path;
    let user: UserRow;
    try {
      user = await this.update(auth.userId, { avatar_path: key });
    } catch (error) {
      await files.remove(key);
      throw error;
    }
    if (previous) await files.remove(previous);
    return this.users.toMe(user);
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
    await this.users.checkPassword(await this.users.get(auth.userId), body.currentPassword);
    const hash = await passwords.hash(body.newPassword);
    const pending = await db.transaction().execute(async (trx) => {
      await this.users.setPasswordHash(auth.userId, hash, trx);
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
    return this.users.toSettings(await this.users.get(auth.userId));
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
    return this.users.toSettings(user);
  }

  /** Applies the defined fields of `changes`; an empty change just reads the row. */
  private async update(userId: string, changes: UserUpdate): Promise<UserRow> {
    const defined = Object.fromEntries(
      Object.entries(changes).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(defined).length === 0) return this.users.get(userId);
    const user = await this.deps.repo.update(userId, {
      ...defined,
      updated_at: this.deps.clock.now(),
    });
    if (!user) throw new AppError('UNAUTHENTICATED');
    return user;
  }
}
