import type { TranslationInfoResult } from '@teltlk/protocol';
import { chatList } from './reducers.js';
import type { StoredConversation } from './store.js';
import { INITIAL_STATE, nextState, type EngineAction } from './engine-state.js';
import type { EngineSnapshot, EngineState } from './types.js';

/** What the snapshots are made from, owned by the rest of the engine. */
export interface SnapshotSource {
  conversations(): Iterable<StoredConversation>;
  drafts: ReadonlyMap<string, string>;
  translation(): TranslationInfoResult | null;
  /** A conversation's state changed: its open screens read their window again. */
  reloadScreens(conversationId: string): void;
  stopped(): boolean;
}

/**
 * The engine's snapshot (chat list, unread total, status, errors) and the screens' cue
 * to reload: changes are marked as they happen and taken up once per batch, after the
 * current task, so a sync that writes a thousand rows renders once.
 */
export class Snapshots {
  private state: EngineState = INITIAL_STATE;
  private snapshot: EngineSnapshot = {
    ...INITIAL_STATE,
    conversations: [],
    totalUnread: 0,
    translation: null,
  };
  private readonly listeners = new Set<() => void>();
  private listDirty = false;
  private readonly dirtyConversations = new Set<string>();
  private flushScheduled = false;
  private burnTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly source: SnapshotSource) {}

  get current(): EngineSnapshot {
    return this.snapshot;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Moves the engine's state. Opening the cache rebuilds the snapshot at once; closing
   * it stops the burn timer and leaves the last snapshot to the stopped engine.
   */
  dispatch(action: EngineAction): void {
    const next = nextState(this.state, action);
    if (next === this.state) return;
    this.state = next;
    if (action.type === 'closed') {
      this.stopTimer();
    } else if (action.type === 'opened') {
      this.rebuild();
      this.notify();
    } else {
      this.changed(undefined, true);
    }
  }

  /** Marks state as changed; listeners hear once per batch, after the current task. */
  changed(conversationId: string | undefined, list: boolean): void {
    if (list) this.listDirty = true;
    if (conversationId !== undefined) this.dirtyConversations.add(conversationId);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => this.flush());
  }

  stopTimer(): void {
    if (this.burnTimer) clearTimeout(this.burnTimer);
    this.burnTimer = null;
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.source.stopped()) return;
    if (this.listDirty) {
      this.listDirty = false;
      this.rebuild();
      this.notify();
    }
    const dirty = [...this.dirtyConversations];
    this.dirtyConversations.clear();
    for (const id of dirty) this.source.reloadScreens(id);
  }

  private rebuild(): void {
    const now = Date.now();
    const { conversations, totalUnread } = chatList(
      this.source.conversations(),
      this.source.drafts,
      now,
    );
    this.snapshot = {
      ...this.state,
      conversations,
      totalUnread,
      translation: this.source.translation(),
    };
    // A burnt last message leaves the list when its time comes.
    this.stopTimer();
    let next: number | null = null;
    for (const conversation of this.source.conversations()) {
      const burnAt = conversation.lastMessage?.burnAt ?? null;
      if (burnAt !== null && burnAt > now && (next === null || burnAt < next)) next = burnAt;
    }
    if (next !== null) {
      this.burnTimer = setTimeout(() => this.changed(undefined, true), next - now + 1);
    }
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
