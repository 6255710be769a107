import {
  isSentContent,
  type Message,
  type SendableContent,
  type UpdateConversationBody,
} from '@teltlk/protocol';
import { routes, ApiError, type ApiClient } from '@teltlk/client';
import type { Connection } from './connection.js';
import type { LocalWriter } from './local-writer.js';
import { newClientMsgId } from './outbox.js';
import { markReadLocally } from './reducers.js';
import type { SendQueue } from './send-queue.js';
import type { SyncController } from './sync-controller.js';
import type { LocalMessage } from './types.js';

export interface ConversationActionsDeps {
  api: ApiClient;
  writer: LocalWriter;
  syncer: SyncController;
  connection: Pick<Connection, 'send'>;
  sendQueue: Pick<SendQueue, 'send'>;
}

/**
 * What the user does to a conversation and its messages over REST (settings, clearing,
 * burn after reading, forwarding, revoking, editing, hiding, reading): the server's
 * answer is applied to the local copy at once, before its push arrives.
 */
export class ConversationActions {
  private readonly api: ApiClient;
  private readonly writer: LocalWriter;
  private readonly syncer: SyncController;
  private readonly connection: Pick<Connection, 'send'>;
  private readonly sendQueue: Pick<SendQueue, 'send'>;

  constructor(deps: ConversationActionsDeps) {
    this.api = deps.api;
    this.writer = deps.writer;
    this.syncer = deps.syncer;
    this.connection = deps.connection;
    this.sendQueue = deps.sendQueue;
  }

  async updateConversation(conversationId: string, patch: UpdateConversationBody): Promise<void> {
    const conversation = await this.api.call(routes.messages.update, {
      params: { id: conversationId },
      body: patch,
    });
    await this.writer.serial((store) => this.writer.putConversations(store, [conversation]));
  }

  async clearHistory(conversationId: string): Promise<void> {
    const conversation = await this.api.call(routes.messages.clear, {
      params: { id: conversationId },
    });
    await this.writer.serial((store) => this.writer.putConversations(store, [conversation]));
  }

  async setBurn(conversationId: string, seconds: number): Promise<void> {
    const notice = await this.api.call(routes.messages.setBurn, {
      params: { id: conversationId },
      body: { seconds },
    });
    await this.applyAnswer(conversationId, notice);
  }

  /**
   * Sends a copy of a message, marked forwarded, to each conversation. A chat history
   * record goes on as it is (forwardMerged of it alone).
   */
  async forward(message: LocalMessage, conversationIds: string[]): Promise<void> {
    const { content } = message;
    if (content.kind === 'merged' && message.seq !== null) {
      await this.forwardMerged(message.conversationId, [message.seq], conversationIds);
      return;
    }
    let forwarded: SendableContent;
    if (content.kind === 'text') forwarded = { kind: 'text', text: content.text, forwarded: true };
    else if (isSentContent(content) && content.kind !== 'merged') {
      forwarded = { ...content, forwarded: true };
    } else throw new ApiError('VALIDATION_FAILED', 400);
    for (const conversationId of conversationIds) {
      await this.sendQueue.send(conversationId, forwarded);
    }
  }

  /**
   * Forwards messages of a conversation (their seqs) as one chat history record to each
   * of these conversations. The server writes the record from its stored copies, so it
   * is sent at once, not queued: offline, it fails with the reason and nothing is sent.
   */
  async forwardMerged(
    conversationId: string,
    seqs: readonly number[],
    conversationIds: readonly string[],
  ): Promise<void> {
    for (const target of conversationIds) {
      const message = await this.api.call(routes.messages.send, {
        body: {
          conversationId: target,
          clientMsgId: newClientMsgId(),
          content: { kind: 'merged', source: { conversationId, seqs: [...seqs] } },
        },
      });
      await this.applyAnswer(target, message);
    }
  }

  async revoke(conversationId: string, seq: number): Promise<void> {
    const notice = await this.api.call(routes.messages.revoke, {
      params: { id: conversationId, seq },
    });
    await this.applyAnswer(conversationId, notice);
  }

  /** Gives our own text new words; the notice applies here at once. */
  async edit(conversationId: string, seq: number, text: string): Promise<void> {
    const notice = await this.api.call(routes.messages.edit, {
      params: { id: conversationId, seq },
      body: { text },
    });
    await this.applyAnswer(conversationId, notice);
  }

  async hide(conversationId: string, seq: number): Promise<void> {
    await this.api.call(routes.messages.hide, { params: { id: conversationId, seq } });
    await this.writer.serial((store) => this.writer.applyHidden(store, conversationId, seq));
  }

  /** Marks the conversation read up to its newest seq. */
  markRead(conversationId: string): void {
    void this.writer
      .serial(async (store) => {
        const conversation = this.writer.conversations.get(conversationId);
        const none = { seq: null, previous: 0, burning: false };
        if (!conversation) return none;
        const next = markReadLocally(conversation);
        if (next === conversation) return none;
        await this.writer.saveConversation(store, next);
        return {
          seq: next.readSeq,
          previous: conversation.readSeq,
          burning: conversation.burnSeconds > 0,
        };
      })
      .then(async ({ seq, previous, burning }) => {
        if (seq === null) return;
        // With burn after reading on, the read starts burn clocks on the server: wait for
        // it (REST) and fetch the new burn times.
        if (!burning && this.connection.send({ t: 'read', conversationId, seq })) return;
        // No socket: try REST; if that fails too the read goes on the next connect.
        await this.api.call(routes.messages.read, {
          params: { id: conversationId },
          body: { seq },
        });
        if (burning) await this.syncer.refreshBurn(conversationId, previous);
        await this.writer.serial(async (store) => {
          const current = this.writer.conversations.get(conversationId);
          if (current && current.pendingRead !== null && current.pendingRead <= seq) {
            await this.writer.saveConversation(store, { ...current, pendingRead: null });
          }
        });
      })
      .catch(this.syncer.backgroundFailed);
  }

  /** A message the server answered a REST call with (a notice, a record), applied here at once. */
  private applyAnswer(conversationId: string, message: Message): Promise<void> {
    return this.writer.serial((store) =>
      this.writer.applyServerMessages(store, conversationId, [message], true),
    );
  }
}
