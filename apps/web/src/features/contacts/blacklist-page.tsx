import type { UserCard } from '@teltlk/protocol';
import { StopOutline } from 'antd-mobile-icons';
import { usePageTexts } from '../../i18n/pages';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { confirmModal } from '../../ui/modal';
import { Page } from '../../ui/page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import { PersonLink } from './person-link';
import { useBlocks, useContactEvents, useSetBlocked } from '../../api/use-contacts';
import { toastModifyFailure } from '../../ui/failure-toast';
import './contacts.css';

function BlockedRow({ user }: { user: UserCard }) {
  const { t } = usePageTexts();
  const setBlocked = useSetBlocked();
  const unblock = async () => {
    const confirmed = await confirmModal(
      t('blocks.unblock'),
      t('blocks.unblockConfirm', { name: user.nickname }),
      t('blocks.unblock'),
    );
    if (!confirmed) return;
    setBlocked.mutate(
      { userId: user.id, block: false },
      {
        onSuccess: () => showToast(t('blocks.unblocked'), { icon: 'success' }),
        onError: (failure) => {
          toastModifyFailure(failure);
        },
      },
    );
  };
  return (
    <li className="tt-request">
      <PersonLink user={user} />
      <Button
        small
        variant="secondary"
        aria-label={t('blocks.unblockNamed', { name: user.nickname })}
        busy={setBlocked.isPending}
        onClick={() => void unblock()}
      >
        {t('blocks.unblock')}
      </Button>
    </li>
  );
}

/** `/pages/contacts/blacklist`: the people the user blocked; their messages and requests stop. */
export function BlacklistPage() {
  const { t } = usePageTexts();
  const blocks = useBlocks();
  useContactEvents();
  return (
    <Page title={t('blocks.title')} flush>
      {blocks.data ? (
        blocks.data.blocked.length > 0 ? (
          <ul className="tt-list tt-section">
            {blocks.data.blocked.map((user) => (
              <BlockedRow key={user.id} user={user} />
            ))}
          </ul>
        ) : (
          <EmptyState
            icon={<StopOutline />}
            title={t('blocks.emptyTitle')}
            text={t('blocks.emptyText')}
          />
        )
      ) : blocks.error ? (
        <QueryError error={blocks.error} onRetry={() => void blocks.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
