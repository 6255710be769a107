import type { Friend } from '@teltlk/protocol';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../ui/avatar';

/** Friends with checkboxes; `locked` ones (already members) show checked and disabled. */
export function FriendPicker({
  friends,
  chosen,
  locked,
  onToggle,
  legend,
}: {
  friends: readonly Friend[];
  chosen: readonly string[];
  locked?: ReadonlySet<string>;
  onToggle: (userId: string, checked: boolean) => void;
  legend: string;
}) {
  const { t } = useTranslation();
  if (friends.length === 0)
    return <p className="tt-section-intro tt-hint">{t('groups.noFriends')}</p>;
  return (
    <fieldset className="tt-group-pick">
      <legend className="tt-section-title">{legend}</legend>
      <ul className="tt-list">
        {friends.map((friend) => {
          const name = friend.remark || friend.user.nickname;
          const isLocked = locked?.has(friend.user.id) ?? false;
          return (
            <li key={friend.user.id}>
              <label className="tt-row tt-forward-row">
                <input
                  type="checkbox"
                  checked={isLocked || chosen.includes(friend.user.id)}
                  disabled={isLocked}
                  onChange={(event) => onToggle(friend.user.id, event.target.checked)}
                />
                <Avatar name={name} url={friend.user.avatarUrl} size={36} />
                <span className="tt-row-label">{name}</span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
