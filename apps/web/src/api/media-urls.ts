import { backoffDelay } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import { MEDIA_URLS_MAX, type MediaUrlsResult } from '@teltlk/protocol';
import { useEffect, useSyncExternalStore } from 'react';
import { api } from './client';

/** A media's signed addresses, or `missing` when the server gave none (gone, or not ours to see). */
export type MediaAddress = MediaUrlsResult['urls'][number] | 'missing';

/** Addresses are asked for again this long before they expire. */
const RENEW_BEFORE_MS = 5 * 60 * 1000;

const known = new Map<string, MediaAddress>();
const wanted = new Set<string>();
const asking = new Set<string>();
const listeners = new Set<() => void>();
let scheduled = false;
/** Ids a failed request left without addresses, asked for again after a wait. */
const retrying = new Set<string>();
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let failures = 0;

function notify(): void {
  for (const listener of [...listeners]) listener();
}

function fresh(address: MediaAddress | undefined): boolean {
  if (address === undefined) return false;
  return address === 'missing' || address.expiresAt - Date.now() > RENEW_BEFORE_MS;
}

/** Every id wanted in one turn of the event loop goes in one request (100 at most each). */
function flush(): void {
  scheduled = false;
  const ids = [...wanted].filter((id) => !asking.has(id));
  wanted.clear();
  for (let start = 0; start < ids.length; start += MEDIA_URLS_MAX) {
    const batch = ids.slice(start, start + MEDIA_URLS_MAX);
    for (const id of batch) asking.add(id);
    api
      .call(routes.media.urls, { body: { ids: batch } })
      .then(({ urls }) => {
        failures = 0;
        const given = new Map(urls.map((address) => [address.id, address]));
        for (const id of batch) known.set(id, given.get(id) ?? 'missing');
      })
      // Offline, timed out or refused: the photos and files on screen would stay blank
      // until it is left, so they are asked for again after a wait.
      .catch(() => retryLater(batch))
      .finally(() => {
        for (const id of batch) asking.delete(id);
        notify();
      });
  }
}

function retryLater(ids: readonly string[]): void {
  for (const id of ids) retrying.add(id);
  if (retryTimer) return;
  // The socket's backoff: longer after each failure in a row, up to 30 s, spread at random.
  const wait = backoffDelay(failures);
  failures += 1;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    const again = [...retrying];
    retrying.clear();
    for (const id of again) wantMediaAddress(id);
  }, wait);
}

/** Asks for a media's addresses, with the others wanted in the same turn, unless known and fresh. */
export function wantMediaAddress(id: string): void {
  if (fresh(known.get(id)) || asking.has(id)) return;
  wanted.add(id);
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(flush);
}

/** A media's addresses as known now (null while asked for). */
export function knownMediaAddress(id: string): MediaAddress | null {
  return known.get(id) ?? null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The signed addresses of a stored media (null while they are asked for). The photos of
 * a screen are asked for together, and kept until shortly before they expire.
 */
export function useMediaAddress(id: string | null): MediaAddress | null {
  const address = useSyncExternalStore(subscribe, () => (id ? knownMediaAddress(id) : null));
  useEffect(() => {
    if (id) wantMediaAddress(id);
  }, [id, address]);
  return address;
}

/** The addresses of several media at once (null where still asked for); stable between changes. */
export function useMediaAddresses(ids: readonly string[]): (MediaAddress | null)[] {
  const key = ids.join(',');
  const snapshot = useSyncExternalStore(subscribe, () =>
    ids
      .map((id) => {
        const address = known.get(id);
        return address === undefined ? '' : address === 'missing' ? '-' : address.url;
      })
      .join('\n'),
  );
  useEffect(() => {
    for (const id of key ? key.split(',') : []) wantMediaAddress(id);
  }, [key, snapshot]);
  return ids.map(knownMediaAddress);
}

/** Forgets every address (signing out). */
export function forgetMediaAddresses(): void {
  known.clear();
  retrying.clear();
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  failures = 0;
  notify();
}
