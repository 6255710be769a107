import { useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import {
  GROUP_MESSAGE_KINDS,
  groupConversationId,
  type GroupMessageKind,
  type MyGroup,
  type UpdateGroupBody,
} from '@teltlk/protocol';
import { UserAddOutline } from 'antd-mobile-icons';
import { useId, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { useSelfId } from '../../app/engine';
import { appLink, paths, withQuery } from '../../app/paths';
import { badgeText } from '../../app/tab-badges';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { ChoiceList } from '../../ui/choice-list';
import { copyText } from '../../ui/clipboard';
import { EmptyState } from '../../ui/empty-state';
import { ImageFileInput } from '../../ui/image-file-input';
import { ButtonRow, InfoRow, LinkRow } from '../../ui/list-row';
import { confirmModal } from '../../ui/modal';
import { Page } from '../../ui/page';
import { QueryError } from '../../ui/query-error';
import { Sheet } from '../../ui/sheet';
import { qrImage } from '../../ui/qr';
import { PageSpinner } from '../../ui/spinner';
import { SwitchRow } from '../../ui/switch-row';
import { showToast } from '../../ui/toast';
import {
  ClearHistoryRow,
  SearchHistoryRow,
  ConversationRows,
  Section,
} from '../../ui/conversation/conversation-settings';
import { useFriends } from '../../api/use-contacts';
import { FriendPicker } from './friend-picker';
import { settingControls } from '../../ui/conversation/group-controls';
import { MembersPanel } from './members-panel';
import {
  groupKeys,
  groupTitle,
  readGroupId,
  useGroup,
  useGroupEvents,
  useMemberChange,
  usePendingReviewCount,
  useUpdateGroup,
  useUploadGroupAvatar,
} from '../../api/use-groups';
import { toastModifyFailure } from '../../ui/failure-toast';
import './groups.css';
import '../../ui/sheet.css';
import '../../ui/profile-card.css';
import '../../ui/count-badge.css';

/** The link that opens the join page of a group, for sharing and for the QR code. */
/** The switch of each message kind members may send. */
const KIND_SWITCHES = {
  text: 'groups.textMessages',
  image: 'groups.imageMessages',
  voice: 'groups.voiceMessages',
  video: 'groups.videoMessages',
  file: 'groups.fileMessages',
  location: 'groups.locationMessages',
  card: 'groups.cardMessages',
  face: 'groups.faceMessages',
  merged: 'groups.mergedMessages',
} as const satisfies Record<GroupMessageKind, string>;

export function joinLink(groupNo: string, origin = globalThis.location.origin): string {
  return appLink(paths.addGroup, { no: groupNo }, origin);
}

/** `/pages/home/groupSetting?groupId=…`: everything about a group, by the caller's role. */
export function GroupSettingPage() {
  const { t } = usePageTexts();
  const [search] = useSearchParams();
  const groupId = readGroupId(search);
  const selfId = useSelfId();
  const group = useGroup(groupId);
  useGroupEvents();
  if (!groupId) {
    return (
      <Page title={t('groups.settings')}>
        <EmptyState title={t('chat.notFound')} text={t('notFound.text')} />
      </Page>
    );
  }
  if (group.data && selfId) return <GroupSettings group={group.data} selfId={selfId} />;
  return (
    <Page title={t('groups.settings')}>
      {group.error ? (
        <QueryError error={group.error} onRetry={() => void group.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}

function GroupSettings({ group, selfId }: { group: MyGroup; selfId: string }) {
  const { t } = usePageTexts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const controls = settingControls(group.me.role);
  const conversationId = groupConversationId(group.id);
  const [pendingGroup, setPendingGroup] = useState<UpdateGroupBody>({});
  const [sharing, setSharing] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const updateGroup = useUpdateGroup(group.id);
  const reviewCount = usePendingReviewCount();
  const title = groupTitle(group);
  const field = (name: 'name' | 'notice' | 'nickname' | 'remark') =>
    withQuery(paths.groupName, { groupId: group.id, field: name });

  const update = (patch: UpdateGroupBody) => {
    setPendingGroup((current) => ({ ...current, ...patch }));
    updateGroup.mutate(patch, {
      onError: toastModifyFailure,
      onSettled: () => setPendingGroup({}),
    });
  };

  const leave = async (dismiss: boolean) => {
    const confirmed = dismiss
      ? await confirmModal(t('groups.dismiss'), t('groups.dismissConfirm'))
      : await confirmModal(t('groups.quit'), t('groups.quitConfirm'));
    if (!confirmed || leaving) return;
    setLeaving(true);
    try {
      await api.call(dismiss ? routes.groups.dismiss : routes.groups.quit, {
        params: { id: group.id },
      });
      queryClient.removeQueries({ queryKey: groupKeys.group(group.id) });
      void queryClient.invalidateQueries({ queryKey: groupKeys.list() });
      void navigate(paths.home, { replace: true });
    } catch (error) {
      toastModifyFailure(error);
    } finally {
      setLeaving(false);
    }
  };

  const copy = (text: string, done: string) =>
    void copyText(text).then((copied) =>
      showToast(copied ? done : t('chat.copyFailed'), { icon: copied ? 'success' : 'fail' }),
    );

  const allowedKinds = pendingGroup.allowedKinds ?? group.allowedKinds;
  /** Turns one message kind on or off, keeping the others as they are. */
  const allowKind = (kind: GroupMessageKind, allowed: boolean) =>
    update({
      allowedKinds: GROUP_MESSAGE_KINDS.filter((each) =>
        each === kind ? allowed : allowedKinds.includes(each),
      ),
    });

  return (
    <Page title={t('groups.settings')} flush>
      <div className="tt-profile-card">
        {controls.setAvatar ? (
          <GroupAvatarInput group={group} title={title} />
        ) : (
          <Avatar id={group.id} name={title} url={group.avatarUrl} size={56} />
        )}
        <span className="tt-row-label">
          <h2>{title}</h2>
          <p>
            {t('groups.groupNo')}: {group.groupNo} ·{' '}
            {t('groups.memberCount', { count: group.memberCount })}
          </p>
        </span>
      </div>
      <MembersPanel group={group} selfId={selfId} />
      {controls.invite ? (
        <ul className="tt-list">
          <li>
            <ButtonRow
              icon={<UserAddOutline />}
              label={t('groups.invite')}
              onClick={() => setInviting(true)}
            />
          </li>
        </ul>
      ) : null}
      <Section>
        <ul className="tt-list">
          <li>
            {controls.rename ? (
              <LinkRow to={field('name')} label={t('groups.name')} value={group.name} />
            ) : (
              <InfoRow label={t('groups.name')} value={group.name} />
            )}
          </li>
          <li>
            {controls.editNotice ? (
              <LinkRow
                to={field('notice')}
                label={t('groups.notice')}
                value={group.notice ? undefined : t('groups.noticeEmpty')}
              />
            ) : (
              <InfoRow
                label={t('groups.notice')}
                value={group.notice ? undefined : t('groups.noticeEmpty')}
              />
            )}
            {group.notice ? <p className="tt-group-notice-text">{group.notice}</p> : null}
          </li>
          <li>
            <ButtonRow
              label={t('groups.qrCode')}
              value={group.groupNo}
              onClick={() => setSharing(true)}
            />
          </li>
          <li>
            <LinkRow
              to={field('remark')}
              label={t('groups.remark')}
              value={group.me.remark ?? t('common.notSet')}
            />
          </li>
          <li>
            <LinkRow
              to={field('nickname')}
              label={t('groups.nickname')}
              value={group.me.nickname ?? t('common.notSet')}
            />
          </li>
          {controls.reviewApplications ? (
            <li>
              <LinkRow
                to={paths.groupApplications}
                label={t('groups.applications')}
                value={
                  reviewCount > 0 ? (
                    <span className="tt-count-badge">{badgeText(reviewCount)}</span>
                  ) : undefined
                }
              />
            </li>
          ) : null}
        </ul>
      </Section>
      <Section>
        <ul className="tt-list">
          <ConversationRows conversationId={conversationId} />
          <SearchHistoryRow conversationId={conversationId} />
          <ClearHistoryRow conversationId={conversationId} />
        </ul>
      </Section>
      {controls.manage ? (
        <Section title={t('groups.manage')}>
          <ChoiceList
            legend={t('groups.verification')}
            name="verification"
            choices={[
              { value: 'open', primary: t('groups.verificationOpen') },
              { value: 'approval', primary: t('groups.verificationApproval') },
              { value: 'invite', primary: t('groups.verificationInvite') },
            ]}
            value={pendingGroup.verification ?? group.verification}
            onChange={(value) => {
              if (value === 'open' || value === 'approval' || value === 'invite') {
                update({ verification: value });
              }
            }}
          />
          <ul className="tt-list">
            <li>
              <SwitchRow
                label={t('groups.privateChat')}
                hint={t('groups.privateChatHint')}
                checked={pendingGroup.privateChat ?? group.privateChat}
                onChange={(privateChat) => update({ privateChat })}
              />
            </li>
            {GROUP_MESSAGE_KINDS.map((kind) => (
              <li key={kind}>
                <SwitchRow
                  label={t(KIND_SWITCHES[kind])}
                  checked={allowedKinds.includes(kind)}
                  onChange={(allowed) => allowKind(kind, allowed)}
                />
              </li>
            ))}
            <li>
              <SwitchRow
                label={t('groups.muteAll')}
                hint={t('groups.muteAllHint')}
                checked={pendingGroup.allMuted ?? group.allMuted}
                onChange={(allMuted) => update({ allMuted })}
              />
            </li>
          </ul>
        </Section>
      ) : null}
      <div className="tt-content tt-group-leave">
        {controls.quit ? (
          <Button variant="danger" block busy={leaving} onClick={() => void leave(false)}>
            {t('groups.quit')}
          </Button>
        ) : null}
        {controls.dismiss ? (
          <Button variant="danger" block busy={leaving} onClick={() => void leave(true)}>
            {t('groups.dismiss')}
          </Button>
        ) : null}
      </div>
      <SharePopup visible={sharing} group={group} onClose={() => setSharing(false)} onCopy={copy} />
      <InvitePopup visible={inviting} group={group} onClose={() => setInviting(false)} />
    </Page>
  );
}

/** The group avatar, which admins change by picking an image (the server squares it). */
function GroupAvatarInput({ group, title }: { group: MyGroup; title: string }) {
  const { t } = usePageTexts();
  const inputId = useId();
  const upload = useUploadGroupAvatar(group.id);
  return (
    <label htmlFor={inputId} className="tt-avatar-picker">
      <Avatar id={group.id} name={title} url={group.avatarUrl} size={56} />
      <ImageFileInput
        id={inputId}
        label={t('groups.changeAvatar')}
        disabled={upload.isPending}
        onPick={(file) =>
          upload.mutate(file, {
            onSuccess: () => showToast(t('groups.avatarUpdated'), { icon: 'success' }),
            onError: toastModifyFailure,
          })
        }
      />
    </label>
  );
}

/**
 * The group ID, its join link and the link's QR code: scanning it or opening the link
 * leads to the add-group page with the ID filled in.
 */
function SharePopup({
  visible,
  group,
  onClose,
  onCopy,
}: {
  visible: boolean;
  group: MyGroup;
  onClose: () => void;
  onCopy: (text: string, done: string) => void;
}) {
  const { t } = usePageTexts();
  const link = joinLink(group.groupNo);
  return (
    <Sheet
      visible={visible}
      title={t('groups.qrTitle', { name: groupTitle(group) })}
      onClose={onClose}
      className="tt-group-share"
    >
      <img
        className="tt-group-share-qr"
        src={qrImage(link)}
        alt={t('groups.qrAlt', { name: groupTitle(group) })}
        width={192}
        height={192}
      />
      <p className="tt-group-share-label">{t('groups.groupNo')}</p>
      <p className="tt-group-share-no">{group.groupNo}</p>
      <p className="tt-hint">{t('groups.qrText')}</p>
      <p className="tt-group-share-link">{link}</p>
      <div className="tt-group-share-actions">
        <Button block onClick={() => onCopy(link, t('groups.linkCopied'))}>
          {t('groups.copyLink')}
        </Button>
        <Button
          block
          variant="secondary"
          onClick={() => onCopy(group.groupNo, t('groups.noCopied'))}
        >
          {t('groups.copyNo')}
        </Button>
      </div>
    </Sheet>
  );
}

function InvitePopup({
  visible,
  group,
  onClose,
}: {
  visible: boolean;
  group: MyGroup;
  onClose: () => void;
}) {
  const { t } = usePageTexts();
  const friends = useFriends();
  const change = useMemberChange(group.id);
  const [chosen, setChosen] = useState<string[]>([]);
  const send = () =>
    change.mutate(
      () =>
        api
          .call(routes.groups.invite, { params: { id: group.id }, body: { userIds: chosen } })
          .then((result) => result.added),
      {
        onSuccess: (added) => {
          showToast(
            typeof added === 'number' && added > 0
              ? t('groups.invited', { count: added })
              : t('groups.inviteNone'),
          );
          onClose();
        },
        onError: toastModifyFailure,
      },
    );
  return (
    <Sheet
      visible={visible}
      title={t('groups.invite')}
      onClose={onClose}
      action={{
        label: t('groups.inviteSubmit', { count: chosen.length }),
        onClick: send,
        disabled: chosen.length === 0,
        busy: change.isPending,
      }}
      afterClose={() => setChosen([])}
      className="tt-forward-inner"
      bodyClassName="tt-forward"
    >
      {friends.data ? (
        <FriendPicker
          legend={t('groups.pickFriends')}
          friends={friends.data.friends}
          chosen={chosen}
          onToggle={(userId, checked) =>
            setChosen((current) =>
              checked ? [...current, userId] : current.filter((id) => id !== userId),
            )
          }
        />
      ) : (
        <PageSpinner />
      )}
    </Sheet>
  );
}
