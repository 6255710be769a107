import { PULL_LIMIT_MAX } from '@teltlk/protocol';
import { routes, ApiError, type ApiClient } from '@teltlk/client';
import { backoffDelay, type Connection } from './connection.js';
import type { Emitter } from './emitter.js';
import { PAGE_SIZE } from './handle.js';
import { EngineStopped, type LocalWriter } from './local-writer.js';
import { Rerun, RerunByKey } from './rerun.js';
import type { Screens } from './screens.js';
import type { Snapshots } from './snapshots.js';
import type { StoredConversation } from './store.js';
import {
  pullAfter,
  pullConversations,
  pullEventPages,
  pullNewestPage,
  pullOlderPage,
  type MessagePage,
} from './sync.js';
import type { EngineEvents } from './types.js';

/**
 * A conversation this far behind is reloaded from its newest page instead of pulled
 * message by message: the old local copy is dropped (it is a cache).
 */
export const RESET_GAP = 1000;

export interface SyncDeps {
  api: ApiClient;
  writer: LocalWriter;
  emitter: Emitter<EngineEvents>;
  /** The socket: whether it is up and authenticated, and sending on it. */
  connection: Pick<Connection, 'isReady' | 'send'>;
  /** The conversations open on screen, whose messages are kept complete. */
  screens: Pick<Screens, 'has' | 'conversationIds'>;
  /** Where syncing and its failures are shown. */
  snapshots: Pick<Snapshots, 'dispatch'>;
  stopped(): boolean;
}

/**
 * Keeping the local copy in step with the server: the sync after each (re)connect, the
 * user's event stream, and the messages of open conversations, each pull run once at a
 * time and once more if asked meanwhile.
 */
export class SyncController {
  private readonly writer: LocalWriter;
  private readonly syncs: Rerun;
  private readonly eventPulls: Rerun;
  private readonly catchUps: RerunByKey<string>;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly deps: SyncDeps) {
    this.writer = deps.writer;
    this.syncs = new Rerun(
      () => this.syncRound(),
      () => !deps.stopped(),
    );
    this.eventPulls = new Rerun(() =>
      pullEventPages(
        deps.api,
        () => this.writer.lastEventSeq,
        (events) => this.writer.serial((store) => this.writer.applyEvents(store, events)),
      ),
    );
    this.catchUps = new RerunByKey((conversationId) => this.catchUpOnce(conversationId));
    deps.writer.signals.on('unknownConversation', () => {
      if (deps.connection.isReady) void this.sync();
    });
    deps.writer.signals.on('gap', (conversationId) => {
      if (deps.screens.has(conversationId)) {
        void this.catchUp(conversationId).catch(this.backgroundFailed);
      }
    });
  }

  /**
   * Background work that failed. Network and server refusals are redone by the next sync
   * (whose own failure is shown); anything else is a failure of this device's copy (the
   * database refused a write), logged and shown until a retry's sync succeeds.
   */
  readonly backgroundFailed = (error: unknown): void => {
    if (error instanceof EngineStopped || error instanceof ApiError) return;
    console.error(error);
    this.deps.snapshots.dispatch({
      type: 'failed',
      error: { kind: 'store', code: 'UNKNOWN', retry: () => void this.sync() },
    });
  };

  /**
   * Catches up after (re)connecting: changed conversations, the user's events, and the
   * messages of the conversations open on screen. Never the full history of every
   * conversation: the list shows lastMessage, and a conversation is pulled when opened.
   * A sync asked for while one runs makes it go round once more. A failed sync is tried
   * again after a backoff while the socket is up.
   */
  sync(): Promise<void> {
    if (this.syncs.running) return this.syncs.run();
    this.stopRetry();
    const { snapshots } = this.deps;
    snapshots.dispatch({ type: 'syncing', syncing: true });
    this.deps.emitter.emit('syncStart');
    return this.syncs.run().then(
      () => {
        this.attempt = 0;
        this.sendPendingReads();
        this.deps.emitter.emit('syncFinish');
        snapshots.dispatch({ type: 'syncing', syncing: false });
        snapshots.dispatch({ type: 'recovered', kind: 'sync' });
        snapshots.dispatch({ type: 'recovered', kind: 'store' });
      },
      (error: unknown) => {
        snapshots.dispatch({ type: 'syncing', syncing: false });
        if (this.deps.stopped() || error instanceof EngineStopped) return;
        this.deps.emitter.emit('syncFailed');
        snapshots.dispatch({
          type: 'failed',
          error: {
            kind: 'sync',
            code: error instanceof ApiError ? error.code : 'UNKNOWN',
            retry: () => void this.sync(),
          },
        });
        if (!this.deps.connection.isReady) return;
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          if (this.deps.connection.isReady) void this.sync();
        }, backoffDelay(this.attempt++));
      },
    );
  }

  /** Pulls the user's events after the last applied one; one pull at a time. */
  pullEvents(): Promise<void> {
    return this.eventPulls.run();
  }

  /** Pulls what an open conversation lacks; one pull per conversation at a time. */
  catchUp(conversationId: string): Promise<void> {
    return this.catchUps.run(conversationId);
  }

  stopRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private async syncRound(): Promise<void> {
    if (this.writer.lastEventSeq === 0 && this.writer.syncedAt === 0) await this.skipOldEvents();
    await this.syncConversations();
    await this.pullEvents();
    await Promise.all([...this.deps.screens.conversationIds()].map((id) => this.catchUp(id)));
  }

  /** Pulls one older page from the server if the local copy is exhausted. */
  async pullOlder(conversationId: string, localCount: number, wanted: number): Promise<void> {
    const conversation = this.writer.conversations.get(conversationId);
    if (!conversation || conversation.historyComplete || localCount >= wanted) return;
    if (conversation.coveredFrom === null) {
      await this.catchUp(conversationId);
      return;
    }
    const before = conversation.coveredFrom;
    const page = await pullOlderPage(this.deps.api, conversationId, before, PAGE_SIZE);
    await this.writer.serial(async (store) => {
      await this.writer.applyServerMessages(store, conversationId, page.messages, false);
      const current = this.writer.conversations.get(conversationId);
      if (!current || current.coveredFrom === null) return;
      let coveredFrom = Math.min(current.coveredFrom, page.minSeq ?? before);
      const historyComplete = !page.hasMore;
      if (historyComplete) coveredFrom = Math.min(coveredFrom, current.minSeq + 1);
      await this.writer.saveConversation(store, { ...current, coveredFrom, historyComplete });
    });
  }

  /**
   * A fresh device takes the full conversation state from the conversation sync, so the
   * older events (years of friend requests) are not replayed: start after the newest.
   */
  private async skipOldEvents(): Promise<void> {
    const page = await this.deps.api.call(routes.events.page, {
      query: { after: 0, limit: 1 },
    });
    await this.writer.serial(async (store) => {
      if (this.writer.lastEventSeq >= page.lastSeq) return;
      this.writer.lastEventSeq = page.lastSeq;
      await store.setMeta('lastEventSeq', page.lastSeq);
    });
  }

  private async syncConversations(): Promise<void> {
    const syncedAt = await pullConversations(this.deps.api, this.writer.syncedAt, (conversations) =>
      this.writer.serial((store) => this.writer.putConversations(store, conversations)),
    );
    await this.writer.serial(async (store) => {
      this.writer.syncedAt = syncedAt;
      await store.setMeta('syncedAt', syncedAt);
    });
  }

  private async catchUpOnce(conversationId: string): Promise<void> {
    let conversation = this.writer.conversations.get(conversationId);
    if (!conversation) return;
    if (
      conversation.coveredFrom !== null &&
      conversation.maxSeq - conversation.pulledSeq > RESET_GAP
    ) {
      await this.writer.serial(async (store) => {
        const current = this.writer.conversations.get(conversationId);
        if (!current) return;
        await store.deleteUpTo(conversationId, Number.MAX_SAFE_INTEGER);
        await this.writer.saveConversation(store, {
          ...current,
          coveredFrom: null,
          pulledSeq: 0,
          historyComplete: false,
        });
      });
      conversation = this.writer.conversations.get(conversationId);
      if (!conversation) return;
    }
    if (conversation.coveredFrom === null) {
      const knownMax = conversation.maxSeq;
      const page = await pullNewestPage(this.deps.api, conversationId, PAGE_SIZE);
      await this.applyPage(conversationId, page, knownMax, (current) => ({
        coveredFrom: page.hasMore ? (page.minSeq ?? knownMax + 1) : current.minSeq + 1,
        historyComplete: !page.hasMore,
      }));
    }
    for (;;) {
      const current = this.writer.conversations.get(conversationId);
      if (!current || current.coveredFrom === null || current.pulledSeq >= current.maxSeq) return;
      const knownMax = current.maxSeq;
      const page = await pullAfter(
        this.deps.api,
        conversationId,
        current.pulledSeq,
        PULL_LIMIT_MAX,
      );
      await this.applyPage(conversationId, page, knownMax, () => ({}));
    }
  }

  /** Applies a page and moves the coverage: a last page covers all the server had. */
  private applyPage(
    conversationId: string,
    page: MessagePage,
    knownMax: number,
    coverage: (current: StoredConversation) => Partial<StoredConversation>,
  ): Promise<void> {
    return this.writer.serial(async (store) => {
      await this.writer.applyServerMessages(store, conversationId, page.messages, false);
      const current = this.writer.conversations.get(conversationId);
      if (!current) return;
      const patch = coverage(current);
      let pulledSeq = Math.max(current.pulledSeq, page.maxSeq ?? 0);
      if (!page.hasMore) pulledSeq = Math.max(pulledSeq, knownMax);
      await this.writer.saveConversation(store, { ...current, ...patch, pulledSeq });
    });
  }

  /** Fetches messages after `after` again, for the burn times a read has set. */
  async refreshBurn(conversationId: string, after: number): Promise<void> {
    let from = after;
    for (;;) {
      const page = await pullAfter(this.deps.api, conversationId, from, PULL_LIMIT_MAX);
      await this.writer.serial((store) =>
        this.writer.applyServerMessages(store, conversationId, page.messages, false),
      );
      if (!page.hasMore || page.maxSeq === null) return;
      from = page.maxSeq;
    }
  }

  private sendPendingReads(): void {
    for (const conversation of this.writer.conversations.values()) {
      if (conversation.pendingRead === null) continue;
      this.deps.connection.send({
        t: 'read',
        conversationId: conversation.id,
        seq: conversation.pendingRead,
      });
    }
  }
}
