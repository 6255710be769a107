import {
  ImEngine,
  type ConversationHandle,
  type ConversationSnapshot,
  type EngineSnapshot,
} from '@teltlk/im-sdk';
import type { Call } from '@teltlk/protocol';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { api } from '../api/client';
import { mediaUploader } from '../api/media-uploader';
import { useMe } from '../api/queries';
import { setTitleUnread } from '../ui/page-title';
import { showToast } from '../ui/toast';
import { messageText } from '../ui/use-message';
import { i18n } from '../i18n/index';
import { useAuthStore } from './auth-store';
import { socketUrl } from './paths';
import { useTabBadges } from './tab-badges';
import { emitUserEvent } from './user-events';

interface ActiveEngine {
  /** The user and token it was built for: either changing means another engine. */
  key: string;
  userId: string;
  engine: ImEngine;
  /** The first connection attempt has ended (connected or failed). */
  attempted: boolean;
  release: () => void;
}

let active: ActiveEngine | null = null;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribeActive(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The socket said the session is over: sign out here, with the reason. */
function endSession(text: string): void {
  if (useAuthStore.getState().token === null) return;
  useAuthStore.getState().signOut();
  showToast(text);
}

function startEngine(key: string, userId: string): ActiveEngine {
  const engine = new ImEngine({
    wsUrl: socketUrl(window.location),
    userId,
    getToken: () => useAuthStore.getState().token,
    api,
    uploader: mediaUploader,
  });
  const record: ActiveEngine = { key, userId, engine, attempted: false, release: () => {} };
  const firstAttemptEnded = () => {
    if (record.attempted) return;
    record.attempted = true;
    notify();
  };
  const offs = [
    engine.on('connected', firstAttemptEnded),
    engine.on('connectFailed', firstAttemptEnded),
    engine.on('tokenExpired', () => endSession(messageText({ key: 'error.TOKEN_EXPIRED' }))),
    engine.on('tokenInvalid', () => endSession(messageText({ key: 'error.UNAUTHENTICATED' }))),
    engine.on('kickedOffline', () => endSession(i18n.t('chat.kickedOffline'))),
    engine.on('userEvent', emitUserEvent),
    engine.subscribe(() => {
      const unread = engine.getSnapshot().totalUnread;
      useTabBadges.getState().setBadge('home', unread);
      setTitleUnread(unread);
    }),
  ];
  record.release = () => {
    for (const off of offs) off();
  };
  engine.start().catch((error: unknown) => {
    // The local cache failed to open (private mode, quota): the socket still works.
    console.error('Messaging engine failed to start', error);
  });
  return record;
}

/**
 * Keeps one engine for the signed-in user: starts it on sign-in, stops it on sign-out
 * or when another user signs in. Idempotent, so React's double effects do no harm.
 */
export function runEngine(token: string | null, userId: string | undefined): void {
  const key = token && userId ? `${userId}\n${token}` : null;
  if (active?.key === key) return;
  if (active) {
    const previous = active;
    active = null;
    previous.release();
    void previous.engine.stop();
    useTabBadges.getState().setBadge('home', 0);
    setTitleUnread(0);
  }
  if (key && userId) active = startEngine(key, userId);
  notify();
}

// The lifecycle hook is mounted only while someone is signed in: signing out unmounts it
// before its effect could see the token go, so the engine follows the store itself too.
useAuthStore.subscribe((state) => {
  if (state.token === null) runEngine(null, undefined);
});

/** Who the current token belongs to, kept so the cached chats open without the network. */
const USER_STORAGE_KEY = 'teltlk.messagingUser';

/** The end of the token tells one session from the next without storing it twice. */
function tokenMark(token: string): string {
  return token.slice(-12);
}

function rememberedUser(token: string): string | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? 'null') as {
      mark?: unknown;
      userId?: unknown;
    } | null;
    return stored?.mark === tokenMark(token) && typeof stored.userId === 'string'
      ? stored.userId
      : undefined;
  } catch {
    return undefined;
  }
}

function rememberUser(token: string, userId: string): void {
  try {
    localStorage.setItem(USER_STORAGE_KEY, JSON.stringify({ mark: tokenMark(token), userId }));
  } catch {
    // Without storage the engine waits for the `me` answer on the next visit.
  }
}

/**
 * Signing out on purpose: stop the engine and delete what this device keeps of the user
 * (chats, drafts, unsent messages), as a person expects on a shared phone. A session
 * that merely expired keeps its cache for the next sign-in. The engine is let go of
 * before the first await: from the call on, nothing it hears can end the session.
 */
export async function forgetLocalData(): Promise<void> {
  const previous = active;
  if (!previous) return;
  active = null;
  previous.release();
  useTabBadges.getState().setBadge('home', 0);
  setTitleUnread(0);
  notify();
  try {
    localStorage.removeItem(USER_STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
  await previous.engine.stop();
  await ImEngine.deleteLocalData(previous.userId);
}

/** Mounted once in the app layout: follows the session and the `me` query. */
export function useEngineLifecycle(): void {
  const token = useAuthStore((state) => state.token);
  const me = useMe();
  // The query cache is cleared on every token change, so `me` data present here is the
  // current user's. Before it answers (or when offline), the user remembered for this
  // token lets the engine show the local cache at once.
  const userId = token ? (me.data?.id ?? rememberedUser(token)) : undefined;
  useEffect(() => {
    if (token && me.data) rememberUser(token, me.data.id);
  }, [token, me.data]);
  useEffect(() => {
    runEngine(token, userId);
  }, [token, userId]);
  // Received messages are translated into the mother tongue unless a chat says otherwise.
  const motherTongue = me.data?.motherTongue ?? null;
  const engine = useEngine();
  useEffect(() => {
    engine?.setMotherTongue(motherTongue);
  }, [engine, motherTongue]);
}

export function useEngine(): ImEngine | null {
  return useSyncExternalStore(subscribeActive, () => active?.engine ?? null);
}

const noSubscription = () => () => {};
const NO_CALLS: readonly Call[] = [];
const noCalls = () => NO_CALLS;

/** The calls the engine knows (ringing, running, just ended); none while signed out. */
export function useCalls(): readonly Call[] {
  const engine = useEngine();
  return useSyncExternalStore(
    engine?.calls.subscribe ?? noSubscription,
    engine?.calls.getSnapshot ?? noCalls,
  );
}

/** The signed-in user's id, as the engine knows it (null while signed out). */
export function useSelfId(): string | null {
  return useSyncExternalStore(subscribeActive, () => active?.userId ?? null);
}

/** The chat list, unread total and connection state; null while no engine runs. */
export function useEngineSnapshot(): EngineSnapshot | null {
  const engine = useEngine();
  const subscribe = useCallback(
    (listener: () => void) => (engine ? engine.subscribe(listener) : () => {}),
    [engine],
  );
  return useSyncExternalStore(engine ? subscribe : noSubscription, () =>
    engine ? engine.getSnapshot() : null,
  );
}

/** Connection trouble worth telling: not connected once the first attempt has ended. */
export function useConnectionTrouble(): boolean {
  const attempted = useSyncExternalStore(subscribeActive, () => active?.attempted ?? false);
  const snapshot = useEngineSnapshot();
  return (
    attempted && snapshot !== null && snapshot.status !== 'syncing' && snapshot.status !== 'ready'
  );
}

export interface OpenConversation {
  handle: ConversationHandle;
  snapshot: ConversationSnapshot;
}

/**
 * One conversation, opened while the component is mounted and closed after. The handle
 * is made in an effect, so a render thrown away never leaves one open.
 */
export function useConversation(conversationId: string | null): OpenConversation | null {
  const engine = useEngine();
  const [opened, setOpened] = useState<{
    engine: ImEngine;
    id: string;
    handle: ConversationHandle;
  } | null>(null);

  useEffect(() => {
    if (!engine || !conversationId) return;
    const handle = engine.conversation(conversationId);
    setOpened({ engine, id: conversationId, handle });
    return () => {
      handle.close();
      setOpened(null);
    };
  }, [engine, conversationId]);

  const current =
    opened && opened.engine === engine && opened.id === conversationId ? opened.handle : null;
  const subscribe = useCallback(
    (listener: () => void) => (current ? current.subscribe(listener) : () => {}),
    [current],
  );
  const snapshot = useSyncExternalStore(subscribe, () => current?.getSnapshot() ?? null);
  return current && snapshot ? { handle: current, snapshot } : null;
}
