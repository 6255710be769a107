import type { ConversationView } from '@teltlk/im-sdk';
import { BellMuteOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import type { RowSwipe } from './row-swipe';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths, withQuery } from '../../app/paths';
import { badgeText } from '../../app/tab-badges';
import { Avatar } from '../../ui/avatar';
import { useUiLocale } from '../../ui/use-ui-locale';
import { callRecordPreview } from '../../ui/conversation/call-record';
import { conversationName, partLine } from '../../ui/conversation/messages';
import { SenderPrefix, SystemPreview } from '../../ui/conversation/system-preview';
import { useGroupRemarks } from '../../api/use-groups';
import { formatDuration, listTime } from '../../ui/conversation/time-labels';
import { useLongPress } from '../../ui/use-long-press';
import { activityTime, hasUnreadMention, previewOf } from '../../ui/conversation/chat-list';
import './home.css';

export type RowAction = 'pin' | 'mute' | 'delete';

/** How a row is marked as open beside the list: its chat, or a page of it (`aria-current`). */
export type OpenMark = 'page' | 'true';

interface ConversationRowProps {
  conversation: ConversationView;
  selfId: string;
  now: number;
  onAction: (conversation: ConversationView, action: RowAction) => void;
  /** Opens the same actions as a sheet (long press, right click, menu key). */
  onMenu: (conversation: ConversationView) => void;
  /** The swipe actions' wrapper, once loaded (`useRowSwipe`); rows show without it first. */
  Swipe: typeof RowSwipe | null;
  remarks: ReadonlyMap<string, string | null>;
  /** Marks the conversation open beside the list (wide screens). */
  open?: OpenMark;
}

/** The actions of a row, in the order both the swipe and the sheet show them. */
export function rowActions(
  conversation: ConversationView,
  t: (key: 'home.pin' | 'home.unpin' | 'home.mute' | 'home.unmute' | 'home.delete') => string,
): { key: RowAction; text: string; color: string }[] {
  return [
    { key: 'pin', text: conversation.pinned ? t('home.unpin') : t('home.pin'), color: 'primary' },
    {
      key: 'mute',
      text: conversation.muted ? t('home.unmute') : t('home.mute'),
      color: 'warning',
    },
    { key: 'delete', text: t('home.delete'), color: 'danger' },
  ];
}

function PreviewText({
  conversation,
  selfId,
  name,
}: {
  conversation: ConversationView;
  selfId: string;
  name: string;
}) {
  const { t } = useTranslation();
  const locale = useUiLocale();
  const preview = previewOf(conversation, selfId);
  switch (preview.kind) {
    case 'draft':
      return (
        <>
          <span className="tt-chat-draft">{t('home.draft')}</span> <bdi>{preview.text}</bdi>
        </>
      );
    case 'text':
      return (
        <>
          {preview.senderId ? (
            <SenderPrefix groupId={conversation.group?.id ?? null} senderId={preview.senderId} />
          ) : null}
          {preview.forwarded ? `${t('home.forwarded')} ` : null}
          <bdi>{preview.text}</bdi>
        </>
      );
    case 'location':
    case 'card':
    case 'image':
    case 'file':
    case 'voice':
    case 'video':
    case 'face':
    case 'merged':
    case 'transfer':
    case 'envelope':
    case 'nft':
      return (
        <>
          {preview.senderId ? (
            <SenderPrefix groupId={conversation.group?.id ?? null} senderId={preview.senderId} />
          ) : null}
          {preview.forwarded ? `${t('home.forwarded')} ` : null}
          {partLine({ kind: preview.kind, text: preview.name }, t)}
        </>
      );
    case 'system':
      return (
        <SystemPreview
          content={preview.content}
          groupId={conversation.group?.id ?? null}
          selfId={selfId}
        />
      );
    case 'call':
      return <>{callRecordPreview(preview.call, t)}</>;
    case 'revoked':
      return <>{preview.self ? t('chat.revokedSelf') : t('chat.revokedOther', { name })}</>;
    case 'burn':
      return (
        <>
          {preview.seconds > 0
            ? t('chat.burnOn', { duration: formatDuration(preview.seconds, locale) })
            : t('chat.burnOff')}
        </>
      );
    case 'empty':
      return null;
  }
}

/** One chat of the list: swipe for pin, mute and delete; long press or right click too. */
export function ConversationRow({
  conversation,
  selfId,
  now,
  onAction,
  onMenu,
  remarks,
  Swipe,
  open,
}: ConversationRowProps) {
  const { t } = useTranslation();
  const locale = useUiLocale();
  const longPress = useLongPress(() => onMenu(conversation));
  const groupRemarks = useGroupRemarks();
  const name = conversationName(conversation, remarks, groupRemarks) ?? t('chat.title');
  const mentioned = hasUnreadMention(conversation);
  const unread = badgeText(conversation.unread);
  const time = conversation.lastMessage || conversation.updatedAt ? activityTime(conversation) : 0;

  const actions = rowActions(conversation, t);

  let badge: ReactNode = null;
  if (unread && conversation.muted) badge = <span className="tt-chat-dot" aria-hidden />;
  else if (unread) {
    badge = (
      <span className="tt-chat-unread" aria-hidden>
        {unread}
      </span>
    );
  }

  const row = (
    <Link
      className="tt-chat-row"
      to={withQuery(paths.chat, { conversationId: conversation.id })}
      aria-current={open}
      {...longPress}
    >
      <span className="tt-chat-avatar">
        <Avatar
          id={conversation.peer?.id ?? conversation.group?.id ?? conversation.id}
          name={name}
          url={conversation.peer?.avatarUrl ?? conversation.group?.avatarUrl}
          size={48}
        />
        {badge}
      </span>
      <span className="tt-chat-main">
        <span className="tt-chat-line">
          <span className="tt-chat-name" dir="auto">
            {name}
          </span>
          {time ? (
            <time className="tt-chat-time" dateTime={new Date(time).toISOString()}>
              {listTime(time, now, locale, t('home.yesterday'))}
            </time>
          ) : null}
        </span>
        <span className="tt-chat-line">
          <span className="tt-chat-preview" dir="auto">
            {mentioned ? <span className="tt-chat-mention">{t('groups.mentioned')} </span> : null}
            <PreviewText conversation={conversation} selfId={selfId} name={name} />
          </span>
          {conversation.muted ? (
            <span className="tt-chat-muted">
              <BellMuteOutline aria-hidden />
              <span className="tt-visually-hidden">{t('home.muted')}</span>
            </span>
          ) : null}
        </span>
        {unread ? (
          <span className="tt-visually-hidden">
            {t('home.unread', { count: conversation.unread })}
          </span>
        ) : null}
        {conversation.pinned ? (
          <span className="tt-visually-hidden">{t('home.pinned')}</span>
        ) : null}
      </span>
    </Link>
  );

  return (
    <li className={conversation.pinned ? 'tt-chat-item tt-chat-pinned' : 'tt-chat-item'}>
      {Swipe ? (
        <Swipe
          actions={actions.map((action) => ({
            ...action,
            onClick: () => onAction(conversation, action.key),
          }))}
        >
          {row}
        </Swipe>
      ) : (
        row
      )}
    </li>
  );
}
