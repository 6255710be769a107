import type { UserEvent } from '@teltlk/protocol';
import { useEffect, useRef } from 'react';

type Listener = (event: UserEvent) => void;
const listeners = new Set<Listener>();

/**
 * Events of the signed-in user's stream (friend requests, friends, blocks, …), as the
 * messaging engine receives them, for screens that keep REST data fresh.
 */
export function emitUserEvent(event: UserEvent): void {
  for (const listener of listeners) listener(event);
}

export function onUserEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Calls the latest `handler` for every user event while the component is mounted. */
export function useUserEvents(handler: Listener): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => onUserEvent((event) => latest.current(event)), []);
}
