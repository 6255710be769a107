/// <reference lib="webworker" />
/*
 * The service worker: the app shell offline (the pages and the chat list open without a
 * network; the chats themselves are in IndexedDB), Web Push notifications, and taps on
 * them. Built by the `service-worker` plugin into /sw.js with the build's file list.
 * It imports nothing: one self-contained script.
 */

declare const self: ServiceWorkerGlobalScope;

/** Replaced at build time: the files of this build to keep, and a name unique to it. */
declare const __SW_PRECACHE__: string[];
declare const __SW_BUILD__: string;

const CACHE = `teltlk-${__SW_BUILD__}`;
/** Files a build names by content hash: the same name is the same bytes for ever. */
const HASHED = /\/assets\//;
/**
 * Never from the cache: the API, the socket, media and files, the developer pages, and
 * the landing site (pages of their own, not the app's shell).
 */
const PASS_THROUGH = /\/(api|ws|files|dev|docs|healthz|openapi\.json|home)(\/|$)/;

interface PushPayload {
  title?: string;
  body?: string;
  tag?: string;
  path?: string;
}

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(__SW_PRECACHE__)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('teltlk-') && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// The page asks a waiting worker to take over when the person accepts the update.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'skipWaiting') void self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || PASS_THROUGH.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    // The newest page when online; the kept one (the app shell) when not.
    event.respondWith(
      fetch(request).catch(async () => {
        const kept = await caches.match('./', { ignoreSearch: true });
        return kept ?? Response.error();
      }),
    );
    return;
  }
  if (HASHED.test(url.pathname)) {
    event.respondWith(
      (async () => {
        const kept = await caches.match(request);
        if (kept) return kept;
        const response = await fetch(request);
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return response;
      })(),
    );
    return;
  }
  // Icons, the manifest, stickers: the network first, the kept copy offline.
  event.respondWith(
    fetch(request).catch(async () => (await caches.match(request)) ?? Response.error()),
  );
});

self.addEventListener('push', (event) => {
  let payload: PushPayload = {};
  try {
    payload = (event.data?.json() ?? {}) as PushPayload;
  } catch {
    // Not ours to read: still say something came.
  }
  event.waitUntil(
    self.registration.showNotification(payload.title || 'Teltlk', {
      body: payload.body ?? '',
      tag: payload.tag,
      icon: './icon-192.png',
      badge: './icon-192.png',
      data: { path: payload.path ?? '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data as { path?: string } | null)?.path ?? '/';
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows[0];
      if (open) {
        open.postMessage({ type: 'open', path });
        await open.focus();
        return;
      }
      await self.clients.openWindow(`./#${path}`);
    })(),
  );
});

export {};
