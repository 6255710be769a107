import { useId } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Avatar } from '../../ui/avatar';
import { useRemarks } from '../../api/use-remarks';
import { memberName } from '../../api/use-people';
import type { Mentionable } from './mentions';
import { useGroupMembers } from '../../api/use-groups';

/** Rows the picker shows at most; typing more letters narrows the search. */
const SHOWN_MAX = 8;

/**
 * The list that opens when "@" is typed in a group: members matching what follows the
 * "@" (searched on the server, so it works in any group size) and @all for admins.
 */
export function MentionPicker({
  groupId,
  selfId,
  query,
  allLabel,
  onPick,
}: {
  groupId: string;
  selfId: string;
  query: string;
  /** Set when the caller may mention everyone. */
  allLabel: string | null;
  onPick: (person: Mentionable | 'all') => void;
}) {
  const { t } = usePageTexts();
  const listId = useId();
  const remarks = useRemarks();
  const members = useGroupMembers(groupId, query.trim());
  const people =
    members.data?.pages
      .flatMap((page) => page.members)
      .filter((member) => member.user.id !== selfId)
      .slice(0, SHOWN_MAX) ?? [];
  const showAll =
    allLabel !== null && (!query || allLabel.toLocaleLowerCase().includes(query.toLowerCase()));
  return (
    <div className="tt-mention-picker">
      <p id={listId} className="tt-mention-title">
        {t('groups.mentionPick')}
      </p>
      <ul aria-labelledby={listId}>
        {showAll && allLabel ? (
          <li>
            <button type="button" className="tt-mention-option" onClick={() => onPick('all')}>
              <span className="tt-mention-at" aria-hidden>
                @
              </span>
              {allLabel}
            </button>
          </li>
        ) : null}
        {people.map((member) => {
          const name = memberName(member, remarks);
          return (
            <li key={member.user.id}>
              <button
                type="button"
                className="tt-mention-option"
                onClick={() => onPick({ id: member.user.id, name })}
              >
                <Avatar id={member.user.id} name={name} url={member.user.avatarUrl} size={28} />
                {name}
              </button>
            </li>
          );
        })}
        {members.data && people.length === 0 && !showAll ? (
          <li className="tt-hint">{t('groups.mentionNone')}</li>
        ) : null}
      </ul>
    </div>
  );
}
