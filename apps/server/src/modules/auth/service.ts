import type {
  AuthResult,
  CodeLoginBody,
  PasswordLoginBody,
  RegisterBody,
  ResetPasswordBody,
} from '@teltlk/protocol';
import type { Db, UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import { withFreshGeneratedValues, type UserService } from '../users/service.js';
import type { CheckedCode, CodeService } from './codes.js';
import type { SecurityActivityLog } from '../security/activity.js';
import type { AuthInfo, ClientInfo, SessionOrigin, SessionService } from './sessions.js';

/** Registration, sign-in (password or code), password reset and sign-out. */
export class AuthService {
  constructor(
    private readonly deps: {
      db: Db;
      users: UserService;
      sessions: SessionService;
      codes: CodeService;
      passwords: PasswordHasher;
      activity: SecurityActivityLog;
    },
  ) {}

  /** Uses the ticket, creates the account and its first session, all or nothing. */
  async register(body: RegisterBody, client: ClientInfo): Promise<AuthResult> {
    const { db, users, codes, passwords } = this.deps;
    // Hashing is slow on purpose: only for a ticket that can still work, and before holding
    // a transaction open. The transaction takes the ticket for good.
    await codes.checkTicket(body.ticket);
    const passwordHash = await passwords.hash(body.password);
    return withFreshGeneratedValues(() =>
      db.transaction().execute(async (trx) => {
        const login = await codes.takeTicket(body.ticket, trx);
        const user = await users.create(
          {
            login,
            passwordHash,
            nickname: body.nickname,
            country: body.country,
            motherTongue: body.motherTongue,
            inviteCode: body.inviteCode,
            uiLanguage: body.uiLanguage,
          },
          trx,
        );
        return this.signIn(user, client, 'code', trx);
      }),
    );
  }

  async login(body: PasswordLoginBody, client: ClientInfo): Promise<AuthResult> {
    const { users, passwords } = this.deps;
    const user = await users.findByAccount(body.account);
    if (!user) {
      await passwords.turn().verifyDummy(body.password);
      throw new AppError('ACCOUNT_NOT_FOUND');
    }
    await users.checkPassword(user, body.password);
    return this.signIn(user, client, 'password');
  }

  async loginWithCode(body: CodeLoginBody, client: ClientInfo): Promise<AuthResult> {
    const { users, codes } = this.deps;
    return codes.redeem({ purpose: 'login', ...body }, async (trx) => {
      const user = await users.findByDestination(body.channel, body.destination, trx);
      if (!user) throw new AppError('ACCOUNT_NOT_FOUND');
      return this.signIn(user, client, 'code', trx);
    });
  }

  /** Sets the new password and signs every session of the account out. */
  async resetPassword(body: ResetPasswordBody, client: ClientInfo): Promise<void> {
    const { users, codes, sessions, passwords, activity } = this.deps;
    // The place to hash first, so a busy server does not spend one of the code's attempts;
    // then the code, so a wrong one never costs a hash.
    const turn = passwords.turn();
    let checked: CheckedCode;
    try {
      checked = await codes.check({ purpose: 'reset', ...body });
    } catch (error) {
      turn.cancel();
      throw error;
    }
    const passwordHash = await turn.hash(body.password);
    const pending = await codes.use(checked, async (trx) => {
      const user = await users.findByDestination(body.channel, body.destination, trx);
      if (!user) throw new AppError('ACCOUNT_NOT_FOUND');
      await users.setPasswordHash(user.id, passwordHash, trx);
      await sessions.revokeAll(user.id, { db: trx });
      return activity.record(trx, {
        userId: user.id,
        action: 'passwordReset',
        sessionId: null,
        client,
        channel: body.channel,
      });
    });
    activity.publish([pending]);
  }

  async logout(auth: AuthInfo): Promise<void> {
    await this.deps.sessions.revoke(auth, auth.sessionId);
  }

  /**
   * A new session for the account, with what the app shows first. `origin` says how the
   * person proved who they are: a device login proves nothing of the device that asked, so
   * its session starts on hold (see step-up). The sign-in goes into the security activity.
   */
  async signIn(
    user: UserRow,
    client: ClientInfo,
    origin: SessionOrigin,
    db: Db = this.deps.db,
  ): Promise<AuthResult> {
    const { users, sessions, activity } = this.deps;
    const session = await sessions.create(user.id, client, origin, db);
    await activity.note(db, {
      userId: user.id,
      action: 'signIn',
      sessionId: session.id,
      client,
      detail: origin,
    });
    return {
      token: session.token,
      expiresAt: session.expiresAt,
      user: users.toMe(user),
      settings: users.toSettings(user),
    };
  }
}
