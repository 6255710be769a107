import { z } from 'zod';
import { callContentSchema } from './calls.js';
import { isPlainName, motherTongueSchema } from './validation.js';
import { userCardSchema, userIdSchema } from './people.js';
import { faceContentSchema } from './faces.js';
import {
  fileContentSchema,
  imageContentSchema,
  videoContentSchema,
  voiceContentSchema,
} from './media.js';
import {
  BURN_DURATIONS,
  GROUP_TEXT_MAX_LENGTH,
  MENTIONS_MAX,
  MERGED_ITEMS_MAX,
  PLACE_NAME_MAX_LENGTH,
  MESSAGE_TEXT_MAX_LENGTH,
  PULL_LIMIT_MAX,
  QUOTE_EXCERPT_MAX_LENGTH,
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
export const seqSchema = z.coerce.number().int().min(0);

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
      .enum([
        'location',
        'card',
        'image',
        'file',
        'voice',
        'video',
        'face',
        'merged',
        'transfer',
        'envelope',
        'nft',
      ])
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
