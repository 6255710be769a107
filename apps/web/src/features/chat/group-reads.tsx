import { useQuery } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import { GROUP_READERS_DETAIL_MAX } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { api } from '../../api/client';
import { Avatar } from '../../ui/avatar';
import { Sheet } from '../../ui/sheet';
import { PageSpinner } from '../../ui/spinner';
import { groupKeys } from '../../api/use-groups';

/**
 * "n read" under an own group message; a tap lists who read it (groups up to
 * GROUP_READERS_DETAIL_MAX members). Counted from members' read seqs by the server, so it
 * is asked again when the conversation moves (`version`).
 */
export function GroupReadState({
  groupId,
  seq,
  version,
}: {
  groupId: string;
  seq: number;
  version: number;
}) {
  const { t } = usePageTexts();
  const [open, setOpen] = useState(false);
  const reads = useQuery({
    queryKey: [...groupKeys.reads(groupId, seq), version],
    queryFn: () => api.call(routes.groups.reads, { params: { id: groupId, seq } }),
    staleTime: 10_000,
  });
  if (!reads.data) return null;
  const { readCount, memberCount, readers } = reads.data;
  return (
    <>
      <button type="button" className="tt-msg-read tt-msg-read-count" onClick={() => setOpen(true)}>
        {t('groups.readCount', { count: readCount })}
      </button>
      <Sheet
        visible={open}
        title={t('groups.readers', { count: readCount, total: memberCount })}
        onClose={() => setOpen(false)}
        className="tt-group-readers"
      >
        {reads.isFetching && !readers ? <PageSpinner /> : null}
        {readers === null ? (
          <p className="tt-section-intro tt-hint">
            {t('groups.readersHidden', { max: GROUP_READERS_DETAIL_MAX })}
          </p>
        ) : readers.length === 0 ? (
          <p className="tt-section-intro tt-hint">{t('groups.readersNone')}</p>
        ) : (
          <ul className="tt-list">
            {readers.map((reader) => (
              <li key={reader.id} className="tt-row">
                <Avatar id={reader.id} name={reader.nickname} url={reader.avatarUrl} size={32} />
                <span className="tt-row-label">{reader.nickname}</span>
              </li>
            ))}
          </ul>
        )}
      </Sheet>
    </>
  );
}
