import { z } from 'zod';
import { authResult, ticketFrame } from './api.js';
import { callClientFrames, callServerFrames } from './calls.js';
import {
  clientMsgIdSchema,
  conversationIdSchema,
  conversationSchema,
  messageSchema,
  sendableContentSchema,
  seqSchema,
} from './chat.js';
import { PULL_LIMIT_MAX } from './chat-rules.js';
import { friendRequestSchema, friendSchema, userCardSchema } from './people.js';
import { securityActivitySchema } from './security.js';

/**
 * What reaches a client besides messages: the per-user event stream, translations, and the
 * real-time socket's frames both ways.
 */

// ---------------------------------------------------------------------------- user events

/** Per-user changes with no conversation seq of their own, in the user's own seq order. */
export const userEventDataSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('friendRequest'), request: friendRequestSchema }),
  z.object({ type: z.literal('friendAdded'), friend: friendSchema }),
  z.object({ type: z.literal('friendUpdated'), friend: friendSchema }),
  z.object({ type: z.literal('friendRemoved'), userId: z.string() }),
  z.object({ type: z.literal('blocked'), user: userCardSchema }),
  z.object({ type: z.literal('unblocked'), userId: z.string() }),
  z.object({ type: z.literal('messageHidden'), conversationId: z.string(), seq: z.number() }),
  z.object({ type: z.literal('conversation'), conversation: conversationSchema }),
  /** Joined a group (created, invited, approved); its conversation follows by sync. */
  z.object({ type: z.literal('groupJoined'), groupId: z.string() }),
  /** No longer in a group: the server serves nothing more of it (devices keep what they have). */
  z.object({
    type: z.literal('groupLeft'),
    groupId: z.string(),
    reason: z.enum(['quit', 'removed', 'dismissed']),
  }),
  /** A group application to review (admins) or one's own, new or handled. */
  z.object({ type: z.literal('groupApplication'), applicationId: z.string() }),
  /**
   * Mining: a session ended with its points settled (thousandths), or a team member's
   * inviter (`by`) reminds them to check in.
   */
  z.object({
    type: z.literal('mining'),
    reason: z.enum(['ended', 'nudged']),
    points: z.number().int(),
    by: userCardSchema.nullable(),
  }),
  /** Something sensitive was done on the account (see security activity): other devices say so. */
  z.object({ type: z.literal('security'), activity: securityActivitySchema }),
]);
export type UserEventData = z.infer<typeof userEventDataSchema>;
export const userEventSchema = z.object({
  seq: z.number().int().min(1),
  at: z.number(),
  data: userEventDataSchema,
});
export type UserEvent = z.infer<typeof userEventSchema>;
export const eventPageQuery = z.object({
  after: seqSchema.default(0),
  limit: z.coerce.number().int().min(1).max(PULL_LIMIT_MAX).default(PULL_LIMIT_MAX),
});
export const eventPageResult = z.object({
  events: z.array(userEventSchema),
  hasMore: z.boolean(),
  /** The user's newest event seq. */
  lastSeq: z.number().int(),
});
export type EventPageResult = z.infer<typeof eventPageResult>;

// ---------------------------------------------------------------------------- translations

/**
 * Where a translation stands. `pending`: a provider is working on it and a `translation`
 * frame follows. `failed`: the providers gave up; asking again with `retry` tries anew.
 * `unavailable`: no provider translates the pair (a retry helps only once one does), so
 * a client may translate on the device instead.
 */
export const translationStatusSchema = z.enum(['done', 'pending', 'failed', 'unavailable']);
export type TranslationStatus = z.infer<typeof translationStatusSchema>;

export const translationSchema = z.object({
  conversationId: z.string(),
  seq: z.number().int().min(1),
  messageId: z.string(),
  /** The target language. */
  lang: z.string(),
  /** The message's source language. */
  from: z.string(),
  status: translationStatusSchema,
  /** The translated text (done). */
  text: z.string().nullable(),
  /** Why it failed (an error code), or null. */
  error: z.string().nullable(),
  /** When it was made or last changed. */
  at: z.number(),
});
export type Translation = z.infer<typeof translationSchema>;

// ---------------------------------------------------------------------------- socket

/** Frames a client sends. `rid` pairs a request with its answer. */
export const clientFrameSchema = z.discriminatedUnion(
  't',
  [
    z.object({ t: z.literal('auth'), token: z.string().min(1).max(200) }),
    /** Instead of `auth`: a signed-out browser waits on its device-login ticket. */
    ticketFrame,
    z.object({ t: z.literal('ping') }),
    z.object({
      t: z.literal('send'),
      rid: z.string().min(1).max(64),
      conversationId: conversationIdSchema,
      clientMsgId: clientMsgIdSchema,
      content: sendableContentSchema,
    }),
    z.object({
      t: z.literal('read'),
      conversationId: conversationIdSchema,
      seq: z.number().int().min(0),
    }),
    z.object({ t: z.literal('typing'), conversationId: conversationIdSchema }),
    ...callClientFrames,
  ],
  { error: 'frame' },
);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

const frameError = z.object({
  code: z.string(),
  message: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/** Frames the server sends. Pushes are hints: sync is the truth. */
export const serverFrameSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('hello'), userId: z.string(), sessionId: z.string(), now: z.number() }),
  z.object({ t: z.literal('pong'), now: z.number() }),
  z.object({ t: z.literal('ack'), rid: z.string(), message: messageSchema }),
  z.object({ t: z.literal('error'), rid: z.string().nullable(), error: frameError }),
  /** A new message (or notice) in one of the user's conversations, own sends included. */
  z.object({ t: z.literal('message'), message: messageSchema }),
  /** A new event in the user's stream. */
  z.object({ t: z.literal('event'), event: userEventSchema }),
  z.object({ t: z.literal('typing'), conversationId: z.string(), userId: z.string() }),
  /** The other person of a single conversation read up to `seq`. */
  z.object({
    t: z.literal('read'),
    conversationId: z.string(),
    userId: z.string(),
    seq: z.number(),
  }),
  /** A translation made, or failed, after its message. */
  z.object({ t: z.literal('translation'), translation: translationSchema }),
  /**
   * To a socket waiting on a device-login ticket: approved (with the new session, and the
   * socket then closes), or refused or expired.
   */
  z.object({ t: z.literal('signedIn'), auth: authResult }),
  z.object({ t: z.literal('ticket'), state: z.enum(['refused', 'expired']) }),
  ...callServerFrames,
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;
