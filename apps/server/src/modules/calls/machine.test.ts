import { CALL_MEDIA_LOSS_SECONDS, CALL_RING_SECONDS, GROUP_CALL_VIDEO_MAX } from '@teltlk/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors.js';
import {
  deadlineOf,
  durationOf,
  newCall,
  transition,
  type CallEvent,
  type CallRecord,
} from './machine.js';
import { CallTimers } from './timers.js';

/**
 * The state machine driven as the service drives it: each event applied at the fake
 * clock's time, and a timer armed for the call's next deadline that applies what is due
 * when it fires.
 */
class Line {
  call: CallRecord;
  readonly timers: CallTimers;
  readonly ended: CallRecord[] = [];

  constructor(input: {
    kind?: 'single' | 'group';
    invitees?: string[];
    busy?: boolean;
    media?: 'audio' | 'video';
  }) {
    this.call = newCall({
      id: 'c1',
      conversationId: input.kind === 'group' ? 'sg_g1' : 'si_a_b',
      kind: input.kind ?? 'single',
      media: input.media ?? 'video',
      callerId: 'a',
      callerSessionId: 'a1',
      inviteeIds: input.invitees ?? ['b'],
      now: Date.now(),
      busy: input.busy ?? false,
    });
    this.timers = new CallTimers({ now: () => Date.now(), fire: () => this.send({ type: 'due' }) });
    this.timers.arm(this.call.id, deadlineOf(this.call));
  }

  send(event: CallEvent) {
    const before = this.call;
    const result = transition(before, event, Date.now());
    this.call = result.call;
    if (result.changed) this.timers.arm(this.call.id, deadlineOf(this.call));
    if (before.state !== 'ended' && this.call.state === 'ended') this.ended.push(this.call);
    return result;
  }

  party(userId: string) {
    return this.call.parties.find((party) => party.userId === userId);
  }
}

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe('call state machine', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`ends a call nobody answers as missed after ${CALL_RING_SECONDS} s`, () => {
    const line = new Line({});
    expect(line.call.state).toBe('ringing');
    vi.advanceTimersByTime(CALL_RING_SECONDS * 1000 - 1);
    expect(line.call.state).toBe('ringing');
    vi.advanceTimersByTime(1);
    expect(line.call).toMatchObject({ state: 'ended', outcome: 'missed' });
    expect(durationOf(line.call)).toBe(0);
    expect(line.timers.size).toBe(0);
  });

  it('stops the ring timer once answered, and ends on hang-up with the duration', () => {
    const line = new Line({});
    vi.advanceTimersByTime(10_000);
    const answered = line.send({ type: 'accept', userId: 'b', sessionId: 'b2' });
    expect(answered.answered).toEqual({ userId: 'b', sessionId: 'b2' });
    expect(line.call).toMatchObject({ state: 'accepted', acceptedAt: Date.now() });
    line.send({ type: 'media', userId: 'a', state: 'connected' });
    expect(line.call.state).toBe('connected');
    vi.advanceTimersByTime(CALL_RING_SECONDS * 1000);
    expect(line.call.state).toBe('connected');
    vi.advanceTimersByTime(141_000);
    line.send({ type: 'hangup', userId: 'b' });
    expect(line.call).toMatchObject({ state: 'ended', outcome: 'completed' });
    expect(durationOf(line.call)).toBe(201);
  });

  it(`fails a call whose media stays lost for ${CALL_MEDIA_LOSS_SECONDS} s, and keeps one it comes back to`, () => {
    const line = new Line({});
    line.send({ type: 'accept', userId: 'b', sessionId: 'b1' });
    line.send({ type: 'media', userId: 'b', state: 'connected' });
    line.send({ type: 'media', userId: 'a', state: 'lost' });
    vi.advanceTimersByTime(CALL_MEDIA_LOSS_SECONDS * 1000 - 1);
    line.send({ type: 'media', userId: 'b', state: 'restored' });
    vi.advanceTimersByTime(60_000);
    expect(line.call.state).toBe('connected');
    line.send({ type: 'media', userId: 'b', state: 'lost' });
    // A second report of the same loss does not restart the grace.
    vi.advanceTimersByTime(5_000);
    expect(line.send({ type: 'media', userId: 'a', state: 'lost' }).changed).toBe(false);
    vi.advanceTimersByTime(CALL_MEDIA_LOSS_SECONDS * 1000 - 5_000);
    expect(line.call).toMatchObject({ state: 'ended', outcome: 'failed' });
    // Connected for the grace less a millisecond, a minute, and the grace: rounded.
    expect(durationOf(line.call)).toBe(60 + 2 * CALL_MEDIA_LOSS_SECONDS);
  });

  it('ends at once as busy when the invitee is in another call', () => {
    const line = new Line({ busy: true });
    expect(line.call).toMatchObject({ state: 'ended', outcome: 'busy' });
    expect(deadlineOf(line.call)).toBeNull();
    expect(codeOf(() => line.send({ type: 'accept', userId: 'b', sessionId: 'b1' }))).toBe(
      'CALL_STATE_CHANGED',
    );
  });

  it('is cancelled by the caller before an answer, and a retry changes nothing', () => {
    const line = new Line({});
    expect(codeOf(() => line.send({ type: 'cancel', userId: 'b' }))).toBe('CALL_NOT_FOUND');
    line.send({ type: 'cancel', userId: 'a' });
    expect(line.call).toMatchObject({ state: 'ended', outcome: 'cancelled' });
    expect(line.send({ type: 'cancel', userId: 'a' }).changed).toBe(false);
    vi.advanceTimersByTime(CALL_RING_SECONDS * 1000);
    expect(line.ended).toHaveLength(1);
    expect(line.call.outcome).toBe('cancelled');
  });

  it('cannot be cancelled once answered: the caller hangs up instead', () => {
    const line = new Line({});
    line.send({ type: 'accept', userId: 'b', sessionId: 'b1' });
    expect(codeOf(() => line.send({ type: 'cancel', userId: 'a' }))).toBe('CALL_STATE_CHANGED');
    line.send({ type: 'hangup', userId: 'a' });
    expect(line.call).toMatchObject({ state: 'ended', outcome: 'completed' });
  });

  it('is rejected by the invitee, once (a retry is answered with the call as it is)', () => {
    const line = new Line({});
    line.send({ type: 'reject', userId: 'b' });
    expect(line.call).toMatchObject({ state: 'ended', outcome: 'rejected' });
    expect(line.party('b')?.state).toBe('rejected');
    expect(line.send({ type: 'reject', userId: 'b' }).changed).toBe(false);
    expect(codeOf(() => line.send({ type: 'accept', userId: 'b', sessionId: 'b1' }))).toBe(
      'CALL_STATE_CHANGED',
    );
  });

  it('is taken by one device: the same device again is a retry, another is told it was answered elsewhere', () => {
    const line = new Line({});
    line.send({ type: 'accept', userId: 'b', sessionId: 'phone' });
    expect(line.party('b')).toEqual({ userId: 'b', state: 'joined', sessionId: 'phone' });
    const retry = line.send({ type: 'accept', userId: 'b', sessionId: 'phone' });
    expect(retry).toMatchObject({ changed: false, answered: null });
    expect(codeOf(() => line.send({ type: 'accept', userId: 'b', sessionId: 'laptop' }))).toBe(
      'CALL_STATE_CHANGED',
    );
    // Declining on the other device after the answer is refused the same way.
    expect(codeOf(() => line.send({ type: 'reject', userId: 'b' }))).toBe('CALL_STATE_CHANGED');
  });

  it('refuses people who are not in a one-to-one call', () => {
    const line = new Line({});
    for (const event of [
      { type: 'accept', userId: 'x', sessionId: 'x1' },
      { type: 'reject', userId: 'x' },
      { type: 'hangup', userId: 'x' },
      { type: 'media', userId: 'x', state: 'connected' },
    ] as const) {
      expect(codeOf(() => line.send(event))).toBe('CALL_NOT_FOUND');
    }
  });

  it('refuses media reports from someone not in the call yet', () => {
    const line = new Line({});
    expect(codeOf(() => line.send({ type: 'media', userId: 'b', state: 'connected' }))).toBe(
      'CALL_STATE_CHANGED',
    );
  });

  describe('in a group', () => {
    it('rings the members, takes late joiners and ends when the last one leaves', () => {
      const line = new Line({ kind: 'group', invitees: ['b', 'c'] });
      line.send({ type: 'accept', userId: 'b', sessionId: 'b1' });
      expect(line.call.state).toBe('accepted');
      line.send({ type: 'reject', userId: 'c' });
      line.send({ type: 'accept', userId: 'd', sessionId: 'd1' });
      expect(line.party('d')?.state).toBe('joined');
      line.send({ type: 'hangup', userId: 'a' });
      line.send({ type: 'hangup', userId: 'b' });
      expect(line.call.state).toBe('accepted');
      // Someone who left may come back while the call runs.
      line.send({ type: 'accept', userId: 'b', sessionId: 'b1' });
      line.send({ type: 'hangup', userId: 'b' });
      line.send({ type: 'hangup', userId: 'd' });
      expect(line.call).toMatchObject({ state: 'ended', outcome: 'completed' });
    });

    it('ends as rejected once every member rung declined, as missed if no one answers', () => {
      const declined = new Line({ kind: 'group', invitees: ['b', 'c'] });
      declined.send({ type: 'reject', userId: 'b' });
      expect(declined.call.state).toBe('ringing');
      declined.send({ type: 'reject', userId: 'c' });
      expect(declined.call).toMatchObject({ state: 'ended', outcome: 'rejected' });
      const unanswered = new Line({ kind: 'group', invitees: ['b', 'c'] });
      vi.advanceTimersByTime(CALL_RING_SECONDS * 1000);
      expect(unanswered.call).toMatchObject({ state: 'ended', outcome: 'missed' });
    });

    it(`holds ${GROUP_CALL_VIDEO_MAX} people with video`, () => {
      const members = Array.from({ length: GROUP_CALL_VIDEO_MAX + 1 }, (_, i) => `m${i}`);
      const line = new Line({ kind: 'group', invitees: members });
      for (const member of members.slice(0, GROUP_CALL_VIDEO_MAX - 1)) {
        line.send({ type: 'accept', userId: member, sessionId: `${member}-1` });
      }
      const last = members[GROUP_CALL_VIDEO_MAX - 1] ?? '';
      expect(codeOf(() => line.send({ type: 'accept', userId: last, sessionId: 's' }))).toBe(
        'CALL_FULL',
      );
      const audio = new Line({ kind: 'group', invitees: members, media: 'audio' });
      for (const member of members) {
        audio.send({ type: 'accept', userId: member, sessionId: `${member}-1` });
      }
      expect(audio.call.parties.filter((party) => party.state === 'joined')).toHaveLength(
        members.length + 1,
      );
    });
  });
});
