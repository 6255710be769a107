import {
  TYPING_SHOW_MS,
  TYPING_THROTTLE_MS,
  type SendableContent,
  type Translation,
} from '@teltlk/protocol';
import { stableTranslations } from './translation.js';
import type {
  ConversationHandle,
  ConversationSnapshot,
  LocalMessage,
  OutgoingMedia,
} from './types.js';

/** Messages a conversation screen shows first and adds per scroll. */
export const PAGE_SIZE = 50;

/** What a conversation screen shows, read from the local database. */
export interface MessageWindow {
  messages: LocalMessage[];
  hasMore: boolean;
  nextBurnAt: number | null;
  translationTarget: string | null;
  translations: Translation[];
}

/** What a handle asks of the engine for its one conversation. */
export interface HandleHost {
  readWindow(conversationId: string, count: number): Promise<MessageWindow>;
  pullOlder(conversationId: string, localCount: number, wanted: number): Promise<void>;
  send(conversationId: string, content: SendableContent): Promise<LocalMessage>;
  sendMedia(conversationId: string, media: OutgoingMedia): Promise<LocalMessage>;
  retry(clientMsgId: string): void;
  revoke(conversationId: string, seq: number): Promise<void>;
  edit(conversationId: string, seq: number, text: string): Promise<void>;
  hide(conversationId: string, seq: number): Promise<void>;
  markRead(conversationId: string): void;
  sendTyping(conversationId: string): boolean;
  setDraft(conversationId: string, text: string): void;
  requestTranslations(conversationId: string, seqs: readonly number[]): void;
  retranslate(conversationId: string, seq: number): Promise<void>;
  detach(handle: Handle): void;
}

const NO_TRANSLATIONS: ReadonlyMap<number, Translation> = new Map();

/** A conversation screen's view of the engine. */
export class Handle implements ConversationHandle {
  private readonly listeners = new Set<() => void>();
  private snapshot: ConversationSnapshot = {
    messages: [],
    hasMore: false,
    loadingOlder: false,
    peerTyping: false,
    translationTarget: null,
    translations: NO_TRANSLATIONS,
  };
  private windowSize = PAGE_SIZE;
  private localCount = 0;
  private version = 0;
  private closed = false;
  private typingTimer: ReturnType<typeof setTimeout> | null = null;
  private burnTimer: ReturnType<typeof setTimeout> | null = null;
  private lastTypingSent = 0;

  constructor(
    private readonly engine: HandleHost,
    readonly conversationId: string,
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  getSnapshot(): ConversationSnapshot {
    return this.snapshot;
  }

  /** Re-reads the window; only the newest read lands. */
  async reload(): Promise<void> {
    if (this.closed) return;
    const version = ++this.version;
    let window: MessageWindow;
    try {
      window = await this.engine.readWindow(this.conversationId, this.windowSize);
    } catch (error) {
      // The engine stopped under the read (its database closed): nothing is shown any more.
      if (this.closed) return;
      throw error;
    }
    if (this.closed || version !== this.version) return;
    this.localCount = window.messages.filter((message) => message.seq !== null).length;
    if (this.burnTimer) clearTimeout(this.burnTimer);
    this.burnTimer = null;
    if (window.nextBurnAt !== null) {
      const delay = Math.max(0, window.nextBurnAt - Date.now()) + 1;
      this.burnTimer = setTimeout(() => void this.reload(), delay);
    }
    this.update({
      messages: window.messages,
      hasMore: window.hasMore,
      translationTarget: window.translationTarget,
      translations: stableTranslations(this.snapshot.translations, window.translations),
    });
  }

  async loadOlder(): Promise<void> {
    if (this.closed || this.snapshot.loadingOlder || !this.snapshot.hasMore) return;
    this.update({ loadingOlder: true });
    try {
      this.windowSize += PAGE_SIZE;
      await this.reload();
      await this.engine.pullOlder(this.conversationId, this.localCount, this.windowSize);
      await this.reload();
    } finally {
      this.update({ loadingOlder: false });
    }
  }

  send(content: SendableContent): Promise<LocalMessage> {
    return this.engine.send(this.conversationId, content);
  }

  sendMedia(media: OutgoingMedia): Promise<LocalMessage> {
    return this.engine.sendMedia(this.conversationId, media);
  }

  retry(clientMsgId: string): void {
    this.engine.retry(clientMsgId);
  }

  revoke(seq: number): Promise<void> {
    return this.engine.revoke(this.conversationId, seq);
  }

  /** Gives our own text new words (within the edit window). */
  edit(seq: number, text: string): Promise<void> {
    return this.engine.edit(this.conversationId, seq, text);
  }

  hide(seq: number): Promise<void> {
    return this.engine.hide(this.conversationId, seq);
  }

  markRead(): void {
    this.engine.markRead(this.conversationId);
  }

  typing(): void {
    const now = Date.now();
    if (now - this.lastTypingSent < TYPING_THROTTLE_MS) return;
    if (this.engine.sendTyping(this.conversationId)) this.lastTypingSent = now;
  }

  setDraft(text: string): void {
    this.engine.setDraft(this.conversationId, text);
  }

  translate(seqs: readonly number[]): void {
    this.engine.requestTranslations(this.conversationId, seqs);
  }

  retranslate(seq: number): Promise<void> {
    return this.engine.retranslate(this.conversationId, seq);
  }

  close(): void {
    this.dispose();
    this.engine.detach(this);
  }

  /** @internal */
  dispose(): void {
    this.closed = true;
    this.listeners.clear();
    if (this.typingTimer) clearTimeout(this.typingTimer);
    if (this.burnTimer) clearTimeout(this.burnTimer);
    this.typingTimer = this.burnTimer = null;
  }

  /** @internal */
  showTyping(): void {
    if (this.closed) return;
    if (this.typingTimer) clearTimeout(this.typingTimer);
    this.typingTimer = setTimeout(() => this.hideTyping(), TYPING_SHOW_MS);
    if (!this.snapshot.peerTyping) this.update({ peerTyping: true });
  }

  /** @internal */
  hideTyping(): void {
    if (this.typingTimer) clearTimeout(this.typingTimer);
    this.typingTimer = null;
    if (this.snapshot.peerTyping) this.update({ peerTyping: false });
  }

  private update(patch: Partial<ConversationSnapshot>): void {
    if (this.closed) return;
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of [...this.listeners]) listener();
  }
}
