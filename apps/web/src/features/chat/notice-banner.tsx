import type { MyGroup } from '@teltlk/protocol';
import { CloseOutline, SoundOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';

const SEEN_PREFIX = 'teltlk.groupNoticeSeen.';

function seenAt(groupId: string): number {
  try {
    return Number(localStorage.getItem(SEEN_PREFIX + groupId) ?? 0);
  } catch {
    return 0;
  }
}

/**
 * The group notice, shown on entering the chat until closed; a newer notice shows again.
 * Closing is remembered on this device per group.
 */
export function GroupNoticeBanner({ group }: { group: MyGroup }) {
  const { t } = usePageTexts();
  const [closedAt, setClosedAt] = useState(() => seenAt(group.id));
  if (!group.notice || group.noticeAt === null || group.noticeAt <= closedAt) return null;
  const noticeAt = group.noticeAt;
  const close = () => {
    try {
      localStorage.setItem(SEEN_PREFIX + group.id, String(noticeAt));
    } catch {
      // Closed for this visit only.
    }
    setClosedAt(noticeAt);
  };
  return (
    <aside className="tt-group-notice" aria-label={t('groups.notice')}>
      <SoundOutline aria-hidden />
      <p>{t('groups.noticeBanner', { text: group.notice })}</p>
      <button
        type="button"
        className="tt-icon-button"
        aria-label={t('groups.noticeDismiss')}
        onClick={close}
      >
        <CloseOutline aria-hidden />
      </button>
    </aside>
  );
}
