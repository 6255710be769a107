import type { Friend } from '@teltlk/protocol';
import { useFriends } from '../api/use-contacts';
import { Avatar } from './avatar';
import { QueryError } from './query-error';
import { PageSpinner } from './spinner';
import './sheet.css';

/** The person's friends, each a button: one tap picks them. `empty` shows when there are none. */
export function FriendPicker({
  onPick,
  empty,
  className = 'tt-list',
}: {
  onPick: (friend: Friend, name: string) => void;
  empty: string;
  className?: string;
}) {
  const friends = useFriends();
  if (friends.isPending) return <PageSpinner />;
  if (friends.isError) {
    return <QueryError error={friends.error} onRetry={() => void friends.refetch()} />;
  }
  const list = friends.data.friends;
  if (list.length === 0) return <p className="tt-forward-empty">{empty}</p>;
  return (
    <ul className={className}>
      {list.map((friend) => {
        const name = friend.remark || friend.user.nickname;
        return (
          <li key={friend.user.id}>
            <button type="button" className="tt-card-pick" onClick={() => onPick(friend, name)}>
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
