import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { SecurityActivity } from '@teltlk/protocol';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { paths } from '../../app/paths';

// Loaded once a notice is to show: this module, which every signed-in first load names,
// names only the banner, not all the banner uses.
const SecurityNoticeBanner = lazy(() =>
  import('./security-notice-banner').then((module) => ({
    default: module.SecurityNoticeBanner,
  })),
);

/** This session's id: the session list's current entry (cached; it never changes). */
async function currentSessionId(queryClient: QueryClient): Promise<string | null> {
  const list = await queryClient.ensureQueryData({
    queryKey: queryKeys.sessions(),
    queryFn: () => api.call(routes.sessions.list),
  });
  return list.sessions.find((session) => session.current)?.id ?? null;
}

/**
 * Something sensitive done on the account (the latest `security` user event): what it
 * touched is read again (sessions, addresses, the activity list), and when it was done
 * elsewhere, on another device or by a link, a notice says so. The activity page lists it
 * already, so none shows there.
 */
export function SecurityNotices({ latest }: { latest: SecurityActivity }) {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<SecurityActivity | null>(null);
  const onActivity = useLocation().pathname === paths.securityActivity;
  useEffect(() => {
    let superseded = false;
    void currentSessionId(queryClient)
      .catch(() => null)
      .then((current) => {
        if (!superseded && (latest.sessionId === null || latest.sessionId !== current)) {
          setNotice(latest);
        }
      });
    for (const queryKey of [
      queryKeys.sessions(),
      queryKeys.me(),
      queryKeys.stepUp(),
      queryKeys.securityActivity(),
    ]) {
      void queryClient.invalidateQueries({ queryKey });
    }
    return () => {
      superseded = true;
    };
  }, [latest, queryClient]);
  useEffect(() => {
    if (onActivity) setNotice(null);
  }, [onActivity, notice]);
  const dismiss = useCallback(() => setNotice(null), []);
  if (!notice || onActivity) return null;
  return (
    <Suspense fallback={null}>
      <SecurityNoticeBanner key={notice.id} activity={notice} onDismiss={dismiss} />
    </Suspense>
  );
}
