import type { TranslationInfoResult } from '@teltlk/protocol';
import { chatList } from './reducers.js';
import type { StoredConversation } from './store.js';
import type { ConnectionState, EngineError, EngineSnapshot, EngineStatus } from './types.js';

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
  private snapshot: EngineSnapshot = {
    status: 'starting',
    errors: [],
    ready: false,
    connection: 'disconnected',
    syncing: false,
    conversations: [],
    totalUnread: 0,
    translation: null,
  };
  private readonly listeners = new Set<() => void>();
  private ready = false;
  private connection: ConnectionState = 'disconnected';
  private syncing = false;
  private errors: readonly EngineError[] = [];
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

  /** The local cache is loaded (or, false, closed): the snapshot is rebuilt at once. */
  setReady(ready: boolean): void {
    this.ready = ready;
    if (!ready) {
      this.stopTimer();
      return;
    }
    this.rebuild();
    this.notify();
  }

  setConnection(connection: ConnectionState): void {
    this.connection = connection;
    this.changed(undefined, true);
  }

  setSyncing(syncing: boolean): void {
    this.syncing = syncing;
    this.changed(undefined, true);
  }

  /** Records a failure of background work, replacing an earlier one of its kind. */
  failed(error: EngineError): void {
    this.errors = [...this.errors.filter(({ kind }) => kind !== error.kind), error];
    this.changed(undefined, true);
  }

  /** Background work of this kind succeeded: its failure is over. */
  recovered(kind: EngineError['kind']): void {
    if (!this.errors.some((error) => error.kind === kind)) return;
    this.errors = this.errors.filter((error) => error.kind !== kind);
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
      status: this.status(),
      errors: this.errors,
      ready: this.ready,
      connection: this.connection,
      syncing: this.syncing,
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

  private status(): EngineStatus {
    if (!this.ready) return 'starting';
    if (this.connection === 'disconnected') return 'offline';
    if (this.connection === 'connecting') return 'connecting';
    return this.syncing ? 'syncing' : 'ready';
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
