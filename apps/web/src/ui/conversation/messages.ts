import type { ConversationView, LocalMessage } from '@teltlk/im-sdk';
import {
  isSentContent,
  EDIT_WINDOW_SECONDS,
  REVOKE_WINDOW_SECONDS,
  quotedPart,
  type LocationContent,
  type QuotedPart,
  type MessageContent,
} from '@teltlk/protocol';
import {
  callRecordPreview,
  callRecordView,
  isMissedCall,
  type CallRecordText,
} from './call-record';

/**
 * A row of the message list: a day separator, a centred notice or a bubble. A bubble
 * knows its place in its run of messages from one sender (see `groupRuns`).
 */
export type ChatRow =
  | { kind: 'day'; key: string; time: number }
  | { kind: 'notice'; key: string; message: LocalMessage }
  | {
      kind: 'message';
      key: string;
      message: LocalMessage;
      showRead: boolean;
      /** First of its run: the avatar and, in groups, the sender's name. */
      runStart: boolean;
      /** Last of its run: the time. */
      runEnd: boolean;
    };

/** Messages from one sender this close together read as one run. */
export const RUN_GAP_MS = 3 * 60 * 1000;

/** The key of a message that stays the same when the server acknowledges it. */
export function messageKey(message: LocalMessage): string {
  return `${message.senderId}:${message.clientMsgId}`;
}

/** Local calendar day of a time, as a comparable string. */
export function dayKey(time: number): string {
  const date = new Date(time);
  return `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;
}

/** A message the server's revocation turned into a notice. */
export function isRevoked(message: Pick<LocalMessage, 'content' | 'revokedAt'>): boolean {
  return message.revokedAt !== null || message.content.kind === 'revoked';
}

/**
 * The `revoke` notice only carries the revocation to every device; the revoked message
 * itself shows it in place, so the notice needs no row of its own.
 */
function isSilent(content: MessageContent): boolean {
  return content.kind === 'revoke';
}

/**
 * Rows for the message list: a separator before each new day, notices centred, and the
 * read state under our own newest acknowledged message (1:1 chats).
 */
export function buildRows(
  messages: readonly LocalMessage[],
  options: { selfId: string; readReceipts: boolean },
): ChatRow[] {
  const rows: ChatRow[] = [];
  // Only our newest acknowledged message carries the read state, as in other messengers.
  let lastOwnSent = -1;
  if (options.readReceipts) {
    for (let index = messages.length - 1; index >= 0; index -= 1) {
      const message = messages[index]!;
      const own = message.senderId === options.selfId && isSentContent(message.content);
      if (own && message.seq !== null && !isRevoked(message)) {
        lastOwnSent = index;
        break;
      }
    }
  }
  let previousDay: string | null = null;
  messages.forEach((message, index) => {
    if (isSilent(message.content)) return;
    const day = dayKey(message.createdAt);
    if (day !== previousDay) {
      rows.push({ kind: 'day', key: `day:${day}`, time: message.createdAt });
      previousDay = day;
    }
    const key = messageKey(message);
    const kind = message.content.kind;
    if (isRevoked(message) || kind === 'burn' || kind === 'system') {
      rows.push({ kind: 'notice', key, message });
    } else {
      rows.push({
        kind: 'message',
        key,
        message,
        showRead: index === lastOwnSent,
        runStart: true,
        runEnd: true,
      });
    }
  });
  return groupRuns(rows);
}

/**
 * Marks runs, as messengers group them: consecutive bubbles from one sender, each within
 * `RUN_GAP_MS` of the one before, with no day separator or notice between. Inside a run
 * only the first shows the avatar and name and only the last the time, so the run reads
 * as one block.
 */
export function groupRuns(rows: readonly ChatRow[]): ChatRow[] {
  const grouped = rows.map((row) => (row.kind === 'message' ? { ...row } : row));
  for (let index = 1; index < grouped.length; index += 1) {
    const row = grouped[index]!;
    const previous = grouped[index - 1]!;
    if (row.kind !== 'message' || previous.kind !== 'message') continue;
    const gap = row.message.createdAt - previous.message.createdAt;
    if (row.message.senderId === previous.message.senderId && gap >= 0 && gap <= RUN_GAP_MS) {
      previous.runEnd = false;
      row.runStart = false;
    }
  }
  return grouped;
}

/** How far an own message got, as its mark shows it; failed ones offer a retry instead. */
export type DeliveryState = 'sending' | 'sent' | 'read';

/**
 * The mark of an own message: read only where the peer's read position is known (1:1
 * chats; groups show read counts instead).
 */
export function deliveryState(
  message: LocalMessage,
  peerReadSeq: number | null,
): DeliveryState | null {
  if (message.status === 'failed') return null;
  if (message.status === 'sending' || message.seq === null) return 'sending';
  return peerReadSeq !== null && isReadByPeer(message, peerReadSeq) ? 'read' : 'sent';
}

/** Whether the peer has read our message (1:1 only). */
export function isReadByPeer(message: LocalMessage, peerReadSeq: number): boolean {
  return message.seq !== null && peerReadSeq >= message.seq;
}

/** Own, acknowledged, not yet revoked, and inside the server's revoke window. */
export function canRevoke(message: LocalMessage, selfId: string, now: number): boolean {
  return (
    message.senderId === selfId &&
    message.seq !== null &&
    !isRevoked(message) &&
    isSentContent(message.content) &&
    now - message.createdAt < REVOKE_WINDOW_SECONDS * 1000
  );
}

/** Whether the menu offers "Edit": our own text (not a forward), within the edit window. */
export function canEdit(message: LocalMessage, selfId: string, now: number): boolean {
  const { content } = message;
  return (
    message.senderId === selfId &&
    message.seq !== null &&
    !isRevoked(message) &&
    content.kind === 'text' &&
    content.forwarded !== true &&
    now - message.createdAt < EDIT_WINDOW_SECONDS * 1000
  );
}

/** The revoke window in whole minutes, as the action menu states it. */
export const REVOKE_WINDOW_MINUTES = Math.round(REVOKE_WINDOW_SECONDS / 60);

/** The text a message offers to copy and forward, or null for notices. */
export function messageText(message: LocalMessage): string | null {
  if (isRevoked(message)) return null;
  return message.content.kind === 'text' ? message.content.text : null;
}

/**
 * What a reply quotes and a forward copies of a message: its text, or a place's or a
 * card's name with the kind; null for notices, and once revoked.
 */
export function quotablePart(message: LocalMessage): QuotedPart | null {
  return isRevoked(message) ? null : quotedPart(message.content);
}

/** The label of each kind a quoted part may have, naming it in the reader's language. */
const PART_LABELS = {
  location: 'chat.locationPreview',
  card: 'chat.cardPreview',
  image: 'chat.photoPreview',
  file: 'chat.filePreview',
  voice: 'chat.voicePreview',
  video: 'chat.videoPreview',
  face: 'chat.stickerPreview',
  merged: 'chat.mergedPreview',
  transfer: 'chat.transferPreview',
  envelope: 'chat.envelopePreview',
  nft: 'chat.nftPreview',
} as const;

/**
 * A quoted part as one line in the reader's language: the text, "[Location] name",
 * "[Card] name", "[Photo]", "[File] name".
 */
export function partLine(
  part: { text: string; kind?: keyof typeof PART_LABELS | undefined },
  t: (key: (typeof PART_LABELS)[keyof typeof PART_LABELS], options: { name: string }) => string,
): string {
  return part.kind ? t(PART_LABELS[part.kind], { name: part.text }) : part.text;
}

/**
 * What an alert says of a message someone else sent: its part as one line (the text,
 * "[Photo]"), or a call the reader missed ("[Missed voice call]"); null for what raises
 * no alert (notices, and records of calls the reader took part in or turned down).
 */
export function alertLine(
  message: LocalMessage,
  t: Parameters<typeof partLine>[1] & CallRecordText,
): string | null {
  if (message.content.kind === 'call') {
    const call = callRecordView(message.content, false);
    return isMissedCall(call) && !isRevoked(message) ? callRecordPreview(call, t) : null;
  }
  const part = quotablePart(message);
  return part ? partLine(part, t) : null;
}

/** The point in a map site (OpenStreetMap), opened in a new tab: no tiles ship with the app. */
export function mapLink(place: Pick<LocationContent, 'latitude' | 'longitude'>): string {
  const lat = place.latitude.toFixed(6);
  const lon = place.longitude.toFixed(6);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
}

/** Display name of a person in a conversation: the caller's remark, else the nickname. */
export function peerName(
  conversation: Pick<ConversationView, 'peer'> | null | undefined,
  remarks?: ReadonlyMap<string, string | null>,
): string | null {
  const peer = conversation?.peer;
  if (!peer) return null;
  return remarks?.get(peer.id) || peer.nickname;
}

/**
 * The title of a conversation: the person of a one-to-one chat (as `peerName`), or the
 * group, by the caller's remark for it when known.
 */
export function conversationName(
  conversation: Pick<ConversationView, 'peer' | 'group'> | null | undefined,
  remarks?: ReadonlyMap<string, string | null>,
  groupRemarks?: ReadonlyMap<string, string | null>,
): string | null {
  const group = conversation?.group;
  if (group) return groupRemarks?.get(group.id) || group.name;
  return peerName(conversation, remarks);
}

/** Whether the textarea's text may be sent (the server refuses blank text too). */
export function isBlank(text: string): boolean {
  return text.trim().length === 0;
}
