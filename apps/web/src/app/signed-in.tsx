import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { ContactsSync } from '../features/contacts/contacts-sync';
import { ConnectionBanner } from '../features/chat/connection-banner';
import { useMiningNotices } from '../features/discover/mining-notices';
import { PageSpinner } from '../ui/spinner';
import { useEngineLifecycle } from './engine';
import { TabBar } from './tab-bar';
import { useTabBadges } from './tab-badges';

/*
 * What only a signed-in person needs, in a module of its own: the sign-in page loads
 * without the messaging engine, its local database or the tab pages' data hooks.
 */

/**
 * The messaging engine of the signed-in user, started on sign-in. Through the `me` query
 * it also asks who is signed in as soon as there is a token, so a session that ended
 * elsewhere (expired, revoked) signs out here at once rather than on some later call.
 */
export function SessionServices() {
  useEngineLifecycle();
  useMiningNotices();
  return null;
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
