import { z } from 'zod';
import { authResult, ticketFrame } from './api.js';
import { callClientFrames, callContentSchema, callServerFrames } from './calls.js';
import { isPlainName, motherTongueSchema } from './validation.js';
import { faceContentSchema } from './faces.js';
import { securityActivitySchema } from './security.js';
import {
  fileContentSchema,
  imageContentSchema,
  videoContentSchema,
  voiceContentSchema,
} from './media.js';
import {
  BURN_DURATIONS,
  GREETING_MAX_LENGTH,
  GROUP_TEXT_MAX_LENGTH,
  MENTIONS_MAX,
  MERGED_ITEMS_MAX,
  PLACE_NAME_MAX_LENGTH,
  MESSAGE_TEXT_MAX_LENGTH,
  PULL_LIMIT_MAX,
  QUOTE_EXCERPT_MAX_LENGTH,
  REMARK_MAX_LENGTH,
  SYNC_CONVERSATIONS_LIMIT_MAX,
} from './chat-rules.js';

export * from './chat-rules.js';

/**
 * Contacts, conversations, messages and the real-time socket. Times are epoch
 * milliseconds. The model (ARCHITECTURE.md): every conversation has its own gap-free
 * `seq`; a message row is written once; each member keeps `readSeq` and `minSeq`;
 * per-user state changes that have no seq of their own (a message deleted for me,
 * friend events) go through the user's event stream, which has its own `seq`.
 */

export const conversationIdSchema = z
  .string()
  .regex(/^(si_[A-Za-z0-9]{1,32}_[A-Za-z0-9]{1,32}|sg_[A-Za-z0-9]{1,32})$/, {
    error: 'conversation',
  });
/** Chosen by the sending device, unique per sender: makes retried sends idempotent. */
export const clientMsgIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'clientMsgId' });
export const userIdSchema = z.string().regex(/^[A-Za-z0-9]{1,32}$/, { error: 'user' });
export const seqSchema = z.coerce.number().int().min(0);

// ---------------------------------------------------------------------------- people

/** What anyone may see of another user. */
export const userCardSchema = z.object({
  id: z.string(),
  teltlkId: z.string(),
  nickname: z.string(),
  avatarUrl: z.string().nullable(),
  country: z.string(),
  motherTongue: z.string(),
  /** A product account (announcements); only operators post as it. */
  official: z.boolean(),
});
export type UserCard = z.infer<typeof userCardSchema>;

export const relationSchema = z.enum(['self', 'friend', 'none']);
/** A user as the caller sees them: the card plus how they relate. */
export const userProfileSchema = userCardSchema.extend({
  relation: relationSchema,
  /** The caller's alias for a friend. */
  remark: z.string().nullable(),
  /** The caller has blocked this user. */
  blocked: z.boolean(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** Phone (+E.164), email or Teltlk ID, matched exactly (IDs and emails case-insensitively). */
export const userSearchQuery = z.object({
  q: z.string().trim().min(1, { error: 'required' }).max(254, { error: 'invalid' }),
});
export const userSearchResult = z.object({ user: userProfileSchema });

export const friendRequestStatusSchema = z.enum(['pending', 'agreed', 'rejected', 'added']);
export type FriendRequestStatus = z.infer<typeof friendRequestStatusSchema>;
/**
 * One application. A newer one from the same sender to the same recipient replaces the
 * older (same id, new greeting and time, pending again). `added`: they became friends
 * another way (the other side's application was accepted).
 */
export const friendRequestSchema = z.object({
  id: z.string(),
  from: userCardSchema,
  to: userCardSchema,
  greeting: z.string(),
  status: friendRequestStatusSchema,
  createdAt: z.number(),
  handledAt: z.number().nullable(),
});
export type FriendRequest = z.infer<typeof friendRequestSchema>;
export const friendRequestListResult = z.object({
  received: z.array(friendRequestSchema),
  sent: z.array(friendRequestSchema),
});
export type FriendRequestListResult = z.infer<typeof friendRequestListResult>;

export const greetingSchema = z.string().trim().max(GREETING_MAX_LENGTH, { error: 'greeting' });
export const sendFriendRequestBody = z.object({
  userId: userIdSchema,
  greeting: greetingSchema.optional(),
});
export type SendFriendRequestBody = z.infer<typeof sendFriendRequestBody>;

export const friendSchema = z.object({
  user: userCardSchema,
  remark: z.string().nullable(),
  since: z.number(),
});
export type Friend = z.infer<typeof friendSchema>;
export const friendListResult = z.object({ friends: z.array(friendSchema) });
export type FriendListResult = z.infer<typeof friendListResult>;

export const remarkSchema = z
  .string()
  .trim()
  .max(REMARK_MAX_LENGTH, { error: 'remark' })
  .refine(isPlainName, { error: 'nameCharacters' });
export const updateFriendBody = z.object({ remark: remarkSchema.nullable() }).strict();
export type UpdateFriendBody = z.infer<typeof updateFriendBody>;

export const blockListResult = z.object({ blocked: z.array(userCardSchema) });
export type BlockListResult = z.infer<typeof blockListResult>;
export const officialListResult = z.object({ accounts: z.array(userCardSchema) });
export type OfficialListResult = z.infer<typeof officialListResult>;

// ---------------------------------------------------------------------------- messages

/** Text that is not only white space (spec §5: 'Cannot send blank message'). */
export const messageTextSchema = z
  .string()
  .max(MESSAGE_TEXT_MAX_LENGTH, { error: 'messageLength' })
  .refine((text) => text.trim().length > 0, { error: 'blankMessage' });

/**
 * What a reply sends of the message it quotes: its seq in the same conversation, nothing
 * more. Anything else sent with it is dropped; the server fills in the rest from the
 * stored message, so nobody can put words in someone else's mouth.
 */
export const quoteRefSchema = z.object({ seq: z.number().int().min(1) });

/**
 * A quote as stored and read: the quoted message's sender and an excerpt of its text,
 * taken by the server from the stored message; or unavailable, when the quoted message
 * is revoked, burnt or gone, or lies before the reader's history (they joined later or
 * cleared it), or the sender could not see it.
 */
export const quoteSchema = z.union([
  z.object({
    seq: z.number().int().min(1),
    senderId: z.string(),
    /** quoteExcerpt of the quoted text (a location's place name, a card's name), shown above the reply. */
    text: z.string().max(QUOTE_EXCERPT_MAX_LENGTH),
    /** The quoted message's kind when it is not text, for the reader's label ("[Location]"). */
    kind: z
      .enum(['location', 'card', 'image', 'file', 'voice', 'video', 'face', 'merged'])
      .optional(),
  }),
  z.object({ seq: z.number().int().min(1), unavailable: z.literal(true) }),
]);
export type Quote = z.infer<typeof quoteSchema>;

const textFields = {
  kind: z.literal('text'),
  text: messageTextSchema,
  /** Sent with "forward": shown with a forwarded label. */
  forwarded: z.boolean().optional(),
  /** Group members mentioned with @ (user ids). */
  mentions: z.array(userIdSchema).max(MENTIONS_MAX, { error: 'mentions' }).optional(),
  /** @all, for group admins. */
  mentionAll: z.boolean().optional(),
};

/** A text message as stored and read. */
export const textContentSchema = z.object({ ...textFields, quote: quoteSchema.optional() });

/** A text message as a client sends it: a reply names the quoted message by seq only. */
export const sendableTextContentSchema = z.object({
  ...textFields,
  quote: quoteRefSchema.optional(),
});
/** A place's name as its sender wrote it: one line, like a name. */
export const placeNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'placeName' })
  .max(PLACE_NAME_MAX_LENGTH, { error: 'placeName' })
  .refine(isPlainName, { error: 'nameCharacters' });

/**
 * A shared location: a point (WGS 84 degrees, as the Geolocation API gives them) and the
 * name its sender gave it. Sent and stored alike; readers open it in a map site.
 */
export const locationContentSchema = z.object({
  kind: z.literal('location'),
  latitude: z
    .number({ error: 'location' })
    .min(-90, { error: 'location' })
    .max(90, { error: 'location' }),
  longitude: z
    .number({ error: 'location' })
    .min(-180, { error: 'location' })
    .max(180, { error: 'location' }),
  name: placeNameSchema,
  /** Sent with "forward": shown with a forwarded label. */
  forwarded: z.boolean().optional(),
});
export type LocationContent = z.infer<typeof locationContentSchema>;

/**
 * A person's contact card, shared in a chat. Sent and stored alike, but the sender's copy
 * of the card counts only for its id: the server writes the card from the account as it
 * is when the card is sent, so nobody can hand out a card with someone else's name on it.
 */
export const cardContentSchema = z.object({
  kind: z.literal('card'),
  user: userCardSchema,
  /** Sent with "forward": shown with a forwarded label. */
  forwarded: z.boolean().optional(),
});
export type CardContent = z.infer<typeof cardContentSchema>;

/**
 * A forward of several messages as one "chat history" record. The sender names the
 * messages (their seqs in a conversation they can see); the server writes the record from
 * the stored messages: who sent each (their name then), when, and what, nested records
 * too. It opens as a read-only list.
 */
export const sendableMergedSchema = z.object({
  kind: z.literal('merged'),
  source: z.object({
    conversationId: conversationIdSchema,
    seqs: z
      .array(z.number().int().min(1))
      .min(1, { error: 'merged' })
      .max(MERGED_ITEMS_MAX, { error: 'merged' }),
  }),
});

/** What a record keeps of a message that is no record: what people send (a reply without its quote). */
const itemContentKinds = [
  z.object({ ...textFields }),
  locationContentSchema,
  cardContentSchema,
  imageContentSchema,
  fileContentSchema,
  voiceContentSchema,
  videoContentSchema,
  faceContentSchema,
] as const;

/** One message of a record, as it was when it was forwarded: who sent it (their name then), when, what. */
const itemOf = <C extends z.ZodType>(content: C) =>
  z.object({
    senderId: z.string(),
    senderName: z.string().max(64),
    createdAt: z.number(),
    content,
  });

/** A record of messages of `content`. */
const recordOf = <C extends z.ZodType>(content: C) =>
  z.object({
    kind: z.literal('merged'),
    items: z.array(itemOf(content)).min(1).max(MERGED_ITEMS_MAX),
    /** As other kinds: a record is itself a forward, so the server never sets it. */
    forwarded: z.boolean().optional(),
  });

// Records hold records MERGED_DEPTH_MAX (3) deep, each level spelled out: the schemas
// and their types stay finite (a recursive schema would leave its type behind in the
// published declarations).
const recordOfMessages = recordOf(z.discriminatedUnion('kind', [...itemContentKinds]));
const recordOfRecords = recordOf(
  z.discriminatedUnion('kind', [...itemContentKinds, recordOfMessages]),
);

/** A chat history record as stored and read. */
export const mergedContentSchema = recordOf(
  z.discriminatedUnion('kind', [...itemContentKinds, recordOfRecords]),
);
export type MergedContent = z.infer<typeof mergedContentSchema>;
export type MergedItem = MergedContent['items'][number];

/** What a client may send. */
export const sendableContentSchema = z.discriminatedUnion(
  'kind',
  [
    sendableTextContentSchema,
    locationContentSchema,
    cardContentSchema,
    imageContentSchema,
    fileContentSchema,
    voiceContentSchema,
    videoContentSchema,
    faceContentSchema,
    sendableMergedSchema,
  ],
  { error: 'content' },
);
export type SendableContent = z.infer<typeof sendableContentSchema>;

/** A note on a transfer, a red envelope's greeting. */
export const MONEY_NOTE_MAX_LENGTH = 50;
const moneyNoteSchema = z.string().trim().max(MONEY_NOTE_MAX_LENGTH, { error: 'moneyNote' });

/**
 * Money in a chat, written by the server in the same transaction as the money moves
 * (POST /wallet/transfers, /wallet/envelopes): the message is the record, never sent as
 * is. Amounts in units of the currency.
 */
export const transferContentSchema = z.object({
  kind: z.literal('transfer'),
  transferId: z.string(),
  currency: z.literal('PI'),
  amount: z.number().int().positive(),
  note: moneyNoteSchema,
  /** Who receives it: the other person of the chat. */
  toId: z.string(),
});
export type TransferContent = z.infer<typeof transferContentSchema>;

export const ENVELOPE_SPLITS = ['equal', 'random'] as const;
export const envelopeContentSchema = z.object({
  kind: z.literal('envelope'),
  envelopeId: z.string(),
  currency: z.literal('PI'),
  total: z.number().int().positive(),
  count: z.number().int().positive(),
  split: z.enum(ENVELOPE_SPLITS),
  greeting: moneyNoteSchema,
});
export type EnvelopeContent = z.infer<typeof envelopeContentSchema>;

/** An NFT given in a one-to-one chat: what it was, as it was when given. */
export const nftContentSchema = z.object({
  kind: z.literal('nft'),
  itemId: z.string(),
  name: z.string(),
  collection: z.string(),
  imageUrl: z.string(),
  /** Who receives it: the other person of the chat. */
  toId: z.string(),
});
export type NftContent = z.infer<typeof nftContentSchema>;

/** Group events written into the timeline; `targetIds` are the members acted on. */
export const groupSystemEventSchema = z.enum([
  'created',
  'joined',
  'invited',
  'left',
  'removed',
  'muted',
  'unmuted',
  'allMuted',
  'allUnmuted',
  'renamed',
  'noticeChanged',
  'ownerChanged',
  'adminAdded',
  'adminRemoved',
  'dismissed',
]);
export type GroupSystemEvent = z.infer<typeof groupSystemEventSchema>;
export const systemContentSchema = z.object({
  kind: z.literal('system'),
  event: groupSystemEventSchema,
  actorId: z.string(),
  targetIds: z.array(z.string()).max(MENTIONS_MAX),
  /** A new group name (renamed), or the notice text (noticeChanged). */
  text: z.string().max(GROUP_TEXT_MAX_LENGTH).optional(),
  /** A mute duration (muted). */
  seconds: z.number().int().optional(),
});
export type SystemContent = z.infer<typeof systemContentSchema>;

/**
 * What a message may hold. Notices are written by the server into the conversation's
 * seq stream, so every device learns of them by the same sync as of messages:
 * `revoke` marks an earlier message as revoked; `edit` gives an earlier text its new
 * words (the message itself reads them from then on, with `editedAt`); `burn` changes the burn-after-reading
 * duration; `revoked` is what a revoked message's own content becomes.
 */
export const messageContentSchema = z.discriminatedUnion('kind', [
  textContentSchema,
  locationContentSchema,
  cardContentSchema,
  imageContentSchema,
  fileContentSchema,
  voiceContentSchema,
  videoContentSchema,
  faceContentSchema,
  mergedContentSchema,
  transferContentSchema,
  envelopeContentSchema,
  nftContentSchema,
  z.object({ kind: z.literal('revoke'), targetSeq: z.number().int().min(1) }),
  z.object({
    kind: z.literal('edit'),
    targetSeq: z.number().int().min(1),
    /** The text as edited; the notice's `lang` is its language. */
    text: messageTextSchema,
  }),
  z.object({ kind: z.literal('burn'), seconds: z.number().int().min(0) }),
  z.object({ kind: z.literal('revoked') }),
  systemContentSchema,
  callContentSchema,
]);
export type MessageContent = z.infer<typeof messageContentSchema>;

export const messageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  seq: z.number().int().min(1),
  senderId: z.string(),
  clientMsgId: z.string(),
  content: messageContentSchema,
  createdAt: z.number(),
  revokedAt: z.number().nullable(),
  /** Burn after reading: when the message disappears for both (null: it does not). */
  burnAt: z.number().nullable(),
  /**
   * The source language of a text, detected when it was sent (a mother tongue code);
   * null for notices and for text with nothing to translate (only emoji, numbers, links).
   */
  lang: z.string().nullable().default(null),
  /** When its sender last edited the text (null: never). */
  editedAt: z.number().nullable().default(null),
});
export type Message = z.infer<typeof messageSchema>;

/** A text's new words (its sender's own, within EDIT_WINDOW_SECONDS of sending). */
export const editMessageBody = z.object({ text: messageTextSchema });
export type EditMessageBody = z.infer<typeof editMessageBody>;

export const sendMessageBody = z.object({
  conversationId: conversationIdSchema,
  clientMsgId: clientMsgIdSchema,
  content: sendableContentSchema,
});
export type SendMessageBody = z.infer<typeof sendMessageBody>;

/**
 * One page of a conversation's messages the caller may see (after its `minSeq`, not
 * deleted for them), ascending by seq. `after`: seq > after (catching up). `before`:
 * the newest `limit` with seq < before (history). Neither: the newest page.
 */
export const messagePageQuery = z.object({
  after: seqSchema.optional(),
  before: seqSchema.optional(),
  limit: z.coerce.number().int().min(1).max(PULL_LIMIT_MAX).default(50),
});
export type MessagePageQuery = z.infer<typeof messagePageQuery>;
export const messagePageResult = z.object({
  messages: z.array(messageSchema),
  /** More messages lie beyond this page in the direction asked. */
  hasMore: z.boolean(),
});
export type MessagePageResult = z.infer<typeof messagePageResult>;

export const seqParams = z.object({ id: conversationIdSchema, seq: seqSchema });
export const conversationParams = z.object({ id: conversationIdSchema });

// ---------------------------------------------------------------------------- conversations

export const conversationKindSchema = z.enum(['single', 'group']);
/** What a chat list shows of a group. */
export const groupBriefSchema = z.object({
  id: z.string(),
  name: z.string(),
  avatarUrl: z.string().nullable(),
  memberCount: z.number().int(),
});
export type GroupBrief = z.infer<typeof groupBriefSchema>;
/** A conversation as one member sees it. */
export const conversationSchema = z.object({
  id: z.string(),
  kind: conversationKindSchema,
  /** The other person of a single conversation. */
  peer: userCardSchema.nullable(),
  /** The group of a group conversation. */
  group: groupBriefSchema.nullable(),
  maxSeq: z.number().int(),
  readSeq: z.number().int(),
  /** Messages up to this seq are cleared for this member. */
  minSeq: z.number().int(),
  /** How far the other person of a single conversation has read. */
  peerReadSeq: z.number().int(),
  pinned: z.boolean(),
  muted: z.boolean(),
  /** Deleted from the chat list; comes back with the next message. */
  hidden: z.boolean(),
  burnSeconds: z.number().int(),
  /** Messages are shown translated here (the member's choice, on by default). */
  translate: z.boolean().default(true),
  /** The language messages are translated into here; null: the member's mother tongue. */
  translateTo: z.string().nullable().default(null),
  /** The newest seq that mentions this member (by name or @all); above readSeq: "you were mentioned". */
  mentionSeq: z.number().int(),
  lastMessage: messageSchema.nullable(),
  /** Latest activity: the last message, or the member's own change. */
  updatedAt: z.number(),
});
export type Conversation = z.infer<typeof conversationSchema>;

/**
 * Conversations changed after `since` (0: all), in pages. The client keeps the
 * returned `syncedAt` and passes it as `since` next time.
 */
export const conversationSyncQuery = z.object({
  since: z.coerce.number().int().min(0).default(0),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(SYNC_CONVERSATIONS_LIMIT_MAX).default(500),
});
export const conversationSyncResult = z.object({
  conversations: z.array(conversationSchema),
  nextCursor: z.string().nullable(),
  syncedAt: z.number(),
});
export type ConversationSyncResult = z.infer<typeof conversationSyncResult>;

export const updateConversationBody = z
  .object({
    pinned: z.boolean(),
    muted: z.boolean(),
    hidden: z.boolean(),
    translate: z.boolean(),
    translateTo: motherTongueSchema.nullable(),
  })
  .partial()
  .strict();
export type UpdateConversationBody = z.infer<typeof updateConversationBody>;
export const readBody = z.object({ seq: z.number().int().min(0) });
export const burnBody = z.object({
  seconds: z
    .number()
    .int()
    .refine((s) => (BURN_DURATIONS as readonly number[]).includes(s), {
      error: 'burn',
    }),
});

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
