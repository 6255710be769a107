import {
  CALL_RING_SECONDS,
  GROUP_CALL_AUDIO_MAX,
  groupIdOf,
  peerOf,
  type Call,
  type CallMedia,
  type CallSignal,
  type CurrentCallsResult,
  type IceServersResult,
  type ServerFrame,
  type SfuJoinResult,
} from '@teltlk/protocol';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { isUniqueViolation } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { MemberHub } from '../../realtime/hub.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { ContactService } from '../contacts/service.js';
import type { GroupService } from '../groups/service.js';
import type { MessageService } from '../messages/service.js';
import type { PushService } from '../push/service.js';
import { iceServersFor, type IceConfig } from './ice.js';
import type { Sfu } from './janus.js';
import {
  capacityOf,
  deadlineOf,
  durationOf,
  newCall,
  transition,
  type CallEvent,
  type CallRecord,
  type Transition,
} from './machine.js';
import { viewOf, type CallRepo, type StoredCall } from './repo.js';
import { CallTimers } from './timers.js';

/** A transition read, applied and written again at most this often when others keep winning. */
const CAS_ATTEMPTS = 5;

/** What a device asks of a call it is in, besides inviting. */
export type CallAction =
  | { type: 'accept' }
  | { type: 'reject' }
  | { type: 'cancel' }
  | { type: 'hangup' }
  | { type: 'media'; state: 'connected' | 'lost' | 'restored' };

/**
 * Calls: the signalling half. Each transition is read, applied by the state machine
 * (machine.ts) and written where the call is still at the revision read, so devices on
 * different nodes answering at once agree on one winner; after the write every
 * participant's sockets get the call as it now stands (a group's online members too, for
 * the chat's banner), the other devices of whoever answered hear they were answered
 * elsewhere, invitees without a socket get a push, and the node arms a timer for the
 * call's next deadline. A call that ends leaves its record message in its chat.
 */
export class CallService {
  private readonly timers: CallTimers;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      repo: CallRepo;
      clock: Clock;
      logger: Logger;
      hub: MemberHub;
      /** Whether a device (session) has a socket open on any node. */
      online: (userId: string, sessionId: string) => Promise<boolean>;
      messages: MessageService;
      contacts: ContactService;
      groups: GroupService;
      push: PushService;
      /** The SFU of group calls; null: group calls ring and connect, but have no room. */
      sfu: Sfu | null;
      ice: IceConfig;
    },
  ) {
    this.timers = new CallTimers({
      now: () => deps.clock.now(),
      fire: (callId) => this.background(() => this.settleDue(callId)),
    });
  }

  // -------------------------------------------------------------------------- frames

  /**
   * Starts a call, or finds the one this invite started already (the same client call
   * id) or the group's running call (to join with an accept). Throws AppError:
   * CONVERSATION_NOT_FOUND, NOT_FRIENDS, CALL_NOT_ALLOWED.
   */
  async invite(
    auth: AuthInfo,
    input: { clientCallId: string; conversationId: string; media: CallMedia },
  ): Promise<Call> {
    const { repo, clock } = this.deps;
    const replay = await repo.findByClientId(auth.userId, input.clientCallId);
    if (replay) return viewOf((await this.settled(replay)).record);
    const groupId = groupIdOf(input.conversationId);
    const peerId = groupId === null ? peerOf(input.conversationId, auth.userId) : null;
    let inviteeIds: string[];
    let busy = false;
    if (groupId !== null) {
      // As to a send: to someone outside the group, its chat does not exist.
      const roster = await this.deps.groups.roster
        .callRoster(auth.userId, groupId, GROUP_CALL_AUDIO_MAX)
        .catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'GROUP_NOT_FOUND') {
            throw new AppError('CONVERSATION_NOT_FOUND');
          }
          throw error;
        });
      if (!roster.mayStart) throw new AppError('CALL_NOT_ALLOWED');
      const running = await repo.liveIn(input.conversationId);
      if (running) return viewOf((await this.settled(running)).record);
      inviteeIds = roster.ringIds;
    } else if (peerId !== null && peerId !== auth.userId) {
      await this.checkMayCall(auth.userId, peerId);
      inviteeIds = [peerId];
      busy = await this.inCall(peerId);
    } else {
      throw new AppError('CONVERSATION_NOT_FOUND');
    }
    const call = newCall({
      id: newId(),
      conversationId: input.conversationId,
      kind: groupId === null ? 'single' : 'group',
      media: input.media,
      callerId: auth.userId,
      callerSessionId: auth.sessionId,
      inviteeIds,
      now: clock.now(),
      busy,
    });
    try {
      await repo.insert(call, input.clientCallId);
    } catch (error) {
      // The same invite, retried on another node at the same moment.
      const won = isUniqueViolation(error)
        ? await repo.findByClientId(auth.userId, input.clientCallId)
        : null;
      if (!won) throw error;
      return viewOf(won.record);
    }
    this.announce(null, { call, changed: true, answered: null });
    const rung = call.state === 'ended' ? [] : inviteeIds;
    this.deps.push.incomingCall(
      {
        id: call.id,
        conversationId: call.conversationId,
        media: call.media,
        callerId: call.callerId,
        ringSeconds: CALL_RING_SECONDS,
      },
      rung,
    );
    return viewOf(call);
  }

  /** Accept, reject, cancel, hang up or report media. Throws AppError: CALL_NOT_FOUND, CALL_STATE_CHANGED, CALL_FULL. */
  async act(auth: AuthInfo, callId: string, action: CallAction): Promise<Call> {
    const event: CallEvent =
      action.type === 'accept'
        ? { type: 'accept', userId: auth.userId, sessionId: auth.sessionId }
        : action.type === 'media'
          ? { type: 'media', userId: auth.userId, state: action.state }
          : { type: action.type, userId: auth.userId };
    return viewOf(await this.apply(callId, event, auth.userId));
  }

  /**
   * Relays an offer, answer or candidate to the other device of an answered one-to-one
   * call. Throws AppError: CALL_NOT_FOUND, CALL_STATE_CHANGED.
   */
  async signal(auth: AuthInfo, callId: string, signal: CallSignal): Promise<void> {
    const stored = await this.deps.repo.find(callId);
    const call = stored?.record;
    const me = call?.parties.find((party) => party.userId === auth.userId);
    if (!call || !me || call.kind !== 'single') throw new AppError('CALL_NOT_FOUND');
    const other = call.parties.find((party) => party.userId !== auth.userId);
    if (
      call.state === 'ended' ||
      me.state !== 'joined' ||
      me.sessionId !== auth.sessionId ||
      other?.state !== 'joined'
    ) {
      throw new AppError('CALL_STATE_CHANGED');
    }
    this.deps.hub.toUsers([other.userId], {
      t: 'callSignal',
      callId,
      fromUserId: auth.userId,
      fromSessionId: auth.sessionId,
      signal,
    });
  }

  // -------------------------------------------------------------------------- reads

  /** The calls one is rung by or in: what a device reads back after a reconnect. */
  async current(userId: string): Promise<CurrentCallsResult> {
    const live = await this.deps.repo.liveOf(userId);
    const settled = await Promise.all(live.map((stored) => this.settled(stored)));
    return {
      calls: settled
        .filter(({ record }) => record.state !== 'ended')
        .map(({ record }) => viewOf(record)),
    };
  }

  iceServers(userId: string): IceServersResult {
    return iceServersFor(this.deps.ice, userId, this.deps.clock.now());
  }

  /**
   * The way into a group call's SFU room for a participant who joined it: the room is
   * made at the first ask, and each person's join token added to its allowed list.
   * Throws AppError: CALL_NOT_FOUND, CALL_STATE_CHANGED, FEATURE_UNAVAILABLE (no SFU).
   */
  async sfuJoin(auth: AuthInfo, callId: string): Promise<SfuJoinResult> {
    const { repo, sfu } = this.deps;
    const stored = await repo.find(callId);
    const me = stored?.record.parties.find((party) => party.userId === auth.userId);
    if (!stored || !me || stored.record.kind !== 'group') throw new AppError('CALL_NOT_FOUND');
    if (stored.record.state === 'ended' || me.state !== 'joined') {
      throw new AppError('CALL_STATE_CHANGED');
    }
    if (!sfu) throw new AppError('FEATURE_UNAVAILABLE');
    const publishers = capacityOf(stored.record.media);
    const token = stored.tokens.get(auth.userId) ?? randomBytes(24).toString('base64url');
    try {
      let room = stored.sfuRoom;
      if (!room) {
        const made = await sfu.createRoom({ publishers, tokens: [token] });
        if (await repo.setRoom(callId, made)) room = made;
        else {
          // Another node made the call's room first: that one counts.
          await sfu.destroyRoom(made).catch(() => undefined);
          room = (await repo.find(callId))?.sfuRoom ?? null;
          if (!room) throw new AppError('CALL_STATE_CHANGED');
          await sfu.allow(room, [token]);
        }
      } else if (!stored.tokens.has(auth.userId)) {
        await sfu.allow(room, [token]);
      }
      if (!stored.tokens.has(auth.userId)) await repo.setToken(callId, auth.userId, token);
      return { url: sfu.publicUrl, room: room.id, token, display: auth.userId, publishers };
    } catch (error) {
      if (error instanceof AppError) throw error;
      this.deps.logger.error({ err: error }, 'SFU room could not be prepared');
      throw new AppError('FEATURE_UNAVAILABLE');
    }
  }

  /**
   * A device's last socket closed (a crash, a lost network, the page gone). If it is in a
   * call and does not come back elsewhere: a one-to-one call's media counts as lost, and
   * fails after its grace unless the device reconnects and says it flows (`restored`); in
   * a group call the person leaves, and joins again on reconnecting.
   */
  sessionGone(userId: string, sessionId: string): void {
    if (this.closing) return;
    this.background(async () => {
      const joined = (await this.deps.repo.joinedOf([userId])).filter(
        (entry) => entry.sessionId === sessionId,
      );
      if (joined.length === 0 || (await this.deps.online(userId, sessionId))) return;
      for (const { callId } of joined) {
        const stored = await this.deps.repo.find(callId);
        if (!stored || stored.record.state === 'ended') continue;
        const event: CallEvent =
          stored.record.kind === 'single'
            ? { type: 'media', userId, state: 'lost' }
            : { type: 'hangup', userId };
        await this.apply(callId, event, userId).catch((error: unknown) => {
          if (!(error instanceof AppError)) throw error;
        });
      }
    });
  }

  private closing = false;

  /** Resolves once the work under way is done (record messages, rooms closed, devices gone). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Timers off, then waits for work under way (record messages, rooms closed). */
  async close(): Promise<void> {
    this.closing = true;
    this.timers.close();
    await this.drain();
  }

  // -------------------------------------------------------------------------- internals

  /** One-to-one: friends, and no block either way. */
  private async checkMayCall(userId: string, peerId: string): Promise<void> {
    const { contacts } = this.deps;
    const friends = await contacts.friendsAmong(userId, [peerId]);
    const blocks = await contacts.blocksAmong([
      [userId, peerId],
      [peerId, userId],
    ]);
    // A block is not told apart from no friendship: the blocked learn nothing.
    if (!friends.has(peerId) || blocks.size > 0) throw new AppError('NOT_FRIENDS');
  }

  /** Whether a user is in a call now, on a device that is still there. */
  private async inCall(userId: string): Promise<boolean> {
    const joined = await this.deps.repo.joinedOf([userId]);
    for (const { sessionId } of joined) {
      if (await this.deps.online(userId, sessionId)) return true;
    }
    return false;
  }

  /**
   * Reads the call, applies the event and writes it at the revision read, again if
   * another change came first. Throws CALL_NOT_FOUND for a call the user has no part in.
   */
  private async apply(callId: string, event: CallEvent, userId: string): Promise<CallRecord> {
    const { repo, clock, messages } = this.deps;
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
      const stored = await repo.find(callId);
      if (!stored) throw new AppError('CALL_NOT_FOUND');
      const { record } = stored;
      const inCall = record.parties.some((p) => p.userId === userId);
      // A group call is open to its group's members (who join late); no one else learns of it.
      if (!inCall) {
        const member =
          record.kind === 'group' && (await messages.isMember(record.conversationId, userId));
        if (!member) throw new AppError('CALL_NOT_FOUND');
      }
      // What is due (ringing run out, lost media) happens before the event.
      const now = clock.now();
      const due = transition(record, { type: 'due' }, now);
      const result = transition(due.call, event, now);
      if (!due.changed && !result.changed) return record;
      if (!(await repo.save(result.call, stored.revision, record))) continue;
      this.announce(record, {
        call: result.call,
        changed: true,
        answered: result.answered,
      });
      return result.call;
    }
    throw new AppError('CALL_STATE_CHANGED');
  }

  /** A stored call with what was due applied (and written): calls whose node went away. */
  private async settled(stored: StoredCall): Promise<StoredCall> {
    const now = this.deps.clock.now();
    const result = transition(stored.record, { type: 'due' }, now);
    if (!result.changed) return stored;
    if (await this.deps.repo.save(result.call, stored.revision, stored.record)) {
      this.announce(stored.record, result);
      return { ...stored, record: result.call, revision: stored.revision + 1 };
    }
    return (await this.deps.repo.find(stored.record.id)) ?? stored;
  }

  private async settleDue(callId: string): Promise<void> {
    const stored = await this.deps.repo.find(callId);
    if (!stored) return;
    const settled = await this.settled(stored);
    // Not due yet after all (the deadline moved on another node): wait again.
    if (settled === stored) this.timers.arm(callId, deadlineOf(stored.record));
  }

  /**
   * After a transition's write (`before`: the call as it was, null for a new one):
   * frames, the timer, and for a call that ended its record.
   */
  private announce(before: CallRecord | null, { call, answered }: Transition): void {
    const frame: ServerFrame = { t: 'call', rid: null, call: viewOf(call) };
    const people = call.parties.map((party) => party.userId);
    if (call.kind === 'group') {
      this.deps.hub.toOnlineMembers(call.conversationId, [frame]);
      // Those rung before they left the group still hear it end.
      const gone = (before?.parties ?? [])
        .map((party) => party.userId)
        .filter((id) => !people.includes(id));
      if (gone.length > 0) this.deps.hub.toUsers(gone, frame);
    } else {
      this.deps.hub.toUsers(people, frame);
    }
    if (answered) {
      this.deps.hub.toUsers([answered.userId], {
        t: 'callAnswered',
        callId: call.id,
        sessionId: answered.sessionId,
      });
    }
    this.timers.arm(call.id, deadlineOf(call));
    // A call that ended as it was made (busy) leaves its record too.
    if (call.state === 'ended' && before?.state !== 'ended') {
      this.background(() => this.ended(call));
    }
  }

  /** A call ended: its record message in its chat, and its SFU room closed. */
  private async ended(call: CallRecord): Promise<void> {
    const { messages } = this.deps;
    const outcome = call.outcome ?? 'completed';
    await messages.transact((trx, after) =>
      messages.appendAs(
        trx,
        {
          userId: call.callerId,
          conversationId: call.conversationId,
          clientMsgId: `call-${call.id}`,
          content: {
            kind: 'call',
            callId: call.id,
            media: call.media,
            outcome,
            durationSeconds: durationOf(call),
            group: call.kind === 'group',
          },
        },
        after,
      ),
    );
    const stored = call.kind === 'group' ? await this.deps.repo.find(call.id) : null;
    if (stored?.sfuRoom && this.deps.sfu) await this.deps.sfu.destroyRoom(stored.sfuRoom);
  }

  private background(work: () => Promise<void>): void {
    const run = work()
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'call follow-up failed'))
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
  }
}
