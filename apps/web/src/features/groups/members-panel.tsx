import { ActionSheet } from 'antd-mobile';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate } from 'react-router';
import { routes } from '@teltlk/client';
import {
  GROUP_MUTE_DURATIONS,
  singleConversationId,
  type GroupMember,
  type MyGroup,
} from '@teltlk/protocol';
import { api } from '../../api/client';
import { paths, withQuery } from '../../app/paths';
import { Avatar } from '../../ui/avatar';
import { LoadMore } from '../../ui/load-more';
import { confirmModal } from '../../ui/modal';
import { useUiLocale } from '../../ui/use-ui-locale';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { formatDuration } from '../../ui/conversation/time-labels';
import { useRemarks } from '../../api/use-remarks';
import { memberActions, type MemberAction } from '../../ui/conversation/group-controls';
import { useGroupMembers, useMemberChange } from '../../api/use-groups';
import { memberName } from '../../api/use-people';
import { toastModifyFailure } from '../../ui/failure-toast';
import './groups.css';

/** The searchable, paged member list of the group settings, with per-member actions. */
export function MembersPanel({ group, selfId }: { group: MyGroup; selfId: string }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const navigate = useNavigate();
  const remarks = useRemarks();
  const [query, setQuery] = useState('');
  const members = useGroupMembers(group.id, query.trim());
  const change = useMemberChange(group.id);
  const [chosen, setChosen] = useState<GroupMember | null>(null);
  const [muting, setMuting] = useState<GroupMember | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const list = members.data?.pages.flatMap((page) => page.members) ?? [];

  const run = (task: () => Promise<unknown>) =>
    change.mutate(task, {
      onSuccess: () => showToast(t('common.saved'), { icon: 'success' }),
      onError: toastModifyFailure,
    });

  const act = async (member: GroupMember, action: MemberAction) => {
    const userId = member.user.id;
    const name = memberName(member, remarks);
    switch (action) {
      case 'sendMessage':
        void navigate(
          withQuery(paths.chat, { conversationId: singleConversationId(selfId, userId) }),
        );
        return;
      case 'viewProfile':
        // A friend application from there goes through the group, under its private chat.
        void navigate(withQuery(paths.seeMeans, { userId, groupId: group.id }));
        return;
      case 'makeAdmin':
        return run(() =>
          api.call(routes.groups.setRole, {
            params: { id: group.id, userId },
            body: { role: 'admin' },
          }),
        );
      case 'removeAdmin':
        return run(() =>
          api.call(routes.groups.setRole, {
            params: { id: group.id, userId },
            body: { role: 'member' },
          }),
        );
      case 'mute':
        return setMuting(member);
      case 'unmute':
        return run(() =>
          api.call(routes.groups.mute, { params: { id: group.id, userId }, body: { seconds: 0 } }),
        );
      case 'transfer':
        if (await confirmModal(t('groups.transfer'), t('groups.transferConfirm', { name }))) {
          run(() =>
            api.call(routes.groups.transfer, { params: { id: group.id }, body: { userId } }),
          );
        }
        return;
      case 'remove':
        if (await confirmModal(t('groups.removeMember'), t('groups.removeConfirm', { name }))) {
          run(() => api.call(routes.groups.remove, { params: { id: group.id, userId } }));
        }
        return;
    }
  };

  const labels: Record<MemberAction, string> = {
    sendMessage: t('groups.sendMessage'),
    viewProfile: t('groups.viewProfile'),
    makeAdmin: t('groups.makeAdmin'),
    removeAdmin: t('groups.removeAdmin'),
    mute: t('groups.muteMember'),
    unmute: t('groups.unmuteMember'),
    transfer: t('groups.transfer'),
    remove: t('groups.removeMember'),
  };
  const actionsFor = (member: GroupMember) =>
    memberActions(group, group.me.role, { ...member, userId: member.user.id }, selfId, now).map(
      (action) => ({
        key: action,
        text: labels[action],
        danger: action === 'remove' || action === 'transfer',
        onClick: () => void act(member, action),
      }),
    );

  return (
    <section className="tt-section" aria-label={t('groups.members', { count: group.memberCount })}>
      <h2 className="tt-section-title">{t('groups.members', { count: group.memberCount })}</h2>
      <div className="tt-content tt-group-member-search">
        <TextField
          label={t('groups.searchMembers')}
          hideLabel
          type="search"
          placeholder={t('groups.searchMembers')}
          value={query}
          onChange={setQuery}
        />
      </div>
      {members.error ? (
        <QueryError error={members.error} onRetry={() => void members.refetch()} />
      ) : !members.data ? (
        <PageSpinner />
      ) : list.length === 0 ? (
        <p className="tt-section-intro tt-hint">{t('groups.noMembers')}</p>
      ) : (
        <ul className="tt-list">
          {list.map((member) => {
            const name = memberName(member, remarks);
            const muted = member.mutedUntil !== null && member.mutedUntil > now;
            const self = member.user.id === selfId;
            return (
              <li key={member.user.id}>
                <button
                  type="button"
                  className="tt-row tt-group-member"
                  disabled={self}
                  onClick={() => {
                    setNow(Date.now());
                    setChosen(member);
                  }}
                >
                  <Avatar id={member.user.id} name={name} url={member.user.avatarUrl} size={36} />
                  <span className="tt-row-label">
                    {name}
                    {self ? <span className="tt-row-hint"> ({t('groups.you')})</span> : null}
                  </span>
                  {member.role !== 'member' ? (
                    <span className={`tt-group-role tt-group-role-${member.role}`}>
                      {member.role === 'owner' ? t('groups.owner') : t('groups.admin')}
                    </span>
                  ) : null}
                  {muted ? <span className="tt-group-role">{t('groups.mutedBadge')}</span> : null}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <LoadMore list={members} label={t('groups.loadMore')} className="tt-content" />
      <ActionSheet
        visible={chosen !== null}
        extra={chosen ? t('groups.memberActions', { name: memberName(chosen, remarks) }) : ''}
        cancelText={t('common.cancel')}
        actions={chosen ? actionsFor(chosen) : []}
        onAction={() => setChosen(null)}
        onClose={() => setChosen(null)}
      />
      <ActionSheet
        visible={muting !== null}
        extra={muting ? t('groups.muteFor', { name: memberName(muting, remarks) }) : ''}
        cancelText={t('common.cancel')}
        actions={GROUP_MUTE_DURATIONS.map((seconds) => ({
          key: String(seconds),
          text: formatDuration(seconds, locale),
          onClick: () => {
            const userId = muting?.user.id;
            if (userId)
              run(() =>
                api.call(routes.groups.mute, {
                  params: { id: group.id, userId },
                  body: { seconds },
                }),
              );
          },
        }))}
        onAction={() => setMuting(null)}
        onClose={() => setMuting(null)}
      />
    </section>
  );
}
