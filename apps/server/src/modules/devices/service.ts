import { createHash } from 'node:crypto';
import {
  DEVICE_LOGIN_CODE_ALPHABET,
  DEVICE_LOGIN_CODE_LENGTH,
  DEVICE_LOGIN_TTL_SECONDS,
  type AuthResult,
  type DeviceLoginCreated,
  type DeviceLoginDecision,
  type DeviceLoginView,
} from '@teltlk/protocol';
import { isUniqueViolation } from '../../db/database.js';
import type { Db, DeviceLoginsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { PlaceLookup } from '../../lib/ip-country.js';
import { DAY, MINUTE, SECOND, type Clock } from '../../lib/clock.js';
import {
  newId,
  newSecret,
  randomDigits,
  randomFrom,
  sameDigest,
  sha256,
} from '../../lib/random.js';
import type { AuthService } from '../auth/service.js';
import type { AuthInfo, ClientInfo } from '../auth/sessions.js';
import type { SecurityActivityLog } from '../security/activity.js';
import type { AttemptCounters } from '../security/attempt-counters.js';
import { stepUpRequired, type StepUpRule } from '../security/step-up.js';
import { loginLockSteps } from '../users/rules.js';
import type { UserService } from '../users/service.js';
import type { WalletService } from '../wallet/service.js';

/** What the browser waiting on a ticket learns when it asks. */
export type TicketOutcome =
  | { state: 'pending'; expiresAt: number }
  | { state: 'refused' | 'expired' }
  | { state: 'approved'; auth: AuthResult };

export const DEFAULT_DEVICE_LOGIN_TTL_MS = DEVICE_LOGIN_TTL_SECONDS * SECOND;
/**
 * An approval reaches the waiting browser at once; if its socket was reconnecting just
 * then, it still takes the session this long after the ticket itself ran out.
 */
const APPROVED_GRACE_MS = MINUTE;
/** The spec keeps the first 255 characters of a user agent. */
const USER_AGENT_MAX = 255;

type Row = DeviceLoginsTable;

/**
 * Device login (spec: PCdevice, mobiledevice, /verification). A signed-out browser asks
 * for a ticket and shows it as a QR code and a short code; a signed-in device looks it up
 * (by id from the QR code, or by the typed code), sees which device asks, and approves or
 * refuses. The browser that asked waits on its socket and, once approved, takes a session
 * of its own with the ticket's secret, which only it holds: whoever else reads the QR code
 * off its screen can approve it, never sign themselves in with it.
 */
export class DeviceLoginService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      auth: AuthService;
      users: UserService;
      wallets: WalletService;
      stepUp: StepUpRule;
      activity: SecurityActivityLog;
      attempts: AttemptCounters;
      /** Wakes the socket waiting on a ticket, on whichever node it is. */
      changed: (id: string) => void;
      /** Where the asking device's address is, shown to the person deciding. */
      places: PlaceLookup;
      ttlMs?: number;
    },
  ) {}

  private get ttlMs(): number {
    return this.deps.ttlMs ?? DEFAULT_DEVICE_LOGIN_TTL_MS;
  }

  async create(client: ClientInfo): Promise<DeviceLoginCreated> {
    const now = this.deps.clock.now();
    const secret = newSecret();
    const row: Row = {
      id: newId(),
      secret_hash: sha256(secret),
      code: '',
      user_agent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ip: client.ip,
      created_at: now,
      expires_at: now + this.ttlMs,
      state: 'pending',
      user_id: null,
      decided_at: null,
      match_number: randomDigits(2),
    };
    // 40 bits of code: a clash with a stored one is a once-in-a-lifetime event; try again.
    for (let attempt = 0; ; attempt += 1) {
      row.code = randomFrom(DEVICE_LOGIN_CODE_ALPHABET, DEVICE_LOGIN_CODE_LENGTH);
      try {
        await this.deps.db.insertInto('device_logins').values(row).execute();
        break;
      } catch (error) {
        if (attempt >= 2 || !isUniqueViolation(error)) throw error;
      }
    }
    // The phone that scans the code asks for its place in a moment: have the table ready.
    void this.placeOf(row.ip);
    return {
      id: row.id,
      secret,
      code: row.code,
      match: row.match_number ?? '',
      expiresAt: row.expires_at,
      now,
    };
  }

  /** The ticket the QR code names, for a signed-in device to decide on. */
  async view(id: string): Promise<DeviceLoginView> {
    const row = await this.find(id);
    if (!row) throw new AppError('NOT_FOUND');
    return this.viewOf(row, 'LOGIN_TICKET_EXPIRED');
  }

  /**
   * The ticket of a typed short code. Unknown and expired codes answer alike, and each
   * guess is counted before it is looked up (a person's wrong codes in a row lock them
   * out for a growing while, as wrong passwords do).
   */
  async viewByCode(userId: string, code: string): Promise<DeviceLoginView> {
    let row: Row | undefined;
    await this.deps.attempts.check('deviceCode', userId, loginLockSteps(), {
      compare: async () => {
        row = await this.deps.db
          .selectFrom('device_logins')
          .selectAll()
          .where('code', '=', code)
          .executeTakeFirst();
        return row !== undefined && !this.expired(row);
      },
      wrong: () => new AppError('LOGIN_CODE_INVALID'),
      locked: (seconds) => new AppError('LOGIN_LOCKED', { seconds }),
    });
    return this.present(row!);
  }

  /**
   * Approves (signing the asking browser in to the caller's account) or refuses a pending
   * ticket. Approving hands a whole account over, so it asks for the number the asking
   * screen shows (a wrong one refuses the ticket: a phished person's code gets no second
   * try) and the account password or payment password (or a step-up on this session for
   * an account with neither); a new device on hold cannot approve another.
   */
  async decide(
    auth: AuthInfo,
    id: string,
    decision: DeviceLoginDecision,
    client: ClientInfo,
  ): Promise<DeviceLoginView> {
    const { stepUp, activity } = this.deps;
    if (decision.approve) {
      if (await stepUp.held(auth)) throw stepUpRequired('hold');
      const ticket = await this.find(id);
      if (!ticket) throw new AppError('NOT_FOUND');
      if (ticket.state !== 'pending') throw new AppError('LOGIN_TICKET_DECIDED');
      if (this.expired(ticket)) throw new AppError('LOGIN_TICKET_EXPIRED');
      if (!sameDigest(sha256(decision.match), sha256(ticket.match_number ?? ''))) {
        await this.settle(auth.userId, id, false);
        throw new AppError('DEVICE_MATCH_WRONG');
      }
      await this.proveApprover(auth, decision.proof);
    }
    const row = await this.settle(auth.userId, id, decision.approve);
    if (decision.approve) {
      await activity.recordNow({
        userId: auth.userId,
        action: 'deviceApproved',
        sessionId: auth.sessionId,
        client,
        detail: row.user_agent,
      });
    }
    return this.present(row);
  }

  private async proveApprover(
    auth: AuthInfo,
    proof: Extract<DeviceLoginDecision, { approve: true }>['proof'],
  ): Promise<void> {
    const { users, wallets, stepUp } = this.deps;
    if (proof?.method === 'password') {
      await users.checkPassword(await users.get(auth.userId), proof.password);
      await stepUp.require(auth, 'account', 'password');
    } else if (proof?.method === 'payment') {
      await wallets.verify(auth, proof.password);
    } else {
      await stepUp.require(auth, 'account');
    }
  }

  /** Moves a pending, unexpired ticket to its decision, once; the ticket as it is then. */
  private async settle(userId: string, id: string, approve: boolean): Promise<Row> {
    const now = this.deps.clock.now();
    const result = await this.deps.db
      .updateTable('device_logins')
      .set({ state: approve ? 'approved' : 'refused', user_id: userId, decided_at: now })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const row = await this.find(id);
    if (!row) throw new AppError('NOT_FOUND');
    if (result.numUpdatedRows === 0n) {
      if (row.state === 'pending') throw new AppError('LOGIN_TICKET_EXPIRED');
      throw new AppError('LOGIN_TICKET_DECIDED');
    }
    this.deps.changed(id);
    return row;
  }

  private expired(row: Row): boolean {
    return row.state === 'pending' && row.expires_at <= this.deps.clock.now();
  }

  /**
   * What the browser that asked gets for its ticket: the new session once approved (the
   * ticket is used up then), or where it stands. A wrong secret is TOKEN_INVALID-like:
   * UNAUTHENTICATED, as if the ticket did not exist.
   */
  async claim(id: string, secret: string): Promise<TicketOutcome> {
    const row = await this.find(id);
    if (!row || !sameDigest(row.secret_hash, sha256(secret))) {
      throw new AppError('UNAUTHENTICATED');
    }
    const now = this.deps.clock.now();
    switch (row.state) {
      case 'pending':
        return row.expires_at > now
          ? { state: 'pending', expiresAt: row.expires_at }
          : { state: 'expired' };
      case 'refused':
        return { state: 'refused' };
      case 'used':
        return { state: 'expired' };
      case 'approved':
        break;
    }
    if (row.expires_at + APPROVED_GRACE_MS <= now || row.user_id === null) {
      return { state: 'expired' };
    }
    // Read before the transaction: SQLite has one connection, held by the transaction.
    const user = await this.deps.users.get(row.user_id);
    const auth = await this.deps.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable('device_logins')
        .set({ state: 'used' })
        .where('id', '=', id)
        .where('state', '=', 'approved')
        .executeTakeFirst();
      if (taken.numUpdatedRows === 0n) return null;
      return this.deps.auth.signIn(user, { ip: row.ip, userAgent: row.user_agent }, 'device', trx);
    });
    // Another socket of the same browser took it a moment ago.
    return auth ? { state: 'approved', auth } : { state: 'expired' };
  }

  /** Drops tickets that ran out over a day ago. */
  async purge(): Promise<void> {
    await this.deps.db
      .deleteFrom('device_logins')
      .where('expires_at', '<', this.deps.clock.now() - DAY)
      .execute();
  }

  private find(id: string): Promise<Row | undefined> {
    return this.deps.db
      .selectFrom('device_logins')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  private viewOf(row: Row, expired: 'LOGIN_TICKET_EXPIRED' | 'LOGIN_CODE_INVALID') {
    if (row.state === 'pending' && row.expires_at <= this.deps.clock.now()) {
      throw new AppError(expired);
    }
    return this.present(row);
  }

  private async present(row: Row): Promise<DeviceLoginView> {
    return {
      id: row.id,
      userAgent: row.user_agent,
      ip: row.ip,
      country: await this.placeOf(row.ip),
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      state: row.state,
      choices: row.state === 'pending' ? choicesFor(row) : [],
    };
  }

  /** No place is shown rather than no page when the table cannot be read. */
  private placeOf(ip: string | null): Promise<string | null> {
    return this.deps.places.countryOf(ip).catch(() => null);
  }
}

/**
 * The ticket's number and two others, the same each time the ticket is looked at (drawn
 * from its secret's hash, which never leaves the server), in ascending order so their
 * places say nothing.
 */
function choicesFor(row: Pick<Row, 'match_number' | 'secret_hash'>): string[] {
  const match = row.match_number ?? '00';
  const choices = new Set([match]);
  const seed = createHash('sha256').update(`choices:${row.secret_hash}`).digest();
  for (let i = 0; choices.size < 3; i += 1) {
    const byte = seed[i % seed.length]! + Math.floor(i / seed.length);
    choices.add(String(byte % 100).padStart(2, '0'));
  }
  return [...choices].sort();
}
