import { z } from 'zod';

/**
 * Voice and video calls: the signalling contract. A call is a record on the server with a
 * state machine; every transition is a socket frame a client sends (`callInvite`,
 * `callAccept`, …), checked by the server and idempotent on retry, answered by a `call`
 * frame with the call as it now stands (the same frame every participant's sockets get on
 * each change). Media flows between the browsers (one-to-one, through TURN when it must)
 * or through the SFU (groups); the server only relays the WebRTC offers, answers and
 * candidates of one-to-one calls (`callSignal`).
 *
 * This file imports nothing from chat.ts: chat.ts takes the frames and the call record
 * content from here.
 */

/** An invitee has this long to answer before the call ends as missed. */
export const CALL_RING_SECONDS = 60;
/** A call whose media stopped (as a participant reports) for this long ends as failed. */
export const CALL_MEDIA_LOSS_SECONDS = 15;
/** People at once in a group video call (the SFU forwards each one's video to every other). */
export const GROUP_CALL_VIDEO_MAX = 16;
/** People at once in a group call with audio only. */
export const GROUP_CALL_AUDIO_MAX = 50;

export const callMediaSchema = z.enum(['audio', 'video'], { error: 'media' });
export type CallMedia = z.infer<typeof callMediaSchema>;

/**
 * Where a call stands: ringing until someone accepts; accepted until media flows;
 * connected; ended (with an outcome).
 */
export const callStateSchema = z.enum(['ringing', 'accepted', 'connected', 'ended']);
export type CallState = z.infer<typeof callStateSchema>;

/**
 * How a call ended: `completed` after it was accepted; `rejected` by the invitee (in a
 * group: by every invitee); `cancelled` by the caller before an answer; `busy`: the
 * invitee was in another call; `missed`: no answer in CALL_RING_SECONDS; `failed`: media
 * lost for CALL_MEDIA_LOSS_SECONDS.
 */
export const callOutcomeSchema = z.enum([
  'completed',
  'rejected',
  'cancelled',
  'busy',
  'missed',
  'failed',
]);
export type CallOutcome = z.infer<typeof callOutcomeSchema>;

/** One person of a call: rung, in it, or out of it (and how). */
export const callParticipantStateSchema = z.enum(['ringing', 'joined', 'rejected', 'left']);
export type CallParticipantState = z.infer<typeof callParticipantStateSchema>;

export const callParticipantSchema = z.object({
  userId: z.string(),
  state: callParticipantStateSchema,
  /** The device (session) that joined: the others of this person stop ringing. */
  sessionId: z.string().nullable(),
});
export type CallParticipant = z.infer<typeof callParticipantSchema>;

export const callSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  /** A one-to-one call (peer to peer) or a group call (through the SFU). */
  kind: z.enum(['single', 'group']),
  media: callMediaSchema,
  callerId: z.string(),
  state: callStateSchema,
  outcome: callOutcomeSchema.nullable(),
  createdAt: z.number(),
  /** When ringing ends as missed, if no one has accepted by then. */
  ringUntil: z.number(),
  acceptedAt: z.number().nullable(),
  connectedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  /** The caller first, then the invitees (in a group: the members rung, and late joiners). */
  participants: z.array(callParticipantSchema),
});
export type Call = z.infer<typeof callSchema>;

/**
 * The record a call leaves in its chat, written by the server when the call ends: what
 * the client renders in the reader's language ("Voice call · 3:21", "Missed video call").
 */
export const callContentSchema = z.object({
  kind: z.literal('call'),
  callId: z.string(),
  media: callMediaSchema,
  outcome: callOutcomeSchema,
  /** Seconds from connected (or accepted) to the end; 0 for a call that never connected. */
  durationSeconds: z.number().int().min(0),
  group: z.boolean(),
});
export type CallContent = z.infer<typeof callContentSchema>;

// ---------------------------------------------------------------------------- frames

/** A client's id of a new call, unique per caller: a retried invite finds its call. */
export const clientCallIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, {
  error: 'clientCallId',
});
const callIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'call' });
const ridSchema = z.string().min(1).max(64);
/** Checked against the conversation's form by the server (a one-to-one chat or a group). */
const callConversationSchema = z.string().min(1).max(80);

/** What one browser hands the other of a one-to-one call, relayed by the server as is. */
export const callSignalSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('offer'), sdp: z.string().min(1).max(20_000) }),
    z.object({ type: z.literal('answer'), sdp: z.string().min(1).max(20_000) }),
    z.object({
      type: z.literal('candidate'),
      candidate: z.string().max(1_000),
      sdpMid: z.string().max(64).nullable(),
      sdpMLineIndex: z.number().int().min(0).max(64).nullable(),
    }),
  ],
  { error: 'signal' },
);
export type CallSignal = z.infer<typeof callSignalSchema>;

/** Call frames a client sends; each with a `rid` is answered by a `call` frame or an error. */
export const callClientFrames = [
  /** Rings the other person of a one-to-one chat, or the members of a group. */
  z.object({
    t: z.literal('callInvite'),
    rid: ridSchema,
    clientCallId: clientCallIdSchema,
    conversationId: callConversationSchema,
    media: callMediaSchema,
  }),
  /** Takes the call on this device (a group's running call: joins it). */
  z.object({ t: z.literal('callAccept'), rid: ridSchema, callId: callIdSchema }),
  /** Declines a ringing call (on every device of the person). */
  z.object({ t: z.literal('callReject'), rid: ridSchema, callId: callIdSchema }),
  /** The caller gives up before an answer. */
  z.object({ t: z.literal('callCancel'), rid: ridSchema, callId: callIdSchema }),
  /** Leaves a call that was accepted (a one-to-one call ends with it). */
  z.object({ t: z.literal('callHangup'), rid: ridSchema, callId: callIdSchema }),
  /**
   * How this device's media stands: `connected` once it flows, `lost` when it stopped
   * (the call fails after CALL_MEDIA_LOSS_SECONDS), `restored` when it flows again.
   */
  z.object({
    t: z.literal('callMedia'),
    rid: ridSchema,
    callId: callIdSchema,
    state: z.enum(['connected', 'lost', 'restored']),
  }),
  /** An offer, answer or candidate for the other person's device in the call. */
  z.object({
    t: z.literal('callSignal'),
    callId: callIdSchema,
    signal: callSignalSchema,
  }),
] as const;

/** Call frames the server sends. */
export const callServerFrames = [
  /** A call as it now stands: the answer to a call frame (`rid`), and every change. */
  z.object({ t: z.literal('call'), rid: z.string().nullable(), call: callSchema }),
  /**
   * To every device of the person who accepted: `sessionId` took the call, the others
   * stop ringing ("answered on another device").
   */
  z.object({
    t: z.literal('callAnswered'),
    callId: z.string(),
    sessionId: z.string(),
  }),
  /** From the other device of a one-to-one call. */
  z.object({
    t: z.literal('callSignal'),
    callId: z.string(),
    fromUserId: z.string(),
    fromSessionId: z.string(),
    signal: callSignalSchema,
  }),
] as const;

// ---------------------------------------------------------------------------- REST

/** An RTCIceServer: STUN, or TURN with credentials that expire. */
export const iceServerSchema = z.object({
  urls: z.array(z.string()),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;
export const iceServersResult = z.object({
  /** Empty without STUN or TURN configured: browsers use their host candidates only. */
  iceServers: z.array(iceServerSchema),
  /** When the TURN credentials stop working; null without TURN. */
  expiresAt: z.number().nullable(),
  /** `relay`: the browser gathers TURN candidates only (TURN_RELAY_ONLY, with TURN configured). */
  iceTransportPolicy: z.enum(['all', 'relay']),
});
export type IceServersResult = z.infer<typeof iceServersResult>;

/** The calls one is in that have not ended: read back after a reconnect. */
export const currentCallsResult = z.object({ calls: z.array(callSchema) });
export type CurrentCallsResult = z.infer<typeof currentCallsResult>;

export const callParams = z.object({ id: callIdSchema });

/** How a participant of a group call reaches its room on the SFU (Janus VideoRoom). */
export const sfuJoinResult = z.object({
  /** The SFU's public WebSocket or HTTP address for browsers. */
  url: z.string(),
  room: z.number().int(),
  /** This person's join token (the room's `pin` is never handed out). */
  token: z.string(),
  /** The display name to join with: the person's user id. */
  display: z.string(),
  /** Publishers at once (video: GROUP_CALL_VIDEO_MAX; audio: GROUP_CALL_AUDIO_MAX). */
  publishers: z.number().int(),
});
export type SfuJoinResult = z.infer<typeof sfuJoinResult>;
