import type { TranslationInfoResult } from '@teltlk/protocol';
import { chatList } from './reducers.js';
import type { LocalWriter } from './local-writer.js';
import type { Screens } from './screens.js';
import { INITIAL_STATE, nextState, type EngineAction } from './engine-state.js';
import type { EngineSnapshot, EngineState } from './types.js';

/** What the snapshots are made from, owned by the rest of the engine. */
export interface SnapshotSource {
  /** Its copy of the conversations, and its signals of what changed. */
  writer: Pick<LocalWriter, 'conversations' | 'signals'>;
  drafts: ReadonlyMap<string, string>;
  /** Screens read their window again when their conversation changed. */
  screens: Pick<Screens, 'reload'>;
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
  private translation: TranslationInfoResult | null = null;
  /** Stopped: changes are not taken up any more (the engine's parts are torn down). */
  private stopped = false;

  constructor(private readonly source: SnapshotSource) {
    source.writer.signals.on('changed', ({ conversationId, list }) =>
      this.changed(conversationId, list),
    );
  }

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
   * it stops the burn timer, forgets the server's translation info, and leaves the last
   * snapshot to the stopped engine.
   */
  dispatch(action: EngineAction): void {
    const next = nextState(this.state, action);
    if (action.type === 'closed') {
      this.state = next;
      this.stopped = true;
      this.translation = null;
      this.stopTimer();
      return;
    }
    if (next === this.state) return;
    this.state = next;
    if (action.type === 'opened') {
      this.stopped = false;
      this.rebuild();
      this.notify();
    } else {
      this.changed(undefined, true);
    }
  }

  /** What the server offers for translation, as it last answered. */
  setTranslation(info: TranslationInfoResult): void {
    this.translation = info;
    this.changed(undefined, true);
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
    if (this.stopped) return;
    if (this.listDirty) {
      this.listDirty = false;
      this.rebuild();
      this.notify();
    }
    const dirty = [...this.dirtyConversations];
    this.dirtyConversations.clear();
    for (const id of dirty) this.source.screens.reload(id);
  }

  private rebuild(): void {
    const now = Date.now();
    const { conversations, totalUnread } = chatList(
      this.source.writer.conversations.values(),
      this.source.drafts,
      now,
    );
    this.snapshot = {
      ...this.state,
      conversations,
      totalUnread,
      translation: this.translation,
    };
    // A burnt last message leaves the list when its time comes.
    this.stopTimer();
    let next: number | null = null;
    for (const conversation of this.source.writer.conversations.values()) {
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
