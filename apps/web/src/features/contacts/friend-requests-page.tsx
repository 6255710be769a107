import type { FriendRequest, FriendRequestStatus } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Button } from '../../ui/button';
import { Page } from '../../ui/page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import { PersonLink } from './person-link';
import {
  useAnswerFriendRequest,
  useContactEvents,
  useFriendRequests,
} from '../../api/use-contacts';
import { toastFailure } from '../../ui/failure-toast';
import './contacts.css';

type Direction = 'received' | 'sent';

const statusKeys = {
  pending: 'friends.statusPending',
  agreed: 'friends.statusAgreed',
  rejected: 'friends.statusRejected',
  added: 'friends.statusAdded',
} as const satisfies Record<FriendRequestStatus, string>;

function StatusText({ status }: { status: FriendRequestStatus }) {
  const { t } = usePageTexts();
  return (
    <span className="tt-request-status" data-status={status}>
      {t(statusKeys[status])}
    </span>
  );
}

function ReceivedActions({ request }: { request: FriendRequest }) {
  const { t } = usePageTexts();
  const answer = useAnswerFriendRequest();
  const respond = (accept: boolean) =>
    answer.mutate(
      { id: request.id, accept },
      {
        onSuccess: () =>
          showToast(t(accept ? 'friends.accepted' : 'friends.rejected'), { icon: 'success' }),
        onError: (failure) => {
          toastFailure(failure);
        },
      },
    );
  const name = request.from.nickname;
  const busy = answer.isPending ? (answer.variables?.accept ?? null) : null;
  return (
    <div className="tt-request-actions">
      <Button
        small
        variant="secondary"
        aria-label={t('friends.rejectFrom', { name })}
        busy={busy === false}
        disabled={answer.isPending}
        onClick={() => respond(false)}
      >
        {t('friends.reject')}
      </Button>
      <Button
        small
        aria-label={t('friends.acceptFrom', { name })}
        busy={busy === true}
        disabled={answer.isPending}
        onClick={() => respond(true)}
      >
        {t('friends.accept')}
      </Button>
    </div>
  );
}

function RequestRow({ request, direction }: { request: FriendRequest; direction: Direction }) {
  const person = direction === 'received' ? request.from : request.to;
  return (
    <li className="tt-request">
      <PersonLink user={person} detail={request.greeting || undefined} />
      {direction === 'received' && request.status === 'pending' ? (
        <ReceivedActions request={request} />
      ) : (
        <StatusText status={request.status} />
      )}
    </li>
  );
}

function RequestsPage({ direction }: { direction: Direction }) {
  const { t } = usePageTexts();
  const requests = useFriendRequests();
  useContactEvents();
  const list = requests.data?.[direction];
  const tabs: { key: Direction; to: string }[] = [
    { key: 'received', to: paths.newFriend },
    { key: 'sent', to: paths.seeNewFriend },
  ];
  return (
    <Page title={t('friends.requestsTitle')} flush>
      <nav className="tt-tabs" aria-label={t('friends.requestLists')}>
        {tabs.map((tab) => (
          <Link
            key={tab.key}
            to={tab.to}
            replace
            className="tt-tabs-item"
            aria-current={tab.key === direction ? 'page' : undefined}
          >
            {t(`friends.${tab.key}`)}
          </Link>
        ))}
      </nav>
      {list ? (
        list.length > 0 ? (
          <ul className="tt-list">
            {list.map((request) => (
              <RequestRow key={request.id} request={request} direction={direction} />
            ))}
          </ul>
        ) : (
          <p className="tt-empty">
            {t(direction === 'received' ? 'friends.receivedEmpty' : 'friends.sentEmpty')}
          </p>
        )
      ) : requests.error ? (
        <QueryError error={requests.error} onRetry={() => void requests.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}

/** `/pages/contacts/newFriend`: friend applications received, to accept or reject. */
export function NewFriendPage() {
  return <RequestsPage direction="received" />;
}

/** `/pages/contacts/seeNewFriend`: friend applications sent, with their status. */
export function SentRequestsPage() {
  return <RequestsPage direction="sent" />;
}
