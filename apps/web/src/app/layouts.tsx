import { Suspense, useEffect, type ReactNode } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useMe } from '../api/queries';
import { preloadFeedback } from '../ui/feedback-loader';
import { PageSpinner } from '../ui/spinner';
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
    </div>
  );
}

/** The four tab pages share the bottom tab bar; the bar stays while a tab loads. */
export function TabLayout({ children }: { children?: ReactNode }) {
  const home = useTabBadges((state) => state.home);
  const contacts = useTabBadges((state) => state.contacts);
  return (
    <div className="tt-tab-layout">
      <Suspense fallback={<PageSpinner />}>{children ?? <Outlet />}</Suspense>
      <TabBar badges={{ home, contacts }} />
    </div>
  );
}
