import {
  ADDRESS_UNDO_DAYS,
  type AddressUndoView,
  type Channel,
  type Me,
  type StepUpBody,
  type StepUpCodeResult,
  type StepUpStatus,
  type UiLanguage,
} from '@teltlk/protocol';
import type { Logger } from 'pino';
import type { AddressChangesTable, Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { masked } from '../../lib/masked.js';
import { newId, newSecret, sha256 } from '../../lib/random.js';
import type { CodeService } from '../auth/codes.js';
import type { AuthInfo, ClientInfo, SessionService } from '../auth/sessions.js';
import { addressReplacedNotice } from '../notify/messages.js';
import type { NotifyService } from '../notify/service.js';
import type { PiService } from '../pi/service.js';
import { hasPassword, type UserService } from '../users/service.js';
import type { WalletService } from '../wallet/service.js';
import type { SecurityActivityLog } from './activity.js';
import { onHold, type StepUpRule } from './step-up.js';

const UNDO_MS = ADDRESS_UNDO_DAYS * DAY;

/** What the old address's notice links to: the web app's page for the token. */
export type UndoLink = (token: string) => string;

/**
 * Step-up (proving who one is on this session), the ways an account has to do it, and
 * addresses added or replaced, a replacement told to the old address with a link that
 * puts it back (owner of `address_changes`).
 */
export class SecurityService {
  /** Notices to old addresses on their way out. */
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      logger: Logger;
      rule: StepUpRule;
      activity: SecurityActivityLog;
      sessions: SessionService;
      users: UserService;
      codes: CodeService;
      wallets: WalletService;
      pi: PiService;
      notify: NotifyService;
      undoLink: UndoLink;
    },
  ) {}

  async status(auth: AuthInfo): Promise<StepUpStatus> {
    const { sessions, users, wallets, rule, clock } = this.deps;
    const [session, user, payment] = await Promise.all([
      sessions.proofOf(auth),
      users.get(auth.userId),
      wallets.hasPassword(auth.userId),
    ]);
    const provenUntil = rule.provenUntil(session);
    return {
      provenUntil,
      proof: provenUntil === null ? null : session.proof,
      heldUntil: onHold(session, clock.now()) ? session.heldUntil : null,
      methods: {
        password: hasPassword(user),
        email: user.email === null ? null : masked(user.email),
        phone: user.phone === null ? null : masked(user.phone),
        pi: user.pi_uid !== null,
        payment,
      },
    };
  }

  /** A step-up code to one of the account's own addresses. */
  async sendCode(
    auth: AuthInfo,
    channel: Channel,
    client: { ip: string; language: UiLanguage },
  ): Promise<StepUpCodeResult> {
    const destination = await this.addressOf(auth.userId, channel);
    const sent = await this.deps.codes.send({ purpose: 'stepUp', channel, destination }, client);
    return { ...sent, sentTo: masked(destination) };
  }

  /**
   * Checks a proof and remembers it on the session. Every secret is checked with its own
   * attempt limit: the password with the sign-in lock, a code with its attempts, the
   * payment password with the wallet's lock; Pi by the uid its Platform API gives.
   */
  async prove(auth: AuthInfo, body: StepUpBody): Promise<StepUpStatus> {
    const { users, codes, wallets, pi, rule } = this.deps;
    switch (body.method) {
      case 'password': {
        const user = await users.get(auth.userId);
        if (!hasPassword(user)) throw new AppError('STEP_UP_METHOD_UNAVAILABLE');
        await users.checkPassword(user, body.password);
        await rule.proven(auth, 'password');
        break;
      }
      case 'code': {
        const destination = await this.addressOf(auth.userId, body.channel);
        await codes.redeem(
          { purpose: 'stepUp', channel: body.channel, destination, code: body.code },
          (trx) => rule.proven(auth, 'code', trx),
        );
        break;
      }
      case 'payment':
        if (!(await wallets.hasPassword(auth.userId))) {
          throw new AppError('STEP_UP_METHOD_UNAVAILABLE');
        }
        await wallets.verify(auth, body.password);
        await rule.proven(auth, 'payment');
        break;
      case 'pi':
        await pi.proveOwner(auth.userId, body.accessToken);
        await rule.proven(auth, 'pi');
        break;
    }
    return this.status(auth);
  }

  /**
   * Adds the phone or email a registration ticket verified. A first address of its kind
   * needs nothing more; replacing one asks for a step-up (the ticket proves only the new
   * address), and the old address is told, with a link that puts it back for a week.
   */
  async setAddress(auth: AuthInfo, ticket: string, client: ClientInfo): Promise<Me> {
    const { db, codes, users, rule, activity, clock } = this.deps;
    const channel = await codes.checkTicket(ticket);
    const before = await users.get(auth.userId);
    const replacing = (channel === 'email' ? before.email : before.phone) !== null;
    if (replacing) await rule.require(auth, 'account');
    const done = await db.transaction().execute(async (trx) => {
      const verified = await codes.takeTicket(ticket, trx);
      const current = await users.get(auth.userId, trx);
      const old = verified.channel === 'email' ? current.email : current.phone;
      const updated = await users.setDestination(
        auth.userId,
        verified.channel,
        verified.destination,
        trx,
      );
      let undoToken: string | null = null;
      if (old !== null) {
        undoToken = newSecret();
        const now = clock.now();
        await trx
          .insertInto('address_changes')
          .values({
            id: newId(),
            user_id: auth.userId,
            channel: verified.channel,
            previous: old,
            replacement: verified.destination,
            token_hash: sha256(undoToken),
            created_at: now,
            expires_at: now + UNDO_MS,
            undone_at: null,
          })
          .execute();
      }
      const recorded = await activity.record(trx, {
        userId: auth.userId,
        action: old === null ? 'addressAdded' : 'addressReplaced',
        sessionId: auth.sessionId,
        client,
        channel: verified.channel,
        detail: masked(verified.destination),
      });
      return { user: updated, pending: recorded, old, undoToken, verified };
    });
    activity.publish([done.pending]);
    if (done.old !== null && done.undoToken !== null) {
      this.tellOldAddress(done.verified.channel, {
        destination: done.old,
        replacement: masked(done.verified.destination),
        token: done.undoToken,
        language: done.user.ui_language as UiLanguage,
      });
    }
    return users.toMe(done.user);
  }

  /** An address change as its undo link shows it; unknown tokens are ADDRESS_UNDO_INVALID. */
  async undoView(token: string): Promise<AddressUndoView> {
    const row = await this.findChange(token);
    if (!row) throw new AppError('ADDRESS_UNDO_INVALID');
    const now = this.deps.clock.now();
    return {
      channel: row.channel,
      previous: masked(row.previous),
      replacement: masked(row.replacement),
      changedAt: Number(row.created_at),
      undoUntil: Number(row.expires_at),
      state: row.undone_at !== null ? 'undone' : row.expires_at <= now ? 'expired' : 'open',
    };
  }

  /**
   * Puts the old address back and signs every session of the account out: whoever
   * replaced it may hold one. Once only, within the week; an address taken by another
   * account meanwhile is ACCOUNT_REGISTERED.
   */
  async undo(token: string, client: ClientInfo): Promise<AddressUndoView> {
    const { db, users, sessions, activity, clock } = this.deps;
    const pending = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const row = await trx
        .updateTable('address_changes')
        .set({ undone_at: now })
        .where('token_hash', '=', sha256(token))
        .where('undone_at', 'is', null)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new AppError('ADDRESS_UNDO_INVALID');
      await users.setDestination(row.user_id, row.channel, row.previous, trx);
      await sessions.revokeAll(row.user_id, { db: trx });
      return activity.record(trx, {
        userId: row.user_id,
        action: 'addressRestored',
        sessionId: null,
        client,
        channel: row.channel,
        detail: masked(row.previous),
      });
    });
    activity.publish([pending]);
    return this.undoView(token);
  }

  /**
   * Signs one of the caller's sessions out. Another device's is a sensitive action (a
   * thief signing the owner out); this device's own is just signing out.
   */
  async signOut(auth: AuthInfo, sessionId: string, client: ClientInfo): Promise<void> {
    const { sessions, rule, activity } = this.deps;
    if (sessionId === auth.sessionId) {
      await sessions.revoke(auth, sessionId);
      return;
    }
    await rule.require(auth, 'account');
    await sessions.revoke(auth, sessionId);
    await activity.recordNow({
      userId: auth.userId,
      action: 'sessionsSignedOut',
      sessionId: auth.sessionId,
      client,
    });
  }

  /** Waits for notices still going out (before the database closes). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.sending]);
  }

  private tellOldAddress(
    channel: Channel,
    input: { destination: string; replacement: string; token: string; language: UiLanguage },
  ): void {
    const notice = addressReplacedNotice({
      channel,
      replacement: input.replacement,
      link: this.deps.undoLink(input.token),
      days: ADDRESS_UNDO_DAYS,
      language: input.language,
    });
    const delivery = this.deps.notify
      .sendNotice({ channel, destination: input.destination, ...notice })
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error, channel }, 'could not tell the old address');
      })
      .finally(() => this.sending.delete(delivery));
    this.sending.add(delivery);
  }

  private findChange(token: string): Promise<AddressChangesTable | undefined> {
    return this.deps.db
      .selectFrom('address_changes')
      .selectAll()
      .where('token_hash', '=', sha256(token))
      .executeTakeFirst();
  }

  private async addressOf(userId: string, channel: Channel): Promise<string> {
    const user = await this.deps.users.get(userId);
    const destination = channel === 'email' ? user.email : user.phone;
    if (!destination) throw new AppError('STEP_UP_METHOD_UNAVAILABLE');
    return destination;
  }
}
