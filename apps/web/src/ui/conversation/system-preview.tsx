import type { SystemContent } from '@teltlk/protocol';
import { useTranslation } from 'react-i18next';
import { useUiLocale } from '../use-ui-locale';
import { formatDuration } from './time-labels';
import { noticePeople, systemNotice } from './system-notice';
import { useGroupPeople } from '../../api/use-people';

/** A system notice as the last message of a chat list row, in the reader's language. */
export function SystemPreview({
  content,
  groupId,
  selfId,
}: {
  content: SystemContent;
  groupId: string | null;
  selfId: string;
}) {
  const { t } = useTranslation();
  const locale = useUiLocale();
  const people = useGroupPeople(groupId, noticePeople(content));
  const notice = systemNotice(content, {
    nameOf: (id) => (id === selfId ? t('chat.you') : (people(id)?.name ?? '…')),
    list: (names) => new Intl.ListFormat(locale, { type: 'conjunction' }).format(names),
    duration: (seconds) => formatDuration(seconds, locale),
  });
  return <>{t(notice.key, notice.params)}</>;
}

/** The sender's name before a group message in the chat list ("Ann: hello"). */
export function SenderPrefix({ groupId, senderId }: { groupId: string | null; senderId: string }) {
  const people = useGroupPeople(groupId, [senderId]);
  const name = people(senderId)?.name;
  return name ? (
    <span className="tt-chat-sender">
      <bdi>{name}</bdi>:{' '}
    </span>
  ) : null;
}
