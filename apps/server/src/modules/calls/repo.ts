import type {
  Call,
  CallMedia,
  CallOutcome,
  CallParticipantState,
  CallState,
} from '@teltlk/protocol';
import type { Selectable } from 'kysely';
import type { CallsTable, Db } from '../../db/schema.js';
import type { CallRecord } from './machine.js';

/** A call as stored: the machine's record, its revision and its SFU room. */
export interface StoredCall {
  record: CallRecord;
  revision: number;
  sfuRoom: { id: number; secret: string } | null;
  /** Each participant's SFU join token, once they asked for one. */
  tokens: Map<string, string>;
}

/** Calls a user's unanswered invites and running calls are read from at once. */
const LIVE_CALLS_MAX = 20;

/** The calls and call_participants tables (the calls module's own). */
export class CallRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): CallRepo {
    return new CallRepo(db);
  }

  async find(id: string): Promise<StoredCall | null> {
    const row = await this.db
      .selectFrom('calls')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? this.withParties(row) : null;
  }

  async findByClientId(callerId: string, clientCallId: string): Promise<StoredCall | null> {
    const row = await this.db
      .selectFrom('calls')
      .selectAll()
      .where('caller_id', '=', callerId)
      .where('client_call_id', '=', clientCallId)
      .executeTakeFirst();
    return row ? this.withParties(row) : null;
  }

  /** The running call of a conversation (a group has one at a time), if any. */
  async liveIn(conversationId: string): Promise<StoredCall | null> {
    const row = await this.db
      .selectFrom('calls')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('state', '!=', 'ended')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row ? this.withParties(row) : null;
  }

  /** The calls a user is rung by or in, not ended. */
  async liveOf(userId: string): Promise<StoredCall[]> {
    const rows = await this.db
      .selectFrom('call_participants as p')
      .innerJoin('calls as c', 'c.id', 'p.call_id')
      .selectAll('c')
      .where('p.user_id', '=', userId)
      .where('p.live', '=', 1)
      .orderBy('c.created_at', 'desc')
      .limit(LIVE_CALLS_MAX)
      .execute();
    return Promise.all(rows.map((row) => this.withParties(row)));
  }

  /** Which of these users are in a call (joined, not ended) on which device. */
  async joinedOf(
    userIds: readonly string[],
  ): Promise<{ userId: string; sessionId: string; callId: string }[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('call_participants')
      .select(['user_id', 'session_id', 'call_id'])
      .where('user_id', 'in', userIds)
      .where('live', '=', 1)
      .where('state', '=', 'joined')
      .execute();
    return rows.flatMap((row) =>
      row.session_id === null
        ? []
        : [{ userId: row.user_id, sessionId: row.session_id, callId: row.call_id }],
    );
  }

  async insert(call: CallRecord, clientCallId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('calls')
        .values({
          id: call.id,
          caller_id: call.callerId,
          client_call_id: clientCallId,
          conversation_id: call.conversationId,
          kind: call.kind,
          media: call.media,
          ...callColumns(call),
          created_at: call.createdAt,
          ring_until: call.ringUntil,
          sfu_room: null,
          sfu_secret: null,
          revision: 1,
        })
        .execute();
      await trx
        .insertInto('call_participants')
        .values(call.parties.map((party, position) => participantRow(call, party, position)))
        .execute();
    });
  }

  /**
   * Writes a transition if the call is still at `revision` (no other change came between):
   * false if one did, and the caller reads it again. The call and its participants are
   * written in one transaction: a reader never sees the new revision with the old
   * participants (two devices of one person answering at once would both take the call).
   */
  async save(call: CallRecord, revision: number, before: CallRecord): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('calls')
        .set({ ...callColumns(call), revision: revision + 1 })
        .where('id', '=', call.id)
        .where('revision', '=', revision)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      const known = new Map(before.parties.map((party) => [party.userId, party]));
      for (const [position, party] of call.parties.entries()) {
        const was = known.get(party.userId);
        const live = liveOf(call, party.state);
        if (!was) {
          await trx
            .insertInto('call_participants')
            .values(participantRow(call, party, position))
            .execute();
        } else if (
          was.state !== party.state ||
          was.sessionId !== party.sessionId ||
          liveOf(before, was.state) !== live
        ) {
          await trx
            .updateTable('call_participants')
            .set({ state: party.state, session_id: party.sessionId, live })
            .where('call_id', '=', call.id)
            .where('user_id', '=', party.userId)
            .execute();
        }
      }
      return true;
    });
  }

  /** Keeps the group call's SFU room, unless another node gave it one first. */
  async setRoom(callId: string, room: { id: number; secret: string }): Promise<boolean> {
    const result = await this.db
      .updateTable('calls')
      .set({ sfu_room: room.id, sfu_secret: room.secret })
      .where('id', '=', callId)
      .where('sfu_room', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async setToken(callId: string, userId: string, token: string): Promise<void> {
    await this.db
      .updateTable('call_participants')
      .set({ sfu_token: token })
      .where('call_id', '=', callId)
      .where('user_id', '=', userId)
      .execute();
  }

  private async withParties(row: Selectable<CallsTable>): Promise<StoredCall> {
    const parties = await this.db
      .selectFrom('call_participants')
      .select(['user_id', 'state', 'session_id', 'sfu_token'])
      .where('call_id', '=', row.id)
      .orderBy('position')
      .execute();
    const tokens = new Map<string, string>();
    for (const party of parties) if (party.sfu_token) tokens.set(party.user_id, party.sfu_token);
    return {
      record: {
        id: row.id,
        conversationId: row.conversation_id,
        kind: row.kind === 'group' ? 'group' : 'single',
        media: row.media as CallMedia,
        callerId: row.caller_id,
        state: row.state as CallState,
        outcome: row.outcome as CallOutcome | null,
        createdAt: Number(row.created_at),
        ringUntil: Number(row.ring_until),
        acceptedAt: numberOrNull(row.accepted_at),
        connectedAt: numberOrNull(row.connected_at),
        endedAt: numberOrNull(row.ended_at),
        mediaLostAt: numberOrNull(row.media_lost_at),
        parties: parties.map((party) => ({
          userId: party.user_id,
          state: party.state as CallParticipantState,
          sessionId: party.session_id,
        })),
      },
      revision: Number(row.revision),
      sfuRoom:
        row.sfu_room !== null && row.sfu_secret !== null
          ? { id: Number(row.sfu_room), secret: row.sfu_secret }
          : null,
      tokens,
    };
  }
}

/** A call as its participants see it. */
export function viewOf(call: CallRecord): Call {
  return {
    id: call.id,
    conversationId: call.conversationId,
    kind: call.kind,
    media: call.media,
    callerId: call.callerId,
    state: call.state,
    outcome: call.outcome,
    createdAt: call.createdAt,
    ringUntil: call.ringUntil,
    acceptedAt: call.acceptedAt,
    connectedAt: call.connectedAt,
    endedAt: call.endedAt,
    participants: call.parties.map((party) => ({ ...party })),
  };
}

function callColumns(call: CallRecord) {
  return {
    state: call.state,
    outcome: call.outcome,
    accepted_at: call.acceptedAt,
    connected_at: call.connectedAt,
    ended_at: call.endedAt,
    media_lost_at: call.mediaLostAt,
  };
}

function participantRow(call: CallRecord, party: CallRecord['parties'][number], position: number) {
  return {
    call_id: call.id,
    user_id: party.userId,
    position,
    state: party.state,
    session_id: party.sessionId,
    live: liveOf(call, party.state),
    sfu_token: null,
  };
}

/** Rung or in a call that has not ended. */
function liveOf(call: CallRecord, state: CallParticipantState): number {
  return call.state !== 'ended' && (state === 'ringing' || state === 'joined') ? 1 : 0;
}

function numberOrNull(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}
