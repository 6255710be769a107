import { useInfiniteQuery } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { SecurityActivity } from '@teltlk/protocol';
import { useId } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useSignedIn } from '../../app/guards';
import { countryName } from '../../ui/countries';
import { LoadMore } from '../../ui/load-more';
import { Page } from '../../ui/page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { relativeTime } from '../../ui/time';
import { useUiLocale } from '../../ui/use-ui-locale';
import { useSecurityTexts } from '../../i18n/security';
import { activityActionKey, activityDetail } from './activity-text';
import { useCurrentSessionId, useDeviceName } from './use-device-name';
import './security.css';
import '../../ui/tag.css';

const PAGE_SIZE = 20;

export function useSecurityActivity() {
  return useInfiniteQuery({
    queryKey: queryKeys.securityActivity(),
    queryFn: ({ pageParam }) =>
      api.call(routes.security.activity, {
        query: { cursor: pageParam ?? undefined, limit: PAGE_SIZE },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    enabled: useSignedIn(),
  });
}

function ActivityItem({
  activity,
  current,
  now,
}: {
  activity: SecurityActivity;
  current: boolean;
  now: number;
}) {
  const { t } = usePageTexts();
  const { t: ts } = useSecurityTexts();
  const locale = useUiLocale();
  const deviceName = useDeviceName();
  const nameId = useId();
  const detail = activityDetail(activity, deviceName);
  const meta = [
    deviceName(activity.userAgent),
    activity.country ? countryName(activity.country, locale) : null,
    relativeTime(activity.at, now, locale),
  ].filter((part) => part !== null);
  return (
    <li className="tt-activity-item" aria-labelledby={nameId}>
      <div className="tt-activity-head">
        <span id={nameId}>{ts(activityActionKey(activity))}</span>
        {current ? <span className="tt-tag">{t('security.thisDevice')}</span> : null}
      </div>
      {detail ? (
        <span className="tt-activity-detail" dir="auto">
          {detail}
        </span>
      ) : null}
      <span className="tt-activity-meta">
        <time dateTime={new Date(activity.at).toISOString()}>{meta.join(' · ')}</time>
      </span>
    </li>
  );
}

/**
 * `/pages/user/securityActivity`: sign-ins and sensitive actions on the account, newest
 * first, each with the device and place it came from, a page at a time.
 */
export function SecurityActivityPage() {
  const { t: ts } = useSecurityTexts();
  const list = useSecurityActivity();
  const currentSession = useCurrentSessionId();
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const now = list.dataUpdatedAt || Date.now();
  return (
    <Page title={ts('activity.title')} flush>
      <p className="tt-hint tt-section-intro tt-activity-intro">{ts('activity.intro')}</p>
      {list.error ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isLoading ? (
        <PageSpinner />
      ) : items.length === 0 ? (
        <p className="tt-empty">{ts('activity.empty')}</p>
      ) : (
        <>
          <ul className="tt-list" aria-label={ts('activity.title')}>
            {items.map((activity) => (
              <ActivityItem
                key={activity.id}
                activity={activity}
                current={activity.sessionId !== null && activity.sessionId === currentSession}
                now={now}
              />
            ))}
          </ul>
          <LoadMore list={list} label={ts('activity.more')} />
        </>
      )}
    </Page>
  );
}
