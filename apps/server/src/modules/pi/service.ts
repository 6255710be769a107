import {
  PI_TICKET_TTL_SECONDS,
  type AuthResult,
  type Me,
  type PiBindBody,
  type PiConfig,
  type PiLoginBody,
  type PiLoginResult,
  type PiRegisterBody,
} from '@teltlk/protocol';
import type { Logger } from 'pino';
import type { Db, UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { SECOND, type Clock } from '../../lib/clock.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import { newSecret, sha256 } from '../../lib/random.js';
import type { AuthService } from '../auth/service.js';
import type { CodeService } from '../auth/codes.js';
import type { AuthInfo, ClientInfo } from '../auth/sessions.js';
import type { PendingEvent } from '../events/service.js';
import type { SecurityActivityLog } from '../security/activity.js';
import { hasPassword, withFreshGeneratedValues, type UserService } from '../users/service.js';
import { askPi } from './ask.js';
import type { PiPlatform } from './platform.js';

export interface PiSettings {
  /** Where the web app loads the Pi SDK from; null: Pi is off on this server. */
  sdkUrl: string | null;
  sandbox: boolean;
  sandboxHostUrl: string | null;
}

interface CheckedPi {
  uid: string;
  username: string;
}

/**
 * Pi identity: sign-in with a Pi access token, a new account or an existing one bound to
 * the Pi account, unbinding, and the payments Pi reports unfinished at sign-in.
 *
 * Who a person is comes only from Pi's `/me` for their token, never from the browser.
 */
export class PiService {
  constructor(
    private readonly deps: {
      db: Db;
      users: UserService;
      auth: AuthService;
      codes: CodeService;
      passwords: PasswordHasher;
      /** null: Pi is not configured here, and every Pi call says so. */
      platform: PiPlatform | null;
      settings: PiSettings;
      clock: Clock;
      logger: Logger;
      activity: SecurityActivityLog;
    },
  ) {}

  config(): PiConfig {
    const { sdkUrl, sandbox, sandboxHostUrl } = this.deps.settings;
    return { sdkUrl: this.deps.platform ? sdkUrl : null, sandbox, sandboxHostUrl };
  }

  /** Signs the owner of a bound Pi account in, or hands out a ticket to make or bind one. */
  async login(body: PiLoginBody, client: ClientInfo): Promise<PiLoginResult> {
    const { db, users, auth, clock } = this.deps;
    const pi = await this.checkToken(body.accessToken);
    const user = await users.findByPiUid(pi.uid);
    if (user) {
      const current =
        user.pi_username === pi.username ? user : await users.setPi(user.id, pi, db, user);
      return { status: 'signedIn', auth: await auth.signIn(current, client, 'pi') };
    }
    const now = clock.now();
    const ticket = newSecret();
    const expiresAt = now + PI_TICKET_TTL_SECONDS * SECOND;
    await db.deleteFrom('pi_tickets').where('expires_at', '<=', now).execute();
    await db
      .insertInto('pi_tickets')
      .values({
        ticket_hash: sha256(ticket),
        pi_uid: pi.uid,
        pi_username: pi.username,
        expires_at: expiresAt,
      })
      .execute();
    return { status: 'unbound', ticket, piUsername: pi.username, expiresAt };
  }

  /** A new account for the ticket's Pi account: no password, no phone, until added. */
  async register(body: PiRegisterBody, client: ClientInfo): Promise<AuthResult> {
    const { db, users, auth } = this.deps;
    await this.openTicket(body.ticket);
    return withFreshGeneratedValues(() =>
      db.transaction().execute(async (trx) => {
        const pi = await this.takeTicket(body.ticket, trx);
        const user = await users.create(
          {
            passwordHash: null,
            nickname: body.nickname,
            country: body.country,
            motherTongue: body.motherTongue,
            inviteCode: body.inviteCode,
            uiLanguage: body.uiLanguage,
            pi,
          },
          trx,
        );
        return auth.signIn(user, client, 'pi', trx);
      }),
    );
  }

  /**
   * Binds the ticket's Pi account to an account its person proves to own (its password or
   * a code to its address: the step-up this sensitive action needs), and signs in.
   */
  async bind(body: PiBindBody, client: ClientInfo): Promise<AuthResult> {
    const { db, users, auth, codes, passwords, activity } = this.deps;
    await this.openTicket(body.ticket);
    const bindAndSignIn = async (user: UserRow, trx: Db) => {
      const bound = await users.setPi(user.id, await this.takeTicket(body.ticket, trx), trx);
      const signedIn = await auth.signIn(bound, client, body.proof, trx);
      const pending = await activity.record(trx, {
        userId: user.id,
        action: 'piBound',
        sessionId: null,
        client,
        detail: bound.pi_username,
      });
      return { signedIn, pending };
    };
    let done: { signedIn: AuthResult; pending: PendingEvent };
    if (body.proof === 'password') {
      const user = await users.findByAccount(body.account);
      if (!user) {
        await passwords.turn().verifyDummy(body.password);
        throw new AppError('ACCOUNT_NOT_FOUND');
      }
      await users.checkPassword(user, body.password);
      done = await db.transaction().execute((trx) => bindAndSignIn(user, trx));
    } else {
      done = await codes.redeem({ purpose: 'login', ...body }, async (trx) => {
        const user = await users.findByDestination(body.channel, body.destination, trx);
        if (!user) throw new AppError('ACCOUNT_NOT_FOUND');
        // A code only proves the phone or mailbox; an account with a password is proven by it.
        if (hasPassword(user)) throw new AppError('PI_ACCOUNT_HAS_PASSWORD');
        return bindAndSignIn(user, trx);
      });
    }
    activity.publish([done.pending]);
    return done.signedIn;
  }

  /** Binds the Pi account of a token to the signed-in account (its route asks for a step-up). */
  async bindSignedIn(who: AuthInfo, accessToken: string, client: ClientInfo): Promise<Me> {
    const { db, users } = this.deps;
    const pi = await this.checkToken(accessToken);
    const bound = await users.setPi(who.userId, pi, db);
    await this.recordBinding(who, 'piBound', client, pi.username);
    return users.toMe(bound);
  }

  /**
   * Unbinds the Pi account, when another way into the account remains (its route asks for
   * a step-up).
   */
  async unbind(who: AuthInfo, client: ClientInfo): Promise<Me> {
    const { db, users } = this.deps;
    const user = await users.get(who.userId);
    if (user.pi_uid === null) throw new AppError('NOT_FOUND');
    if (!hasPassword(user) && user.phone === null && user.email === null) {
      throw new AppError('PI_UNBIND_LAST_WAY_IN');
    }
    const unbound = await users.setPi(user.id, null, db);
    await this.recordBinding(who, 'piUnbound', client, user.pi_username);
    return users.toMe(unbound);
  }

  /**
   * Proves the signed-in person holds the Pi account bound to theirs (a step-up for an
   * account with no password or address): Pi's `/me` names the uid, never the browser.
   */
  async proveOwner(userId: string, accessToken: string): Promise<void> {
    const user = await this.deps.users.get(userId);
    if (user.pi_uid === null) throw new AppError('STEP_UP_METHOD_UNAVAILABLE');
    const pi = await this.checkToken(accessToken);
    if (pi.uid !== user.pi_uid) throw new AppError('PI_AUTH_FAILED');
  }

  private recordBinding(
    who: AuthInfo,
    action: 'piBound' | 'piUnbound',
    client: ClientInfo,
    username: string | null,
  ): Promise<void> {
    return this.deps.activity.recordNow({
      userId: who.userId,
      action,
      sessionId: who.sessionId,
      client,
      detail: username,
    });
  }

  /** The uid and username Pi gives for this token. */
  private async checkToken(accessToken: string): Promise<CheckedPi> {
    const platform = this.platform();
    const me = await this.ask(() => platform.me(accessToken));
    if (!me) throw new AppError('PI_AUTH_FAILED');
    // Without the username scope Pi names nobody; the uid still keys the account.
    return { uid: me.uid, username: me.username ?? me.uid };
  }

  private platform(): PiPlatform {
    if (!this.deps.platform) throw new AppError('PI_UNAVAILABLE');
    return this.deps.platform;
  }

  private ask<T>(call: () => Promise<T>): Promise<T> {
    return askPi(this.deps.logger, call);
  }

  /** Refuses a ticket that could not work now, before a password is hashed for it. */
  private async openTicket(ticket: string): Promise<void> {
    const row = await this.deps.db
      .selectFrom('pi_tickets')
      .select('expires_at')
      .where('ticket_hash', '=', sha256(ticket))
      .executeTakeFirst();
    if (!row || row.expires_at <= this.deps.clock.now()) throw new AppError('PI_TICKET_INVALID');
  }

  /** Uses the ticket up inside the caller's transaction; gives the Pi account it stands for. */
  private async takeTicket(ticket: string, trx: Db): Promise<CheckedPi> {
    const row = await trx
      .deleteFrom('pi_tickets')
      .where('ticket_hash', '=', sha256(ticket))
      .returning(['pi_uid', 'pi_username', 'expires_at'])
      .executeTakeFirst();
    if (!row || row.expires_at <= this.deps.clock.now()) throw new AppError('PI_TICKET_INVALID');
    return { uid: row.pi_uid, username: row.pi_username };
  }
}
