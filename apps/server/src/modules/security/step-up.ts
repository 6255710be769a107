import {
  STEP_UP_WINDOW_SECONDS,
  type Proof,
  type Sensitivity,
  type StepUpReason,
} from '@teltlk/protocol';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { SECOND, type Clock } from '../../lib/clock.js';
import type { AuthInfo, SessionProof, SessionService } from '../auth/sessions.js';

const WINDOW_MS = STEP_UP_WINDOW_SECONDS * SECOND;

/** Proofs of the person behind the account: each one also ends a new device's hold. */
const ACCOUNT_PROOFS: ReadonlySet<Proof> = new Set(['password', 'code', 'pi']);

export function stepUpRequired(reason: StepUpReason): AppError {
  return new AppError('STEP_UP_REQUIRED', { reason });
}

/** Whether a session made by device login is still on hold. */
export function onHold(session: Pick<SessionProof, 'heldUntil'>, now: number): boolean {
  return session.heldUntil !== null && session.heldUntil > now;
}

/**
 * The one rule for sensitive actions (what cannot be undone): the session must have
 * proven who it is in the last STEP_UP_WINDOW_SECONDS, with the account password, a code
 * to an address already on the account, or Pi; for money the payment password counts too.
 * A session made by device login is on hold until it makes one of the account proofs.
 *
 * Routes declare their sensitivity (`config.sensitive`) and a hook applies this before the
 * handler; services call it themselves where the proof comes in the request (a withdrawal's
 * payment password, a change of password's current one) or where only some cases are
 * sensitive (replacing an address, not adding a first one).
 */
export class StepUpRule {
  constructor(private readonly deps: { sessions: SessionService; clock: Clock }) {}

  /**
   * Refuses with STEP_UP_REQUIRED unless the caller may do a `sensitivity` action now.
   * `inline` is a proof the caller checked in this very request: an account proof counts
   * and is remembered on the session; the payment password counts for this money action
   * only, and never on a device on hold.
   */
  async require(auth: AuthInfo, sensitivity: Sensitivity, inline?: Proof, db?: Db): Promise<void> {
    if (inline && ACCOUNT_PROOFS.has(inline)) {
      await this.deps.sessions.prove(auth, inline, true, db);
      return;
    }
    const session = await this.deps.sessions.proofOf(auth);
    const now = this.deps.clock.now();
    if (onHold(session, now)) throw stepUpRequired('hold');
    if (inline === 'payment') {
      if (sensitivity === 'money') return;
      throw stepUpRequired('stale');
    }
    if (!this.fresh(session, now)) throw stepUpRequired('stale');
    if (session.proof === 'payment' && sensitivity !== 'money') throw stepUpRequired('stale');
  }

  /** Whether the caller's session is a new device still on hold. */
  async held(auth: AuthInfo): Promise<boolean> {
    return onHold(await this.deps.sessions.proofOf(auth), this.deps.clock.now());
  }

  /**
   * Remembers a proof made at the step-up endpoint. The payment password never replaces a
   * fresher account proof (it proves less), and never ends a hold.
   */
  async proven(auth: AuthInfo, proof: Proof, db?: Db): Promise<void> {
    if (proof === 'payment') {
      const session = await this.deps.sessions.proofOf(auth);
      const now = this.deps.clock.now();
      if (session.proof && ACCOUNT_PROOFS.has(session.proof) && this.fresh(session, now)) return;
      await this.deps.sessions.prove(auth, proof, false, db);
      return;
    }
    await this.deps.sessions.prove(auth, proof, true, db);
  }

  /** Until when the session's proof counts, or null when it does not (any more). */
  provenUntil(session: SessionProof): number | null {
    if (session.provenAt === null) return null;
    const until = session.provenAt + WINDOW_MS;
    return until > this.deps.clock.now() ? until : null;
  }

  private fresh(session: SessionProof, now: number): boolean {
    return session.provenAt !== null && now - session.provenAt <= WINDOW_MS;
  }
}
