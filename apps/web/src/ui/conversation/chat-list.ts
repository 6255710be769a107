import type { ConversationView } from '@teltlk/im-sdk';
import { isMoneyContent, isSentContent, quotedPart, type SystemContent } from '@teltlk/protocol';
import { callRecordView, type CallRecordView } from './call-record';
import { isRevoked } from './messages';

/** Latest activity of a conversation: its last message, or the member's own change. */
export function activityTime(conversation: ConversationView): number {
  return Math.max(conversation.lastMessage?.createdAt ?? 0, conversation.updatedAt);
}

/** Pinned first, then by latest activity, newest first; hidden ones left out. */
export function orderConversations(conversations: readonly ConversationView[]): ConversationView[] {
  return conversations
    .filter((conversation) => !conversation.hidden)
    .sort(
      (a, b) =>
        Number(b.pinned) - Number(a.pinned) ||
        activityTime(b) - activityTime(a) ||
        a.id.localeCompare(b.id),
    );
}

/** What the second line of a chat list row says, before translation. */
export type Preview =
  | { kind: 'draft'; text: string }
  /** `senderId`: who wrote it, shown before the text in groups (not for one's own). */
  | { kind: 'text'; text: string; forwarded: boolean; senderId: string | null }
  /** A shared location by its place name, a contact card by its name; `senderId` as for text. */
  | {
      kind:
        | 'location'
        | 'card'
        | 'image'
        | 'file'
        | 'voice'
        | 'video'
        | 'face'
        | 'merged'
        | 'transfer'
        | 'envelope'
        | 'nft';
      name: string;
      forwarded: boolean;
      senderId: string | null;
    }
  | { kind: 'system'; content: SystemContent }
  /** A call's record, from the reader's side: "[Voice call] 3:21", "[Missed video call]". */
  | { kind: 'call'; call: CallRecordView }
  | { kind: 'revoked'; self: boolean }
  | { kind: 'burn'; seconds: number }
  | { kind: 'empty' };

/** The preview of a row: the draft first (it is what the user left there), then the last message. */
export function previewOf(conversation: ConversationView, selfId: string): Preview {
  if (conversation.draft.trim()) return { kind: 'draft', text: oneLine(conversation.draft) };
  const last = conversation.lastMessage;
  // Cleared history: the last message lies at or below the member's min seq.
  if (!last || last.seq <= conversation.minSeq) return { kind: 'empty' };
  const content = last.content;
  if (content.kind === 'revoke' || isRevoked(last)) {
    return { kind: 'revoked', self: last.senderId === selfId };
  }
  if (content.kind === 'burn') return { kind: 'burn', seconds: content.seconds };
  if (content.kind === 'system') return { kind: 'system', content };
  if (content.kind === 'call') {
    return { kind: 'call', call: callRecordView(content, last.senderId === selfId) };
  }
  const senderId = conversation.kind === 'group' && last.senderId !== selfId ? last.senderId : null;
  if (content.kind === 'text' || content.kind === 'edit') {
    // An edit notice last: the list shows the new words.
    return {
      kind: 'text',
      text: oneLine(content.text),
      forwarded: content.kind === 'text' && content.forwarded === true,
      senderId,
    };
  }
  if (isMoneyContent(content)) {
    const name = oneLine(
      content.kind === 'transfer'
        ? content.note
        : content.kind === 'envelope'
          ? content.greeting
          : content.name,
    );
    return { kind: content.kind, name, forwarded: false, senderId };
  }
  if (isSentContent(content)) {
    const name = quotedPart(content)?.text ?? '';
    return { kind: content.kind, name, forwarded: content.forwarded === true, senderId };
  }
  return { kind: 'empty' };
}

/** A mention of the member after what they have read: "[You were mentioned]" in the list. */
export function hasUnreadMention(conversation: ConversationView): boolean {
  return conversation.mentionSeq > conversation.readSeq;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
