import type {
  EnvelopeContent,
  NftContent,
  TransferContent,
  CardContent,
  LocationContent,
  MergedContent,
  MessageContent,
  Quote,
  SendableContent,
} from './chat.js';
import type { ServerFrame } from './chat-events.js';
import type { FaceContent } from './faces.js';
import type { FileContent, ImageContent, VideoContent, VoiceContent } from './media.js';

/**
 * The chat's limits, conversation ids and rules, without schemas: what a client needs on
 * its first screen, where zod would only cost download (`chat.ts` re-exports all of it).
 */

// ---------------------------------------------------------------------------- limits

export const MESSAGE_TEXT_MAX_LENGTH = 5000;
export const GREETING_MAX_LENGTH = 100;
export const REMARK_MAX_LENGTH = 32;
/** A sender may revoke a message this long after sending it (stated in the menu). */
export const REVOKE_WINDOW_SECONDS = 120;
/** A sender may edit a text this long after sending it. */
export const EDIT_WINDOW_SECONDS = 24 * 3600;
/** Burn-after-reading choices for a private chat, in seconds; 0 is off. */
export const BURN_DURATIONS = [0, 10, 30, 60, 300, 3600, 86400] as const;
/** Largest page of messages or events one pull returns. */
export const PULL_LIMIT_MAX = 200;
/** Largest page of conversations one sync call returns. */
export const SYNC_CONVERSATIONS_LIMIT_MAX = 1000;
/** Conversations one forward may go to at once. */
export const FORWARD_MAX_TARGETS = 9;
/** Messages one chat history record may hold. */
export const MERGED_ITEMS_MAX = 100;
/** Records inside records, at most this deep (a record of records of records). */
export const MERGED_DEPTH_MAX = 3;
/** The client pings this often; the server drops a socket silent for 2.5 intervals. */
export const HEARTBEAT_INTERVAL_MS = 25_000;
/** The socket's first frame must be `auth` within this time. */
export const SOCKET_AUTH_TIMEOUT_MS = 10_000;
/** Largest frame the server reads. */
export const SOCKET_FRAME_MAX_BYTES = 16 * 1024;
/** A user looks others up at most this often (phone, email and ID enumeration). */
export const USER_SEARCHES_PER_MINUTE = 30;
/** Typing hints are sent at most this often per conversation, and shown this long. */
export const TYPING_THROTTLE_MS = 3_000;
export const TYPING_SHOW_MS = 6_000;

/** Mentions one message may carry. */
export const MENTIONS_MAX = 20;
/** Longest group name or notice a system notice carries (the group notice limit). */
export const GROUP_TEXT_MAX_LENGTH = 1000;

/** Close codes of the socket (4000–4999 are the application's). */
export const SOCKET_CLOSE = {
  /** The token is unknown or malformed: sign in again. */
  tokenInvalid: 4001,
  /** The session expired: sign in again. */
  tokenExpired: 4002,
  /** The session was signed out elsewhere (kicked offline). */
  kicked: 4003,
  /** No auth frame in time, or a frame that breaks the protocol. */
  protocol: 4004,
  /**
   * The client did not read its frames and too many were waiting for it: reconnect and
   * catch up by sync (what was queued is dropped).
   */
  slowConsumer: 4005,
  /**
   * The session or user has as many sockets open on this server as it may, or the address
   * signed sockets in faster than it may: retry later.
   */
  tooManySockets: 4006,
  /** The server is shutting down; reconnect. */
  goingAway: 1001,
} as const;

// ---------------------------------------------------------------------------- ids

/** The one conversation of two users: `si_<a>_<b>` with the ids sorted. */
export function singleConversationId(userA: string, userB: string): string {
  return userA < userB ? `si_${userA}_${userB}` : `si_${userB}_${userA}`;
}

const GROUP_CONVERSATION_PREFIX = 'sg_';

/** The conversation of a group: `sg_<groupId>`. */
export function groupConversationId(groupId: string): string {
  return `${GROUP_CONVERSATION_PREFIX}${groupId}`;
}

/** The group of a group conversation; null for any other conversation. */
export function groupIdOf(conversationId: string): string | null {
  return conversationId.startsWith(GROUP_CONVERSATION_PREFIX)
    ? conversationId.slice(GROUP_CONVERSATION_PREFIX.length)
    : null;
}

/** Both people of a single conversation, from its id; null for any other conversation. */
export function singleMembersOf(conversationId: string): [string, string] | null {
  const match = /^si_([^_]+)_([^_]+)$/.exec(conversationId);
  return match ? [match[1]!, match[2]!] : null;
}

/** The other member of a single conversation, or null if `userId` is not in it. */
export function peerOf(conversationId: string, userId: string): string | null {
  const pair = singleMembersOf(conversationId);
  if (!pair) return null;
  if (pair[0] === userId) return pair[1];
  if (pair[1] === userId) return pair[0];
  return null;
}

/** Longest place name a shared location carries. */
export const PLACE_NAME_MAX_LENGTH = 100;

/** Longest excerpt a quote shows of the message it quotes. */
export const QUOTE_EXCERPT_MAX_LENGTH = 200;

/** The excerpt a quote shows of a text: one line, at most `max` characters. */
export function quoteExcerpt(text: string, max = QUOTE_EXCERPT_MAX_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

/** What a person sends (text, a location, a card, media), as opposed to the server's notices. */
export type SentContent =
  | Extract<MessageContent, { kind: 'text' }>
  | LocationContent
  | CardContent
  | ImageContent
  | FileContent
  | VoiceContent
  | VideoContent
  | FaceContent
  | MergedContent;

const SENT_KINDS: ReadonlySet<string> = new Set<SentContent['kind']>([
  'text',
  'location',
  'card',
  'image',
  'file',
  'voice',
  'video',
  'face',
  'merged',
]);

export function isSentContent(content: MessageContent): content is SentContent {
  return SENT_KINDS.has(content.kind);
}

/**
 * What a reply shows of the message it quotes: an excerpt of a text, or a location's
 * place name, a card's name, a transfer's note or a red envelope's greeting with its kind
 * (the reader's app labels it); null for what cannot be quoted (notices, call records).
 */
export interface QuotedPart {
  text: string;
  kind?: NonNullable<Extract<Quote, { senderId: string }>['kind']>;
}

export function quotedPart(content: MessageContent): QuotedPart | null {
  if (content.kind === 'text') return { text: quoteExcerpt(content.text) };
  if (content.kind === 'location') return { text: quoteExcerpt(content.name), kind: 'location' };
  if (content.kind === 'card') return { text: quoteExcerpt(content.user.nickname), kind: 'card' };
  if (content.kind === 'image') return { text: '', kind: 'image' };
  if (content.kind === 'file') return { text: quoteExcerpt(content.file.name), kind: 'file' };
  if (content.kind === 'voice') return { text: '', kind: 'voice' };
  if (content.kind === 'video') return { text: '', kind: 'video' };
  if (content.kind === 'face') return { text: '', kind: 'face' };
  if (content.kind === 'merged') return { text: '', kind: 'merged' };
  if (content.kind === 'transfer') return { text: quoteExcerpt(content.note), kind: 'transfer' };
  if (content.kind === 'envelope') {
    return { text: quoteExcerpt(content.greeting), kind: 'envelope' };
  }
  if (content.kind === 'nft') return { text: quoteExcerpt(content.name), kind: 'nft' };
  return null;
}

/** The id of the media a message carries (a photo, a file, a voice, a video), or null. */
export function mediaIdOf(content: MessageContent | SendableContent): string | null {
  if (content.kind === 'image') return content.image.id;
  if (content.kind === 'file') return content.file.id;
  if (content.kind === 'voice') return content.voice.id;
  if (content.kind === 'video') return content.video.id;
  if (content.kind === 'face') return content.image?.id ?? null;
  return null;
}

/** Every media a message carries: its own, a video's poster, all a chat history holds. */
export function mediaIdsOf(content: MessageContent | SendableContent): string[] {
  if (content.kind === 'merged') {
    return 'items' in content ? content.items.flatMap((item) => mediaIdsOf(item.content)) : [];
  }
  const id = mediaIdOf(content);
  if (id === null) return [];
  return content.kind === 'video' ? [id, content.video.poster.id] : [id];
}

/**
 * What a search finds a message by: a text's words, a file's name, a place's name; null
 * for a message with nothing to find.
 */
export function searchTextOf(content: MessageContent): string | null {
  if (content.kind === 'text') return content.text;
  if (content.kind === 'file') return content.file.name;
  if (content.kind === 'location') return content.name;
  return null;
}

/** A quote that shows what it quotes (not unavailable). */
export function isQuoteAvailable(quote: Quote): quote is Extract<Quote, { senderId: string }> {
  return !('unavailable' in quote);
}

/** Every kind of server frame; a kind added to the schema and not here fails to compile. */
const SERVER_FRAME_TYPES: Record<ServerFrame['t'], true> = {
  hello: true,
  pong: true,
  ack: true,
  error: true,
  message: true,
  event: true,
  typing: true,
  read: true,
  translation: true,
  signedIn: true,
  ticket: true,
  call: true,
  callAnswered: true,
  callSignal: true,
};

/**
 * Whether a decoded frame is of a kind this protocol knows. Clients read frames by this
 * check, not by parsing them with `serverFrameSchema`: the server builds every frame
 * from these types and its tests hold every frame it sends to the schema, and a browser
 * on a slow phone neither downloads zod nor spends a parse on every message for it.
 */
export function isKnownServerFrame(value: unknown): value is ServerFrame {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { t?: unknown }).t;
  return typeof type === 'string' && Object.hasOwn(SERVER_FRAME_TYPES, type);
}

/** Value in a chat (a transfer, a red envelope, an NFT): shown as sent, never forwarded or quoted. */
export type MoneyContent = TransferContent | EnvelopeContent | NftContent;

export function isMoneyContent(content: MessageContent): content is MoneyContent {
  return content.kind === 'transfer' || content.kind === 'envelope' || content.kind === 'nft';
}
