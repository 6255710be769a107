import type { SecurityActivity } from '@teltlk/protocol';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useSettings } from '../api/queries';
import { Outlet } from 'react-router';
import { ContactsSync } from '../features/contacts/contacts-sync';
import { CallLayer } from '../features/calls/call-layer';
import { ConnectionBanner } from '../features/chat/connection-banner';
import { useMiningNotices } from '../features/discover/mining-notices';
import { PageSpinner } from '../ui/spinner';
import { useEngine, useEngineLifecycle, useSelfId } from './engine';
import { useShortcuts } from './shortcuts';
import { TabBar } from './tab-bar';

// The rail of a desktop, from this chunk (wide-frame.tsx): with the tab bar, not apart.
export { NavRail } from './tab-bar';
import { useTabBadges } from './tab-badges';
import { useUserEvents } from './user-events';
import { useDesktop } from './screen';

/*
 * What only a signed-in person needs, in a module of its own: the sign-in page loads
 * without the messaging engine, its local database or the tab pages' data hooks.
 */

const SecurityNotices = lazy(() =>
  import('../features/security/security-notices').then((module) => ({
    default: module.SecurityNotices,
  })),
);

/** The latest sensitive action on the account, as its user event tells it; null till one. */
function useLatestSecurityEvent(): SecurityActivity | null {
  const [latest, setLatest] = useState<SecurityActivity | null>(null);
  useUserEvents((event) => {
    if (event.data.type === 'security') setLatest(event.data.activity);
  });
  return latest;
}

/**
 * The messaging engine of the signed-in user, started on sign-in. Through the `me` query
 * it also asks who is signed in as soon as there is a token, so a session that ended
 * elsewhere (expired, revoked) signs out here at once rather than on some later call.
 * Sensitive actions done elsewhere show as a notice (its module loaded with the first).
 */
export function SessionServices() {
  useEngineLifecycle();
  useMiningNotices();
  useMessageAlerts();
  useShortcuts();
  const latest = useLatestSecurityEvent();
  return (
    <>
      <CallLayer />
      {latest ? (
        <Suspense fallback={null}>
          <SecurityNotices latest={latest} />
        </Suspense>
      ) : null}
    </>
  );
}

/** This device's push subscription is renewed this long after the socket connects. */
const PUSH_SYNC_DELAY_MS = 10_000;

/**
 * New messages while the app is open: their alerts (module loaded with the first one);
 * and this device's Web Push subscription kept in step with the notifications switch,
 * once the engine is connected (the first screen never waits for it).
 */
function useMessageAlerts(): void {
  const engine = useEngine();
  const selfId = useSelfId();
  const settings = useSettings().data;
  const latest = useRef({ settings, selfId });
  latest.current = { settings, selfId };
  useEffect(() => {
    if (!engine) return;
    return engine.on('message', (message) => {
      const { settings: now, selfId: self } = latest.current;
      if (!now || !self) return;
      void import('./message-alerts').then(({ alertMessage }) =>
        alertMessage(engine, message, now, self),
      );
    });
  }, [engine]);
  const notifications = settings?.notifications;
  useEffect(() => {
    if (!engine || notifications === undefined) return;
    let stopped = false;
    const sync = () => {
      if (stopped) return;
      void import('../api/push')
        .then(({ syncPush }) => syncPush(notifications, { background: true }))
        .catch(() => undefined);
    };
    // Housekeeping: well after the first screen has what it needs.
    let timer: number | undefined;
    const later = () => {
      timer = window.setTimeout(sync, PUSH_SYNC_DELAY_MS);
    };
    let off = () => {};
    const { status } = engine.getSnapshot();
    if (status === 'syncing' || status === 'ready') later();
    else {
      off = engine.on('connected', () => {
        off();
        later();
      });
    }
    return () => {
      stopped = true;
      off();
      window.clearTimeout(timer);
    };
  }, [engine, notifications]);
}

/**
 * The four tab pages share the bottom tab bar; the bar stays while a tab loads. A desktop
 * has the navigation rail instead (wide-frame.tsx), on every page.
 */
export function TabLayout({ children }: { children?: ReactNode }) {
  const home = useTabBadges((state) => state.home);
  const contacts = useTabBadges((state) => state.contacts);
  const desktop = useDesktop();
  return (
    <div className={desktop ? 'tt-tab-layout' : 'tt-tab-layout tt-tab-layout-bar'}>
      <ConnectionBanner />
      <Suspense fallback={<PageSpinner />}>{children ?? <Outlet />}</Suspense>
      {desktop ? null : <TabBar badges={{ home, contacts }} />}
      <ContactsSync />
    </div>
  );
}
