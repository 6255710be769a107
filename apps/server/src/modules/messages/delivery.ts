import { singleMembersOf, type Message, type ServerFrame } from '@teltlk/protocol';
import type { MessageRow } from '../../db/schema.js';
import type { MemberHub } from '../../realtime/hub.js';
import type { MessageRepo } from './repo.js';
import { toMessage } from './rows.js';
import { frameFor, reachesBack } from './visibility.js';

/** Messages gone for good (revoked, burnt): what was derived from them goes too. */
export interface RemovedMessage {
  conversationId: string;
  seq: number;
}

/**
 * Delivery of committed changes: frames to the members' sockets, and the listeners that
 * follow sent and removed messages (translation). Nothing here runs before a commit.
 */
export class Delivery {
  private readonly sentListeners: ((messages: readonly Message[]) => void)[] = [];
  private readonly removedListeners: ((removed: readonly RemovedMessage[]) => void)[] = [];

  constructor(private readonly deps: { repo: MessageRepo; hub: MemberHub }) {}

  /** Called after each commit of sent messages (texts), once their pushes are out. */
  onSent(listener: (messages: readonly Message[]) => void): void {
    this.sentListeners.push(listener);
  }

  /** Called after messages are revoked or burnt. */
  onRemoved(listener: (removed: readonly RemovedMessage[]) => void): void {
    this.removedListeners.push(listener);
  }

  sent(messages: readonly Message[]): void {
    if (messages.length === 0) return;
    for (const listener of this.sentListeners) listener(messages);
  }

  removed(removed: readonly RemovedMessage[]): void {
    if (removed.length === 0) return;
    for (const listener of this.removedListeners) listener(removed);
  }

  /** A frame to these users' sockets. */
  toUsers(userIds: readonly string[], frame: ServerFrame): void {
    this.deps.hub.toUsers(userIds, frame);
  }

  /**
   * Pushes committed messages to the sockets of every member (the sender's devices too).
   * A single conversation's members are in its id; a group's are read once per batch, and
   * its pushes wait for nothing.
   */
  messages(messages: readonly Message[]): void {
    const byConversation = new Map<string, ServerFrame[]>();
    for (const message of messages) {
      const list = byConversation.get(message.conversationId) ?? [];
      list.push({ t: 'message', message });
      byConversation.set(message.conversationId, list);
    }
    for (const [conversationId, frames] of byConversation) this.frames(conversationId, frames);
  }

  /** One committed message row. */
  row(row: MessageRow): void {
    this.frames(row.conversation_id, [{ t: 'message', message: toMessage(row) }]);
  }

  /**
   * Frames of one conversation to its members' sockets: both people of a single
   * conversation, or a group's members who are online (never the whole member list),
   * each as far as their history goes. A single conversation's new messages are past
   * both clear marks, so only frames about older messages wait for a look-up of them.
   */
  frames(conversationId: string, frames: readonly ServerFrame[]): void {
    const { hub, repo } = this.deps;
    const pair = singleMembersOf(conversationId);
    if (!pair) {
      hub.toOnlineMembers(conversationId, frames);
      return;
    }
    if (!frames.some(reachesBack)) {
      for (const frame of frames) hub.toUsers(pair, frame);
      return;
    }
    // Read after the commit, as a group's members are.
    repo.readersAmong(conversationId, pair).then(
      (readers) => {
        for (const frame of frames) {
          for (const { userId, minSeq } of readers) {
            const view = frameFor(frame, minSeq);
            if (view) hub.toUsers([userId], view);
          }
        }
      },
      // Pushes are hints; clients catch up by sync.
      () => undefined,
    );
  }
}
