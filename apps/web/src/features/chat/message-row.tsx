import type { LocalMessage } from '@teltlk/im-sdk';
import type { CardContent, LocationContent, SystemContent } from '@teltlk/protocol';
import { useId, useRef, useState, type ReactNode } from 'react';
import { FireFill, LocationFill, MoreOutline, RedoOutline } from 'antd-mobile-icons';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { paths, withQuery } from '../../app/paths';
import { Avatar } from '../../ui/avatar';
import { useUiLocale } from '../../ui/use-ui-locale';
import { errorMessage } from '../../ui/error-message';
import { useMessageText } from '../../ui/use-message';
import { ApiError } from '@teltlk/im-sdk';
import {
  isErrorCode,
  isMoneyContent,
  isQuoteAvailable,
  isSentContent,
  type MergedContent,
} from '@teltlk/protocol';
import { CallBubble } from './call-bubble';
import { StickerBubble } from './faces';
import { MergedBubble } from './merged';
import { MoneyBubble } from './money-bubble';
import { FileBubble, PhotoBubble, VideoBubble, VoiceBubble } from './media-bubble';
import { splitMentions } from './mentions';
import { DeliveryMark } from './delivery-mark';
import { largeEmojiCount } from './emoji';
import { isLongText, isUnfolded, setUnfolded } from './long-text';
import {
  deliveryState,
  isRevoked,
  mapLink,
  partLine,
  type ChatRow,
} from '../../ui/conversation/messages';
import { clockTime, dayLabel, formatDuration } from '../../ui/conversation/time-labels';
import { TranslatedText } from './translated-text';
import { useLongPress } from '../../ui/use-long-press';
import type { TranslationRowContext } from './use-translation';

export interface Person {
  name: string;
  avatarUrl: string | null;
}

export interface MessageRowContext {
  selfId: string;
  now: number;
  peerReadSeq: number;
  /** Who sent a message: the peer, or "You". */
  personOf: (senderId: string) => Person;
  /** Opens a message's menu beside its bubble. */
  onMenu: (message: LocalMessage, bubble: HTMLElement) => void;
  onRetry: (message: LocalMessage) => void;
  /** Opens a photo of the conversation in the viewer. */
  onOpenPhoto?: (message: LocalMessage) => void;
  /** Set in group chats: sender names, system notices, mentions and read counts. */
  group?: GroupRowContext;
  /** Translation of received texts into the reader's language. */
  translation?: TranslationRowContext;
  /** The message a search led to: marked for a moment. */
  foundSeq?: number | null;
  /** Opens a chat history record. */
  onOpenRecord?: (record: MergedContent) => void;
  /** While messages are being picked (to forward as chat history): a box on each. */
  selection?: { isSelected: (seq: number) => boolean; toggle: (seq: number) => void } | null;
}

export interface GroupRowContext {
  /** A system notice in the reader's language and with the reader's names for people. */
  systemText: (content: SystemContent) => string;
  /** Names a message's @mentions may be written with, to highlight them. */
  mentionNames: (content: { mentions?: readonly string[]; mentionAll?: boolean }) => string[];
  /** How many members read an own message (tap for who). */
  readState: (message: LocalMessage) => ReactNode;
}

export function DayRow({ time, now }: { time: number; now: number }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  return (
    <p className="tt-day">
      <time dateTime={new Date(time).toISOString()}>
        {dayLabel(time, now, locale, { today: t('chat.today'), yesterday: t('chat.yesterday') })}
      </time>
    </p>
  );
}

export function NoticeRow({
  message,
  context,
}: {
  message: LocalMessage;
  context: MessageRowContext;
}) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const own = message.senderId === context.selfId;
  let text: string;
  if (message.content.kind === 'system') {
    text = context.group?.systemText(message.content) ?? '';
  } else if (message.content.kind === 'burn') {
    text =
      message.content.seconds > 0
        ? t('chat.burnOn', { duration: formatDuration(message.content.seconds, locale) })
        : t('chat.burnOff');
  } else {
    text = own
      ? t('chat.revokedSelf')
      : t('chat.revokedOther', { name: context.personOf(message.senderId).name });
  }
  return <p className="tt-notice">{text}</p>;
}

/** The reason a send failed, in the user's language. */
function useFailureText(): (message: LocalMessage) => string {
  const text = useMessageText();
  return (message) => {
    const code = message.error;
    const failure = code && isErrorCode(code) ? new ApiError(code, 0) : undefined;
    return text(errorMessage(failure)) ?? '';
  };
}

/** A long received text, folded to a few lines behind "Show more"; remembered per message. */
function Foldable({ foldKey, children }: { foldKey: string; children: ReactNode }) {
  const { t } = usePageTexts();
  const [open, setOpen] = useState(() => isUnfolded(foldKey));
  const regionId = useId();
  const toggle = () => {
    setUnfolded(foldKey, !open);
    setOpen(!open);
  };
  return (
    <>
      <div id={regionId} className={open ? 'tt-msg-fold' : 'tt-msg-fold tt-msg-folded'}>
        {children}
      </div>
      <button
        type="button"
        className="tt-msg-fold-toggle"
        aria-expanded={open}
        aria-controls={regionId}
        onClick={toggle}
      >
        {open ? t('chat.showLess') : t('chat.showMore')}
      </button>
    </>
  );
}

export function MessageBubble({
  row,
  context,
}: {
  row: Extract<ChatRow, { kind: 'message' }>;
  context: MessageRowContext;
}) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const failureText = useFailureText();
  const { message, showRead, runStart, runEnd } = row;
  const bubbleRef = useRef<HTMLDivElement>(null);
  const openMenu = () => {
    if (bubbleRef.current) context.onMenu(message, bubbleRef.current);
  };
  const longPress = useLongPress(openMenu);
  const own = message.senderId === context.selfId;
  const sender = context.personOf(message.senderId);
  const { content } = message;
  const money = isMoneyContent(content) ? content : null;
  const call = content.kind === 'call' ? content : null;
  if (!isSentContent(content) && !money && !call) return null;
  const group = context.group;
  const quote = content.kind === 'text' ? content.quote : undefined;
  const forwarded = isSentContent(content) ? content.forwarded : undefined;
  const text = content.kind === 'text' ? content.text : '';
  const lang = message.lang ?? undefined;
  // A few emoji alone show large and without a bubble; with a quote they stay a reply.
  const large =
    content.kind === 'text' && !quote && !forwarded && largeEmojiCount(content.text) > 0;
  const parts =
    group && content.kind === 'text' ? splitMentions(text, group.mentionNames(content)) : null;
  const original = parts
    ? parts.map((part, index) =>
        part.mention ? (
          <span key={index} className="tt-msg-mention">
            {part.text}
          </span>
        ) : (
          part.text
        ),
      )
    : text;
  const body = money ? (
    <MoneyBubble
      message={message}
      content={money}
      own={own}
      nameOf={(id) => context.personOf(id).name}
    />
  ) : call ? (
    <CallBubble conversationId={message.conversationId} content={call} own={own} />
  ) : content.kind === 'image' ? (
    <PhotoBubble message={message} content={content} onOpen={context.onOpenPhoto} />
  ) : content.kind === 'file' ? (
    <FileBubble message={message} content={content} />
  ) : content.kind === 'voice' ? (
    <VoiceBubble message={message} content={content} />
  ) : content.kind === 'video' ? (
    <VideoBubble message={message} content={content} />
  ) : content.kind === 'location' ? (
    <SharedPlace place={content} locale={locale} />
  ) : content.kind === 'card' ? (
    <ContactCard card={content} />
  ) : content.kind === 'face' ? (
    <StickerBubble content={content} />
  ) : content.kind === 'merged' ? (
    <MergedBubble content={content} onOpen={(record) => context.onOpenRecord?.(record)} />
  ) : context.translation && !own && !large ? (
    <TranslatedText message={message} original={original} context={context.translation} />
  ) : (
    <p className="tt-msg-text" dir="auto" lang={lang}>
      {original}
    </p>
  );
  const delivery = own ? deliveryState(message, group ? null : context.peerReadSeq) : null;
  // Inside a run only the last message shows its time; a message that needs attention
  // (sending, failed, burning) or carries the read state shows its line anyway.
  const showMeta = runEnd || showRead || message.status !== 'sent' || message.burnAt !== null;
  const time = (
    <time
      className={runEnd ? undefined : 'tt-visually-hidden'}
      dateTime={new Date(message.createdAt).toISOString()}
    >
      {clockTime(message.createdAt, locale)}
    </time>
  );

  const classes = ['tt-msg'];
  if (own) classes.push('tt-msg-own');
  if (!runStart) classes.push('tt-msg-run-follows');
  if (!runEnd) classes.push('tt-msg-run-continues');
  if (large) classes.push('tt-msg-large');
  if (message.seq !== null && message.seq === context.foundSeq) classes.push('tt-msg-found');
  const { selection } = context;
  const seq = message.seq;
  return (
    <div className={classes.join(' ')}>
      {selection && seq !== null ? (
        <input
          type="checkbox"
          className="tt-msg-select"
          aria-label={t('chat.selectMessage')}
          checked={selection.isSelected(seq)}
          onChange={() => selection.toggle(seq)}
        />
      ) : null}
      {own ? null : runStart ? (
        <Avatar id={message.senderId} name={sender.name} url={sender.avatarUrl} size={36} />
      ) : (
        <span className="tt-msg-avatar-gap" aria-hidden />
      )}
      <div className="tt-msg-body">
        {group && !own && runStart ? (
          <span className="tt-msg-sender" dir="auto" aria-hidden>
            {sender.name}
          </span>
        ) : null}
        <div
          className={
            content.kind === 'face'
              ? 'tt-bubble tt-bubble-sticker'
              : (content.kind === 'image' || content.kind === 'video') && !quote && !forwarded
                ? 'tt-bubble tt-bubble-photo'
                : 'tt-bubble'
          }
          ref={bubbleRef}
          {...longPress}
        >
          <span className="tt-visually-hidden">{sender.name}</span>
          {forwarded ? <span className="tt-msg-forwarded">{t('chat.forwardedLabel')}</span> : null}
          {quote ? (
            <blockquote className="tt-msg-quote">
              {isQuoteAvailable(quote) ? (
                <>
                  <strong dir="auto">{context.personOf(quote.senderId).name}</strong>
                  <span dir="auto">{partLine(quote, t)}</span>
                </>
              ) : (
                <span>{t('chat.quoteUnavailable')}</span>
              )}
            </blockquote>
          ) : null}
          {content.kind === 'text' && !own && isLongText(text) ? (
            <Foldable foldKey={`${message.conversationId}/${row.key}`}>{body}</Foldable>
          ) : (
            body
          )}
          {message.editedAt != null && !isRevoked(message) ? (
            <span className="tt-msg-edited">{t('chat.edited')}</span>
          ) : null}
        </div>
        {showMeta ? (
          <div className="tt-msg-meta">
            {message.burnAt !== null ? (
              <span className="tt-msg-burn" title={t('chat.burnsIn')}>
                <FireFill aria-hidden />
                <span className="tt-visually-hidden">{t('chat.burnsIn')}</span>
              </span>
            ) : null}
            {time}
            {delivery ? <DeliveryMark state={delivery} /> : null}
            {message.status === 'failed' ? (
              <button
                type="button"
                className="tt-msg-retry"
                aria-label={t('chat.retry')}
                onClick={() => context.onRetry(message)}
              >
                <RedoOutline aria-hidden />
              </button>
            ) : null}
            {showRead && message.status === 'sent' && group ? group.readState(message) : null}
          </div>
        ) : (
          time
        )}
        {message.status === 'failed' ? (
          <p className="tt-msg-failed">{t('chat.failed', { reason: failureText(message) })}</p>
        ) : null}
      </div>
      <button
        type="button"
        className="tt-msg-more"
        aria-label={t('chat.more')}
        aria-haspopup="menu"
        onClick={openMenu}
        onContextMenu={(event) => {
          // The menu key or Shift+F10 on the focused button opens the same menu.
          event.preventDefault();
          openMenu();
        }}
      >
        <MoreOutline aria-hidden />
      </button>
    </div>
  );
}

export function MessageRow({ row, context }: { row: ChatRow; context: MessageRowContext }) {
  switch (row.kind) {
    case 'day':
      return <DayRow time={row.time} now={context.now} />;
    case 'notice':
      return <NoticeRow message={row.message} context={context} />;
    case 'message':
      return <MessageBubble row={row} context={context} />;
  }
}

/** A shared location in its bubble: the place's name, its point, and a link to a map site. */
function SharedPlace({ place, locale }: { place: LocationContent; locale: string }) {
  const { t } = usePageTexts();
  const degrees = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 4,
    maximumFractionDigits: 6,
    signDisplay: 'negative',
  });
  return (
    <div className="tt-msg-place">
      <LocationFill className="tt-msg-place-icon" aria-hidden />
      <div>
        <span className="tt-visually-hidden">{t('location.label')}: </span>
        <p className="tt-msg-place-name" dir="auto">
          {place.name}
        </p>
        <p className="tt-msg-place-point">
          {t('location.coordinates', {
            latitude: degrees.format(place.latitude),
            longitude: degrees.format(place.longitude),
          })}
        </p>
        <a href={mapLink(place)} target="_blank" rel="noopener noreferrer">
          {t('location.open')}
        </a>
      </div>
    </div>
  );
}

/** A shared contact card: the person, and a tap opens their profile (with add-friend). */
function ContactCard({ card }: { card: CardContent }) {
  const { t } = usePageTexts();
  const { user } = card;
  return (
    <Link className="tt-msg-card" to={withQuery(paths.seeMeans, { userId: user.id })}>
      <span className="tt-msg-card-person">
        <Avatar id={user.id} name={user.nickname} url={user.avatarUrl} size={44} />
        <span>
          <span className="tt-msg-card-name" dir="auto">
            {user.nickname}
          </span>
          <br />
          <span className="tt-msg-card-id">{t('card.teltlkId', { id: user.teltlkId })}</span>
        </span>
      </span>
      <span className="tt-msg-card-label">{t('card.label')}</span>
    </Link>
  );
}
