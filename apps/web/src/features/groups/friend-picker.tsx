import type { Friend } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { CheckList } from '../../ui/check-list';
import './groups.css';

/** Friends with checkboxes, as one group named by `legend`. */
export function FriendPicker({
  friends,
  chosen,
  onToggle,
  legend,
}: {
  friends: readonly Friend[];
  chosen: readonly string[];
  onToggle: (userId: string, checked: boolean) => void;
  legend: string;
}) {
  const { t } = usePageTexts();
  if (friends.length === 0)
    return <p className="tt-section-intro tt-hint">{t('groups.noFriends')}</p>;
  return (
    <fieldset className="tt-group-pick">
      <legend className="tt-section-title">{legend}</legend>
      <CheckList
        items={friends.map((friend) => ({
          id: friend.user.id,
          name: friend.remark || friend.user.nickname,
          avatarUrl: friend.user.avatarUrl,
        }))}
        chosen={chosen}
        onToggle={onToggle}
      />
    </fieldset>
  );
}
