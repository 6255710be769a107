import { groupConversationId } from '@teltlk/protocol';
import {
  AddCircleOutline,
  SearchOutline,
  TeamOutline,
  UserContactOutline,
} from 'antd-mobile-icons';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { paths, withQuery } from '../../app/paths';
import { badgeText } from '../../app/tab-badges';
import { Avatar } from '../../ui/avatar';
import { EmptyState } from '../../ui/empty-state';
import { LinkRow } from '../../ui/list-row';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import {
  groupTitle,
  useGroupEvents,
  useMyGroups,
  usePendingReviewCount,
} from '../../api/use-groups';
import './groups.css';
import '../../ui/count-badge.css';

function ReviewCount({ count }: { count: number }) {
  const { t } = usePageTexts();
  const text = badgeText(count);
  if (!text) return null;
  return (
    <>
      <span className="tt-count-badge" aria-hidden>
        {text}
      </span>
      <span className="tt-visually-hidden">{t('contacts.pending', { count: text })}</span>
    </>
  );
}

/**
 * The caller's groups with the entries to create one, join one by ID and review
 * applications (badged live while the page is open).
 */
export function GroupList() {
  const { t } = usePageTexts();
  useGroupEvents();
  const groups = useMyGroups();
  const pending = usePendingReviewCount();

  return (
    <>
      <ul className="tt-list">
        <li>
          <LinkRow to={paths.groupChat} icon={<AddCircleOutline />} label={t('groups.create')} />
        </li>
        <li>
          <LinkRow to={paths.addGroup} icon={<SearchOutline />} label={t('groups.join')} />
        </li>
        <li>
          <LinkRow
            to={paths.groupApplications}
            icon={<UserContactOutline />}
            label={t('groups.applications')}
            value={pending > 0 ? <ReviewCount count={pending} /> : undefined}
          />
        </li>
      </ul>
      {groups.error ? (
        <QueryError error={groups.error} onRetry={() => void groups.refetch()} />
      ) : !groups.data ? (
        <PageSpinner />
      ) : groups.data.length === 0 ? (
        <EmptyState
          icon={<TeamOutline />}
          title={t('contacts.groupsEmptyTitle')}
          text={t('contacts.groupsEmptyText')}
        />
      ) : (
        <section className="tt-section" aria-label={t('groups.list')}>
          <h2 className="tt-section-title">{t('groups.list')}</h2>
          <ul className="tt-list">
            {groups.data.map((group) => {
              const name = groupTitle(group);
              return (
                <li key={group.id}>
                  <Link
                    className="tt-row tt-group-row"
                    to={withQuery(paths.chat, { conversationId: groupConversationId(group.id) })}
                  >
                    <Avatar id={group.id} name={name} url={group.avatarUrl} size={40} />
                    <span className="tt-row-label">
                      <span className="tt-group-row-name">{name}</span>
                      <span className="tt-row-hint">
                        {t('groups.memberCount', { count: group.memberCount })}
                      </span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </>
  );
}
