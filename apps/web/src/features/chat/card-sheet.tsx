import type { CardContent } from '@teltlk/protocol';
import { useTranslation } from 'react-i18next';
import { useFriends } from '../../api/use-contacts';
import { Avatar } from '../../ui/avatar';
import { QueryError } from '../../ui/query-error';
import { Sheet } from '../../ui/sheet';
import { PageSpinner } from '../../ui/spinner';

interface CardSheetProps {
  visible: boolean;
  onClose: () => void;
  onSend: (card: CardContent) => void;
}

/** Shares a contact's card: one tap on a friend sends theirs. */
export function CardSheet({ visible, onClose, onSend }: CardSheetProps) {
  const { t } = useTranslation();
  return (
    <Sheet
      visible={visible}
      title={t('card.title')}
      onClose={onClose}
      className="tt-forward-inner"
      bodyClassName="tt-forward"
    >
      <FriendCards
        onPick={(card) => {
          onSend(card);
          onClose();
        }}
      />
    </Sheet>
  );
}

function FriendCards({ onPick }: { onPick: (card: CardContent) => void }) {
  const { t } = useTranslation();
  const friends = useFriends();
  if (friends.isPending) return <PageSpinner />;
  if (friends.isError)
    return <QueryError error={friends.error} onRetry={() => void friends.refetch()} />;
  const list = friends.data.friends;
  if (list.length === 0) return <p className="tt-forward-empty">{t('card.empty')}</p>;
  return (
    <ul className="tt-list tt-forward-list">
      {list.map((friend) => {
        const name = friend.remark || friend.user.nickname;
        return (
          <li key={friend.user.id}>
            <button
              type="button"
              className="tt-card-pick"
              onClick={() => onPick({ kind: 'card', user: friend.user })}
            >
              <Avatar id={friend.user.id} name={name} url={friend.user.avatarUrl} size={40} />
              <span className="tt-card-pick-name" dir="auto">
                {name}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
