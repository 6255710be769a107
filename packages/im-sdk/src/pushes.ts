import type { Message, ServerFrame, UserEvent } from '@teltlk/protocol';
import type { Emitter } from './emitter.js';
import type { LocalWriter } from './local-writer.js';
import { applyRead, classifySeq } from './reducers.js';
import type { Screens } from './screens.js';
import type { SendQueue } from './send-queue.js';
import type { SyncController } from './sync-controller.js';
import type { TranslationSync } from './translation-sync.js';
import type { EngineEvents } from './types.js';

export interface PushesDeps {
  userId: string;
  emitter: Emitter<EngineEvents>;
  writer: LocalWriter;
  syncer: SyncController;
  translation: TranslationSync;
  screens: Pick<Screens, 'showTyping'>;
  sendQueue: Pick<SendQueue, 'acked' | 'refused'>;
}

/**
 * What the server pushes on the socket, applied in order: answers to our sends, new
 * messages and events (a gap in the event stream is pulled), typing, translations and
 * reads.
 */
export class Pushes {
  private readonly userId: string;
  private readonly emitter: Emitter<EngineEvents>;
  private readonly writer: LocalWriter;
  private readonly syncer: SyncController;
  private readonly translation: TranslationSync;
  private readonly screens: Pick<Screens, 'showTyping'>;
  private readonly sendQueue: Pick<SendQueue, 'acked' | 'refused'>;

  constructor(deps: PushesDeps) {
    this.userId = deps.userId;
    this.emitter = deps.emitter;
    this.writer = deps.writer;
    this.syncer = deps.syncer;
    this.translation = deps.translation;
    this.screens = deps.screens;
    this.sendQueue = deps.sendQueue;
  }

  /** A frame the server pushed on the socket. */
  handle(frame: ServerFrame): void {
    switch (frame.t) {
      case 'ack':
        this.sendQueue.acked(frame.rid, frame.message);
        return;
      case 'error':
        this.sendQueue.refused(frame.rid, frame.error.code);
        return;
      case 'message':
        void this.onPushedMessage(frame.message).catch(this.syncer.backgroundFailed);
        return;
      case 'event':
        void this.onPushedEvent(frame.event).catch(this.syncer.backgroundFailed);
        return;
      case 'typing':
        if (frame.userId === this.userId) return;
        this.emitter.emit('typing', { conversationId: frame.conversationId, userId: frame.userId });
        this.screens.showTyping(frame.conversationId);
        return;
      case 'translation':
        void this.writer
          .serial((store) => this.translation.store(store, [frame.translation]))
          .catch(this.syncer.backgroundFailed);
        return;
      case 'read':
        void this.writer
          .serial(async (store) => {
            const conversation = this.writer.conversations.get(frame.conversationId);
            if (!conversation) return null;
            const next = applyRead(conversation, this.userId, frame.userId, frame.seq);
            if (next === conversation) return null;
            await this.writer.saveConversation(store, next);
            // The peer's read started the burn clocks of our messages it covers.
            const burning = conversation.burnSeconds > 0 && frame.userId !== this.userId;
            return burning ? conversation.peerReadSeq : null;
          })
          .then((after) => {
            if (after !== null) return this.syncer.refreshBurn(frame.conversationId, after);
          })
          .catch(this.syncer.backgroundFailed);
        return;
      default:
        return;
    }
  }

  private async onPushedMessage(message: Message): Promise<void> {
    await this.writer.serial((store) =>
      this.writer.applyServerMessages(store, message.conversationId, [message], true),
    );
  }

  private async onPushedEvent(event: UserEvent): Promise<void> {
    const outcome = await this.writer.serial(async (store) => {
      const kind = classifySeq(this.writer.lastEventSeq, event.seq);
      if (kind === 'apply') await this.writer.applyEvents(store, [event]);
      return kind;
    });
    if (outcome === 'gap') await this.syncer.pullEvents();
  }
}
