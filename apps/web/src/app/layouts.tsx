import { Suspense, useEffect, type ReactNode } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useMe } from '../api/queries';
import { ContactsSync } from '../features/contacts/contacts-sync';
import { ConnectionBanner } from '../features/chat/connection-banner';
import { preloadFeedback } from '../ui/feedback-loader';
import { PageSpinner } from '../ui/spinner';
import { useEngineLifecycle } from './engine';
import { TabBar } from './tab-bar';
import { useTabBadges } from './tab-badges';

/** Commits only with the first page (same Suspense boundary), then fetches Toast and Dialog. */
function PreloadFeedback() {
  useEffect(preloadFeedback, []);
  return null;
}

/**
 * Asks who is signed in as soon as there is a token, so a session that ended elsewhere
 * (expired, revoked) signs out here at once rather than on some later call.
 */
function SessionCheck() {
  useMe();
  return null;
}

/** The messaging engine of the signed-in user: started on sign-in, stopped on sign-out. */
function MessagingEngine() {
  useEngineLifecycle();
  return null;
}

/** The app column: capped at 600 px and centred on wide screens. */
export function AppLayout() {
  return (
    <div className="tt-app">
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
        <PreloadFeedback />
      </Suspense>
      <ScrollRestoration />
      <SessionCheck />
      <MessagingEngine />
    </div>
  );
}

/** The four tab pages share the bottom tab bar; the bar stays while a tab loads. */
export function TabLayout({ children }: { children?: ReactNode }) {
  const home = useTabBadges((state) => state.home);
  const contacts = useTabBadges((state) => state.contacts);
  return (
    <div className="tt-tab-layout">
      <ConnectionBanner />
      <Suspense fallback={<PageSpinner />}>{children ?? <Outlet />}</Suspense>
      <TabBar badges={{ home, contacts }} />
      <ContactsSync />
    </div>
  );
}
