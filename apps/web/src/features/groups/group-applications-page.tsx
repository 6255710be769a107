import { useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { GroupApplication } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { api } from '../../api/client';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { relativeTime } from '../../ui/time';
import { groupKeys, useGroupApplications, useGroupEvents } from '../../api/use-groups';
import { toastFailure } from '../../ui/failure-toast';
import './groups.css';

function StatusText({ status }: { status: GroupApplication['status'] }) {
  const { t } = usePageTexts();
  const text =
    status === 'accepted'
      ? t('groups.accepted')
      : status === 'rejected'
        ? t('groups.rejected')
        : t('groups.pending');
  return <span className="tt-row-value">{text}</span>;
}

function ApplicationRow({
  application,
  review,
  now,
}: {
  application: GroupApplication;
  review: boolean;
  now: number;
}) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'accept' | 'reject' | null>(null);
  const answer = async (accept: boolean) => {
    setBusy(accept ? 'accept' : 'reject');
    try {
      await api.call(accept ? routes.groups.acceptApplication : routes.groups.rejectApplication, {
        params: { id: application.id },
      });
    } catch (error) {
      toastFailure(error);
    } finally {
      setBusy(null);
      // Handled here or by another admin meanwhile: the server's list is the truth.
      void queryClient.invalidateQueries({ queryKey: groupKeys.applications() });
    }
  };
  const person = review ? application.user.nickname : application.group.name;
  return (
    <li className="tt-row tt-group-application">
      <Avatar
        id={review ? application.user.id : application.group.id}
        name={person}
        url={review ? application.user.avatarUrl : application.group.avatarUrl}
        size={40}
      />
      <span className="tt-row-label">
        <span>{person}</span>
        <span className="tt-row-hint">
          {review
            ? t('groups.appliedTo', { name: application.group.name })
            : t('groups.myApplication', { name: application.group.name })}
          {' · '}
          {relativeTime(application.createdAt, now, locale)}
        </span>
        {application.message ? <span className="tt-row-hint">{application.message}</span> : null}
      </span>
      {review && application.status === 'pending' ? (
        <span className="tt-group-application-actions">
          <Button
            small
            variant="secondary"
            busy={busy === 'reject'}
            disabled={busy !== null}
            onClick={() => void answer(false)}
          >
            {t('groups.reject')}
          </Button>
          <Button
            small
            busy={busy === 'accept'}
            disabled={busy !== null}
            onClick={() => void answer(true)}
          >
            {t('groups.accept')}
          </Button>
        </span>
      ) : (
        <StatusText status={application.status} />
      )}
    </li>
  );
}

/** Group applications: those the caller reviews (live), then the caller's own. */
export function GroupApplicationsPage() {
  const { t } = usePageTexts();
  useGroupEvents();
  const applications = useGroupApplications();
  const [now] = useState(() => Date.now());
  const data = applications.data;
  return (
    <Page title={t('groups.applications')} flush>
      {applications.error ? (
        <QueryError error={applications.error} onRetry={() => void applications.refetch()} />
      ) : !data ? (
        <PageSpinner />
      ) : data.toReview.length === 0 && data.mine.length === 0 ? (
        <EmptyState title={t('groups.noApplications')} text={t('contacts.groupsEmptyText')} />
      ) : (
        <>
          {data.toReview.length > 0 ? (
            <section className="tt-section" aria-label={t('groups.toReview')}>
              <h2 className="tt-section-title">{t('groups.toReview')}</h2>
              <ul className="tt-list">
                {data.toReview.map((application) => (
                  <ApplicationRow key={application.id} application={application} review now={now} />
                ))}
              </ul>
            </section>
          ) : null}
          {data.mine.length > 0 ? (
            <section className="tt-section" aria-label={t('groups.mine')}>
              <h2 className="tt-section-title">{t('groups.mine')}</h2>
              <ul className="tt-list">
                {data.mine.map((application) => (
                  <ApplicationRow
                    key={application.id}
                    application={application}
                    review={false}
                    now={now}
                  />
                ))}
              </ul>
            </section>
          ) : null}
        </>
      )}
    </Page>
  );
}
