import {
  FRESH_DEVICE_HOLD_HOURS,
  SESSION_TTL_DAYS,
  type Proof,
  type SessionInfo,
} from '@teltlk/protocol';
import type { Db, SessionRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { DAY, HOUR, MINUTE, type Clock } from '../../lib/clock.js';
import { newId, newSecret, sha256 } from '../../lib/random.js';
import type { SessionRepo } from './repo.js';

/** Who is calling: resolved from the bearer token of a request. */
export interface AuthInfo {
  sessionId: string;
  userId: string;
}

/** A session resolved from its token, with the time it ends unless revoked first. */
export interface SessionAuth extends AuthInfo {
  expiresAt: number;
}

/** How a session that can no longer be used ended. */
export type SessionEnd = 'revoked' | 'expired';

/** Where a sign-in came from, shown in the session list. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** Sessions that were just revoked: one of a user's, or all of them but `except`. */
export interface SessionRevocation {
  userId: string;
  sessionId?: string;
  except?: string;
}

/**
 * How a session began: a sign-in with a password, a code or Pi proves who signed in, so the
 * new session starts proven (see step-up); one made by device login proves nothing of the
 * device that asked, so it starts on hold.
 */
export type SessionOrigin = 'password' | 'code' | 'pi' | 'device';

/** What a live session has proven, for the step-up rule. */
export interface SessionProof {
  createdAt: number;
  provenAt: number | null;
  proof: SessionRow['proof'];
  heldUntil: number | null;
  userAgent: string | null;
  ip: string | null;
}

export interface NewSession {
  id: string;
  token: string;
  expiresAt: number;
}

const SESSION_TTL_MS = SESSION_TTL_DAYS * DAY;
/** last_seen_at is a hint for the session list; writing it on every request would cost a write per call. */
const LAST_SEEN_RESOLUTION_MS = MINUTE;
/** The spec keeps the first 255 characters of a user agent. */
const USER_AGENT_MAX = 255;
/** Sessions looked up per statement: well under the bound parameters SQLite and PostgreSQL take. */
const SESSION_BATCH = 500;

export class SessionService {
  private readonly revokeListeners: ((revocation: SessionRevocation) => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly repo: SessionRepo,
    private readonly clock: Clock,
  ) {}

  async create(
    userId: string,
    client: ClientInfo,
    origin: SessionOrigin,
    db: Db = this.db,
  ): Promise<NewSession> {
    const now = this.clock.now();
    const proven = origin === 'device' ? null : origin;
    const token = newSecret();
    const session = {
      id: newId(),
      user_id: userId,
      token_hash: sha256(token),
      user_agent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ip: client.ip,
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_TTL_MS,
      revoked_at: null,
      proven_at: proven ? now : null,
      proof: proven,
      held_until: origin === 'device' ? now + FRESH_DEVICE_HOLD_HOURS * HOUR : null,
    };
    await this.repo.in(db).insert(session);
    return { id: session.id, token, expiresAt: session.expires_at };
  }

  /** Unknown token: UNAUTHENTICATED. A session that was valid but ended: TOKEN_EXPIRED. */
  async authenticate(token: string): Promise<SessionAuth> {
    const session = await this.repo.findByTokenHash(sha256(token));
    if (!session) throw new AppError('UNAUTHENTICATED');
    const now = this.clock.now();
    if (session.revoked_at !== null || session.expires_at <= now) {
      throw new AppError('TOKEN_EXPIRED');
    }
    if (now - session.last_seen_at >= LAST_SEEN_RESOLUTION_MS) {
      await this.repo.touch(session.id, now);
    }
    return { sessionId: session.id, userId: session.user_id, expiresAt: session.expires_at };
  }

  /** What the caller's session has proven; an ended session cannot act at all. */
  async proofOf(auth: AuthInfo): Promise<SessionProof> {
    const row = await this.repo.findLive(auth.sessionId, this.clock.now());
    if (!row || row.user_id !== auth.userId) throw new AppError('TOKEN_EXPIRED');
    return {
      createdAt: row.created_at,
      provenAt: row.proven_at,
      proof: row.proof,
      heldUntil: row.held_until,
      userAgent: row.user_agent,
      ip: row.ip,
    };
  }

  /** Records a proof made on the caller's session now; see StepUpService for what counts. */
  async prove(auth: AuthInfo, proof: Proof, liftHold: boolean, db: Db = this.db): Promise<void> {
    await this.repo.in(db).prove(auth.sessionId, proof, this.clock.now(), liftHold);
  }

  async list(auth: AuthInfo): Promise<SessionInfo[]> {
    const sessions = await this.repo.listLive(auth.userId, this.clock.now());
    return sessions.map((s) => ({
      id: s.id,
      current: s.id === auth.sessionId,
      userAgent: s.user_agent,
      ip: s.ip,
      createdAt: s.created_at,
      lastSeenAt: s.last_seen_at,
    }));
  }

  /** Revokes one of the caller's own sessions; anyone else's is NOT_FOUND, as if it did not exist. */
  async revoke(auth: AuthInfo, sessionId: string): Promise<void> {
    if (!(await this.repo.revoke(auth.userId, sessionId, this.clock.now()))) {
      throw new AppError('NOT_FOUND');
    }
    this.revoked({ userId: auth.userId, sessionId });
  }

  async revokeAll(userId: string, options: { except?: string; db?: Db } = {}): Promise<void> {
    await this.repo
      .in(options.db ?? this.db)
      .revokeAllOfUser(userId, this.clock.now(), options.except);
    this.revoked({ userId, ...(options.except ? { except: options.except } : {}) });
  }

  /**
   * Called when sessions are revoked, so their open sockets can be closed (kicked offline).
   * Inside a caller's transaction this runs before the commit; that only closes a socket
   * whose session is about to end anyway.
   */
  onRevoke(listener: (revocation: SessionRevocation) => void): void {
    this.revokeListeners.push(listener);
  }

  private revoked(revocation: SessionRevocation): void {
    for (const listener of this.revokeListeners) listener(revocation);
  }

  /**
   * Which of these sessions have ended, and how. Open sockets re-check their sessions with
   * this, so a socket whose kick was lost on the way still closes. A session no longer
   * stored was purged or its user deleted: it counts as revoked.
   */
  async ended(sessionIds: readonly string[]): Promise<Map<string, SessionEnd>> {
    const now = this.clock.now();
    const ended = new Map<string, SessionEnd>(sessionIds.map((id) => [id, 'revoked']));
    for (let start = 0; start < sessionIds.length; start += SESSION_BATCH) {
      const rows = await this.repo.findEnds(sessionIds.slice(start, start + SESSION_BATCH));
      for (const row of rows) {
        if (row.revoked_at !== null) continue;
        if (row.expires_at <= now) ended.set(row.id, 'expired');
        else ended.delete(row.id);
      }
    }
    return ended;
  }

  /** Drops sessions that ended over a day ago; they can no longer be shown or used. */
  async purge(): Promise<void> {
    await this.repo.deleteEndedBefore(this.clock.now() - DAY);
  }
}
