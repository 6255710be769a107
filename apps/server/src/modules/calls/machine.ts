import {
  CALL_MEDIA_LOSS_SECONDS,
  CALL_RING_SECONDS,
  GROUP_CALL_AUDIO_MAX,
  GROUP_CALL_VIDEO_MAX,
  type CallMedia,
  type CallOutcome,
  type CallParticipantState,
  type CallState,
} from '@teltlk/protocol';
import { AppError } from '../../errors.js';

/**
 * The call state machine, pure: a call and an event in, the call after it out (or an
 * error), with no database, clock or timer of its own, so that it is tested alone and the
 * service only loads, applies and stores. Events a device repeats (a retry after a lost
 * answer) leave the call as it is: `changed` is false and the device is answered with the
 * call as it stands.
 */

export interface CallParty {
  userId: string;
  state: CallParticipantState;
  /** The device (session) that took the call. */
  sessionId: string | null;
}

export interface CallRecord {
  id: string;
  conversationId: string;
  kind: 'single' | 'group';
  media: CallMedia;
  callerId: string;
  state: CallState;
  outcome: CallOutcome | null;
  createdAt: number;
  ringUntil: number;
  acceptedAt: number | null;
  connectedAt: number | null;
  endedAt: number | null;
  /** When a participant reported its media lost, until it flows again. */
  mediaLostAt: number | null;
  /** The caller first. */
  parties: CallParty[];
}

export type CallEvent =
  | { type: 'accept'; userId: string; sessionId: string }
  | { type: 'reject'; userId: string }
  | { type: 'cancel'; userId: string }
  | { type: 'hangup'; userId: string }
  | { type: 'media'; userId: string; state: 'connected' | 'lost' | 'restored' }
  /** A timer came due: ringing may have run out, or lost media not come back. */
  | { type: 'due' };

export interface Transition {
  call: CallRecord;
  changed: boolean;
  /** Someone took the call on one device: their other devices stop ringing. */
  answered: { userId: string; sessionId: string } | null;
}

/** What a timer waits for next: the end of ringing, or of the grace for lost media. */
export interface Deadline {
  at: number;
  kind: 'ring' | 'media';
}

const RING_MS = CALL_RING_SECONDS * 1000;
const MEDIA_LOSS_MS = CALL_MEDIA_LOSS_SECONDS * 1000;

/** People at once in a group call of this media. */
export function capacityOf(media: CallMedia): number {
  return media === 'video' ? GROUP_CALL_VIDEO_MAX : GROUP_CALL_AUDIO_MAX;
}

/**
 * A new call: the caller is in it from the start (a group call's caller already sits in
 * the room), the invitees ring until CALL_RING_SECONDS from now. A one-to-one call whose
 * invitee is in another call ends at once as busy.
 */
export function newCall(input: {
  id: string;
  conversationId: string;
  kind: 'single' | 'group';
  media: CallMedia;
  callerId: string;
  callerSessionId: string;
  inviteeIds: readonly string[];
  now: number;
  busy: boolean;
}): CallRecord {
  const { now } = input;
  const call: CallRecord = {
    id: input.id,
    conversationId: input.conversationId,
    kind: input.kind,
    media: input.media,
    callerId: input.callerId,
    state: 'ringing',
    outcome: null,
    createdAt: now,
    ringUntil: now + RING_MS,
    acceptedAt: null,
    connectedAt: null,
    endedAt: null,
    mediaLostAt: null,
    parties: [
      { userId: input.callerId, state: 'joined', sessionId: input.callerSessionId },
      ...input.inviteeIds.map((userId) => ({
        userId,
        state: 'ringing' as const,
        sessionId: null,
      })),
    ],
  };
  return input.busy && input.kind === 'single' ? end(call, 'busy', now) : call;
}

/** Applies an event at `now`. Throws AppError: CALL_NOT_FOUND, CALL_STATE_CHANGED, CALL_FULL. */
export function transition(call: CallRecord, event: CallEvent, now: number): Transition {
  const same: Transition = { call, changed: false, answered: null };
  if (event.type === 'due') return due(call, now);
  const party = call.parties.find((p) => p.userId === event.userId);
  if (call.state === 'ended') {
    // Over: a late answer is told so; anything else is a retry or too late to matter.
    if (
      event.type === 'accept' &&
      !(party?.state === 'joined' && party.sessionId === event.sessionId)
    )
      throw new AppError('CALL_STATE_CHANGED');
    return same;
  }
  // Only a group call takes people it did not ring (members joining late: the service
  // checked they are members).
  if (!party && !(event.type === 'accept' && call.kind === 'group')) {
    throw new AppError('CALL_NOT_FOUND');
  }
  switch (event.type) {
    case 'accept':
      return accept(call, event.userId, event.sessionId, now);
    case 'reject':
      if (event.userId === call.callerId) return hangup(call, event.userId, now);
      if (party?.state === 'joined') throw new AppError('CALL_STATE_CHANGED');
      if (party?.state !== 'ringing') return same;
      return changed(settle(withParty(call, event.userId, { state: 'rejected' }), now));
    case 'cancel':
      if (event.userId !== call.callerId) throw new AppError('CALL_NOT_FOUND');
      if (call.state !== 'ringing') throw new AppError('CALL_STATE_CHANGED');
      return changed(end(call, 'cancelled', now));
    case 'hangup':
      return hangup(call, event.userId, now);
    case 'media':
      if (party?.state !== 'joined') throw new AppError('CALL_STATE_CHANGED');
      return media(call, event.state, now);
  }
}

/** When the call's next timer is due, if it waits for one. */
export function deadlineOf(call: CallRecord): Deadline | null {
  if (call.state === 'ended') return null;
  if (call.mediaLostAt !== null) return { at: call.mediaLostAt + MEDIA_LOSS_MS, kind: 'media' };
  if (call.state === 'ringing') return { at: call.ringUntil, kind: 'ring' };
  return null;
}

/** Seconds the call lasted: from media flowing (or the answer) to its end; 0 if never answered. */
export function durationOf(call: CallRecord): number {
  const from = call.connectedAt ?? call.acceptedAt;
  if (from === null || call.endedAt === null) return 0;
  return Math.max(0, Math.round((call.endedAt - from) / 1000));
}

function accept(call: CallRecord, userId: string, sessionId: string, now: number): Transition {
  const party = call.parties.find((p) => p.userId === userId);
  if (party?.state === 'joined') {
    // This device again (a retry), or another device of someone already in the call.
    if (party.sessionId === sessionId) return { call, changed: false, answered: null };
    throw new AppError('CALL_STATE_CHANGED');
  }
  // In a one-to-one call an answer once refused or left is final; a group call takes
  // people back while it runs.
  if (party && party.state !== 'ringing' && call.kind === 'single') {
    throw new AppError('CALL_STATE_CHANGED');
  }
  if (call.kind === 'group') {
    const joined = call.parties.filter((p) => p.state === 'joined').length;
    if (joined >= capacityOf(call.media)) throw new AppError('CALL_FULL');
  }
  const next = party
    ? withParty(call, userId, { state: 'joined', sessionId })
    : { ...call, parties: [...call.parties, { userId, state: 'joined' as const, sessionId }] };
  const answered = { userId, sessionId };
  if (call.state !== 'ringing') return { call: next, changed: true, answered };
  return { call: { ...next, state: 'accepted', acceptedAt: now }, changed: true, answered };
}

function hangup(call: CallRecord, userId: string, now: number): Transition {
  const party = call.parties.find((p) => p.userId === userId);
  if (!party || party.state === 'left' || party.state === 'rejected') {
    return { call, changed: false, answered: null };
  }
  // Hanging up on a call that still rings: the caller cancels it, an invitee declines it.
  if (party.state === 'ringing') {
    return changed(settle(withParty(call, userId, { state: 'rejected' }), now));
  }
  if (call.state === 'ringing' && userId === call.callerId) {
    return changed(end(call, 'cancelled', now));
  }
  const next = withParty(call, userId, { state: 'left' });
  if (call.kind === 'single') return changed(end(next, 'completed', now));
  return changed(settle(next, now));
}

function media(
  call: CallRecord,
  state: 'connected' | 'lost' | 'restored',
  now: number,
): Transition {
  switch (state) {
    case 'connected':
      if (call.state === 'ringing' && call.kind === 'single') {
        throw new AppError('CALL_STATE_CHANGED');
      }
      if (call.state === 'connected' && call.mediaLostAt === null) {
        return { call, changed: false, answered: null };
      }
      return changed({
        ...call,
        state: call.state === 'ringing' ? call.state : 'connected',
        connectedAt: call.connectedAt ?? now,
        mediaLostAt: null,
      });
    case 'lost':
      if (call.mediaLostAt !== null) return { call, changed: false, answered: null };
      return changed({ ...call, mediaLostAt: now });
    case 'restored':
      if (call.mediaLostAt === null) return { call, changed: false, answered: null };
      return changed({ ...call, mediaLostAt: null });
  }
}

function due(call: CallRecord, now: number): Transition {
  const deadline = deadlineOf(call);
  if (!deadline || deadline.at > now) return { call, changed: false, answered: null };
  return changed(end(call, deadline.kind === 'ring' ? 'missed' : 'failed', now));
}

/**
 * A call after someone declined or left: while ringing it ends once every invitee
 * declined (rejected; a one-to-one call at its invitee's refusal); afterwards a group call
 * ends once no one is in it, a one-to-one call once either left (completed).
 */
function settle(call: CallRecord, now: number): CallRecord {
  const invitees = call.parties.filter((p) => p.userId !== call.callerId);
  if (call.state === 'ringing') {
    if (invitees.every((p) => p.state === 'rejected')) return end(call, 'rejected', now);
    return call;
  }
  const joined = call.parties.filter((p) => p.state === 'joined').length;
  if (joined === 0 || (call.kind === 'single' && joined < 2)) return end(call, 'completed', now);
  return call;
}

function end(call: CallRecord, outcome: CallOutcome, now: number): CallRecord {
  return { ...call, state: 'ended', outcome, endedAt: now, mediaLostAt: null };
}

function withParty(call: CallRecord, userId: string, change: Partial<CallParty>): CallRecord {
  return {
    ...call,
    parties: call.parties.map((p) => (p.userId === userId ? { ...p, ...change } : p)),
  };
}

function changed(call: CallRecord): Transition {
  return { call, changed: true, answered: null };
}
