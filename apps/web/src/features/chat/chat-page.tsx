import {
  PENDING_MEDIA_ID,
  needsTranslation,
  type ConversationHandle,
  type ConversationSnapshot,
  type ConversationView,
  type LocalMessage,
} from '@teltlk/im-sdk';
import {
  MERGED_ITEMS_MAX,
  peerOf,
  REVOKE_WINDOW_SECONDS,
  groupIdOf,
  isSentContent,
  type MergedContent,
  type SendableContent,
} from '@teltlk/protocol';
import { ActionSheet } from 'antd-mobile';
import { LeftOutline, MoreOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useMe, useSettings } from '../../api/queries';
import { useConversation, useEngine, useEngineSnapshot, useSelfId } from '../../app/engine';
import { paths, withQuery } from '../../app/paths';
import { copyText } from '../../ui/clipboard';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';
import { useGoBack } from '../../ui/page-header';
import { useUiLocale } from '../../ui/use-ui-locale';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import { usePerson } from '../../api/use-contacts';
import type { Mentionable } from './mentions';
import { GroupNoticeBanner } from './notice-banner';
import { useGroupChat } from './use-group-chat';
import { orderConversations } from '../../ui/conversation/chat-list';
import { useAddFavourite } from './faces';
import { Composer, type EditTarget, type ReplyTarget, type ShareKind } from './composer';
import { MoneySheet } from './money-sheets';
import type { ViewedPhoto } from './photo-viewer';
import { useMediaSend } from './use-media-send';
import { CardSheet } from './card-sheet';
import { LocationSheet } from './location-sheet';
import { ConnectionBanner } from './connection-banner';
import { deviceTranslator } from './device-translator';
import { ForwardPicker } from './forward-picker';
import { MessageList } from './message-list';
import type { MessageRowContext, Person } from './message-row';
import {
  buildRows,
  canEdit,
  canRevoke,
  isBlank,
  messageText,
  partLine,
  quotablePart,
  peerName,
} from '../../ui/conversation/messages';
import { formatDuration } from '../../ui/conversation/time-labels';
import type { PreviewOptions } from './translation-preview';
import { toggleSwitched, translationSource } from '../../ui/conversation/translation-view';
import { useConversationParam } from './use-conversation-param';
import { usePageVisible } from './use-page-visible';
import { useRemarks } from '../../api/use-remarks';
import { shownTranslation, type TranslationRowContext } from './use-translation';
import { toastFailure } from '../../ui/failure-toast';
import { setPageTitle } from '../../ui/page-title';

type Quote = NonNullable<Extract<SendableContent, { kind: 'text' }>['quote']>;

interface PendingReply extends ReplyTarget {
  quote: Quote;
}

function ChatHeader({
  title,
  typing,
  settingsTo,
}: {
  title: string;
  typing: boolean;
  settingsTo: string;
}) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const appName = t('common.appName');
  useEffect(() => {
    setPageTitle(`${title} · ${appName}`);
  }, [title, appName]);
  return (
    <header className="tt-header">
      <div className="tt-header-side">
        <button
          type="button"
          className="tt-icon-button"
          aria-label={t('common.back')}
          onClick={goBack}
        >
          <LeftOutline aria-hidden />
        </button>
      </div>
      <div className="tt-chat-heading">
        <h1 className="tt-header-title" dir="auto">
          {title}
        </h1>
        <p className="tt-chat-typing" aria-live="polite">
          {typing ? t('chat.typing') : ''}
        </p>
      </div>
      <div className="tt-header-side tt-header-side-end">
        <Link className="tt-icon-button" to={settingsTo} aria-label={t('chat.settings')}>
          <MoreOutline aria-hidden />
        </Link>
      </div>
    </header>
  );
}

/** A `seq` query parameter: a message to open the chat at (a search hit). */
function seqParam(value: string | null): number | null {
  const seq = Number(value);
  return value !== null && Number.isSafeInteger(seq) && seq > 0 ? seq : null;
}

/** `/pages/home/chat?conversationId=…[&seq=…]`: one conversation. */
export function ChatPage() {
  const { t } = useTranslation();
  const selfId = useSelfId();
  const conversationId = useConversationParam(selfId);
  if (conversationId === null) {
    return (
      <Page title={t('chat.title')}>
        <EmptyState title={t('chat.notFound')} text={t('notFound.text')} />
      </Page>
    );
  }
  if (!conversationId || !selfId) return <PageSpinner />;
  return <ChatScreen key={conversationId} conversationId={conversationId} selfId={selfId} />;
}

function ChatScreen({ conversationId, selfId }: { conversationId: string; selfId: string }) {
  const { t } = useTranslation();
  const locale = useUiLocale();
  const engine = useEngine();
  const snapshot = useEngineSnapshot();
  const open = useConversation(conversationId);
  const visible = usePageVisible();
  const [atEnd, setAtEnd] = useState(false);
  const [reply, setReply] = useState<PendingReply | null>(null);
  const [editing, setEditing] = useState<EditTarget | null>(null);
  const addFavourite = useAddFavourite();
  // A search hit opened here: brought into view, then marked.
  const [search] = useSearchParams();
  const [focusSeq, setFocusSeq] = useState(() => seqParam(search.get('seq')));
  const [foundSeq, setFoundSeq] = useState<number | null>(null);
  const onFocused = useCallback(
    (found: boolean) => {
      if (found) setFoundSeq(focusSeq);
      else showToast(t('search.gone'));
      setFocusSeq(null);
    },
    [focusSeq, t],
  );
  const [focusRequest, setFocusRequest] = useState(0);
  const [scrollRequest, setScrollRequest] = useState(0);
  const [menuFor, setMenuFor] = useState<LocalMessage | null>(null);
  const [forwarding, setForwarding] = useState<LocalMessage | null>(null);
  // Messages picked to forward as one chat history record (null: not picking).
  const [selected, setSelected] = useState<ReadonlySet<number> | null>(null);
  const [mergedPicking, setMergedPicking] = useState(false);
  const [record, setRecord] = useState<MergedContent | null>(null);
  const [forwardBusy, setForwardBusy] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [viewing, setViewing] = useState<{ photos: ViewedPhoto[]; index: number } | null>(null);
  const me = useMe();
  const settings = useSettings();

  const view: ConversationView | undefined = snapshot?.conversations.find(
    (conversation) => conversation.id === conversationId,
  );
  const single = conversationId.startsWith('si_');
  const remarks = useRemarks();
  const messages = open?.snapshot.messages;
  const groupChat = useGroupChat(groupIdOf(conversationId), selfId, messages, view, now);
  // A chat opened from a profile before its first message has no conversation yet.
  const person = usePerson(view || !single ? null : peerOf(conversationId, selfId));
  const title =
    groupChat?.title ??
    peerName(view, remarks) ??
    (person.data ? person.data.remark || person.data.nickname : t('chat.title'));
  const peerAvatar = view?.peer?.avatarUrl ?? person.data?.avatarUrl ?? null;
  const handle = open?.handle;

  const singlePersonOf = useCallback(
    (senderId: string): Person =>
      senderId === selfId
        ? { name: t('chat.you'), avatarUrl: null }
        : { name: title, avatarUrl: peerAvatar },
    [selfId, t, title, peerAvatar],
  );
  const personOf = groupChat?.personOf ?? singlePersonOf;

  const rows = useMemo(
    () => (messages ? buildRows(messages, { selfId, readReceipts: true }) : []),
    [messages, selfId],
  );

  // Read up to the newest message while it is on screen and the tab is shown.
  const unread = view?.unread ?? 0;
  useEffect(() => {
    if (handle && atEnd && visible && unread > 0) handle.markRead();
  }, [handle, atEnd, visible, unread, messages]);

  const translation = useTranslationRows(
    selfId,
    view,
    handle,
    open?.snapshot,
    settings.data?.motherTongueFirst ?? true,
  );

  const context: MessageRowContext = useMemo(
    () => ({
      selfId,
      now,
      peerReadSeq: view?.peerReadSeq ?? 0,
      personOf,
      onMenu: (message) => {
        setNow(Date.now());
        setMenuFor(message);
      },
      onRetry: (message) => handle?.retry(message.clientMsgId),
      onOpenPhoto: (message) => {
        const photos = photosOf(messages ?? []);
        const index = photos.findIndex((photo) => photo.clientMsgId === message.clientMsgId);
        if (index >= 0) setViewing({ photos, index });
      },
      group: groupChat?.rowContext,
      translation,
      foundSeq,
      onOpenRecord: setRecord,
      selection: selected
        ? {
            isSelected: (seq) => selected.has(seq),
            toggle: (seq) => {
              if (!selected.has(seq) && selected.size >= MERGED_ITEMS_MAX) {
                showToast(t('rule.merged'));
                return;
              }
              const next = new Set(selected);
              if (next.has(seq)) next.delete(seq);
              else next.add(seq);
              setSelected(next);
            },
          }
        : null,
    }),
    [
      foundSeq,
      selected,
      t,
      selfId,
      now,
      view?.peerReadSeq,
      personOf,
      handle,
      groupChat?.rowContext,
      translation,
      messages,
    ],
  );

  const preview: PreviewOptions | undefined = translation
    ? {
        to: single ? (view?.peer?.motherTongue ?? person.data?.motherTongue ?? null) : null,
        pickLanguage: !single,
        from: me.data?.motherTongue ?? null,
        source: translation.source,
      }
    : undefined;

  const loadOlder = useCallback(() => {
    handle?.loadOlder().catch(() => {
      // Spec §4: a failed history load leaves the list as it is; scrolling tries again.
    });
  }, [handle]);

  const [sharing, setSharing] = useState<ShareKind | null>(null);
  const shareKinds = SHARE_KINDS.filter((kind) =>
    // A transfer goes to one person; a red envelope anywhere one may write.
    kind === 'transfer'
      ? single
      : kind === 'envelope'
        ? !groupChat?.blocked
        : !groupChat || groupChat.mayShare(kind),
  );
  const media = useMediaSend(handle ?? null, groupChat?.blocked ? [] : shareKinds, () =>
    setScrollRequest((count) => count + 1),
  );

  const sendShared = (content: SendableContent) => {
    handle?.send(content).catch(toastFailure);
    setScrollRequest((count) => count + 1);
  };

  const send = (text: string, picked: readonly Mentionable[]): boolean => {
    if (!handle) return false;
    if (isBlank(text)) {
      showToast(t('chat.blank'));
      return false;
    }
    if (editing) {
      if (text.trim() !== editing.text) handle.edit(editing.seq, text.trim()).catch(toastFailure);
      setEditing(null);
      return true;
    }
    const mentions = groupChat ? groupChat.mentionsOf(text, picked) : {};
    const content: SendableContent = reply
      ? { kind: 'text', text: text.trim(), quote: reply.quote, ...mentions }
      : { kind: 'text', text: text.trim(), ...mentions };
    handle.send(content).catch(toastFailure);
    handle.setDraft('');
    setReply(null);
    setScrollRequest((count) => count + 1);
    return true;
  };

  const copy = (text: string) => {
    void copyText(text).then((copied) =>
      showToast(copied ? t('chat.copied') : t('chat.copyFailed'), {
        icon: copied ? 'success' : 'fail',
      }),
    );
  };

  const menuActions = (message: LocalMessage) => {
    const text = messageText(message);
    const part = quotablePart(message);
    const actions: { key: string; text: string; danger?: boolean; onClick: () => void }[] = [];
    const quote = toQuote(message);
    if (quote && part) {
      const excerpt = partLine(part, t);
      actions.push({
        key: 'reply',
        text: t('chat.reply'),
        onClick: () => {
          setEditing(null);
          setReply({ name: personOf(message.senderId).name, text: excerpt, quote });
          setFocusRequest((count) => count + 1);
        },
      });
    }
    if (text !== null) {
      const translated = translation ? shownTranslation(message, translation) : null;
      actions.push({
        key: 'copy',
        text: translated === null ? t('chat.copy') : t('translation.copyOriginal'),
        onClick: () => copy(text),
      });
      if (translated !== null) {
        actions.push({
          key: 'copyTranslation',
          text: t('translation.copyTranslation'),
          onClick: () => copy(translated),
        });
      }
      const seq = message.seq;
      if (seq !== null && translation && canRetranslate(message, translation)) {
        actions.push({
          key: 'retranslate',
          text: t('translation.retranslate'),
          onClick: () => translation.retry(seq),
        });
      }
    }
    const photo =
      message.content.kind === 'image'
        ? message.content.image
        : message.content.kind === 'face'
          ? message.content.image
          : undefined;
    if (message.seq !== null && photo) {
      const mediaId = photo.id;
      actions.push({
        key: 'addSticker',
        text: t('chat.addSticker'),
        onClick: () => addFavourite.mutate(mediaId),
      });
    }
    if (message.seq !== null && isSentContent(message.content)) {
      const seq = message.seq;
      actions.push({
        key: 'select',
        text: t('chat.select'),
        onClick: () => setSelected(new Set([seq])),
      });
    }
    if (message.seq !== null && part) {
      actions.push({
        key: 'forward',
        text: t('chat.forward'),
        onClick: () => setForwarding(message),
      });
    }
    if (message.seq !== null && message.content.kind === 'text' && canEdit(message, selfId, now)) {
      const target = { seq: message.seq, text: message.content.text };
      actions.push({
        key: 'edit',
        text: t('chat.edit'),
        onClick: () => {
          setReply(null);
          setEditing(target);
        },
      });
    }
    if (message.seq !== null && canRevoke(message, selfId, now)) {
      const seq = message.seq;
      actions.push({
        key: 'revoke',
        text: t('chat.revoke', { duration: formatDuration(REVOKE_WINDOW_SECONDS, locale) }),
        onClick: () => void handle?.revoke(seq).catch(toastFailure),
      });
    }
    if (message.seq !== null) {
      const seq = message.seq;
      actions.push({
        key: 'delete',
        text: t('chat.delete'),
        danger: true,
        onClick: () => void handle?.hide(seq).catch(toastFailure),
      });
    }
    return actions;
  };

  const forward = (ids: string[]) => {
    if (!engine || !forwarding) return;
    setForwardBusy(true);
    engine
      .forward(forwarding, ids)
      .then(() => {
        showToast(t('chat.forwarded'), { icon: 'success' });
        setForwarding(null);
      })
      .catch(toastFailure)
      .finally(() => setForwardBusy(false));
  };

  const forwardMerged = (ids: string[]) => {
    if (!engine || !selected || selected.size === 0) return;
    setForwardBusy(true);
    engine
      .forwardMerged(
        conversationId,
        [...selected].sort((x, y) => x - y),
        ids,
      )
      .then(() => {
        showToast(t('chat.forwarded'), { icon: 'success' });
        setMergedPicking(false);
        setSelected(null);
      })
      .catch(toastFailure)
      .finally(() => setForwardBusy(false));
  };

  const forwardTargets = useMemo(
    () => orderConversations(snapshot?.conversations ?? []),
    [snapshot?.conversations],
  );

  return (
    <div className="tt-chat">
      <ChatHeader
        title={title}
        typing={open?.snapshot.peerTyping ?? false}
        settingsTo={groupChat?.settingsTo ?? withQuery(paths.chatSetting, { conversationId })}
      />
      <main
        className={media.dragging ? 'tt-chat-body tt-chat-dropping' : 'tt-chat-body'}
        {...media.dropZone}
      >
        {media.dragging ? (
          <p className="tt-chat-drop" aria-hidden>
            {t('chat.dropToSend')}
          </p>
        ) : null}
        <ConnectionBanner inline />
        {groupChat?.group ? <GroupNoticeBanner group={groupChat.group} /> : null}
        {open && snapshot && snapshot.status !== 'starting' ? (
          <>
            {rows.length === 0 && !open.snapshot.hasMore ? (
              <p className="tt-chat-empty">{t('chat.empty')}</p>
            ) : null}
            <MessageList
              rows={rows}
              context={context}
              hasMore={open.snapshot.hasMore}
              loadingOlder={open.snapshot.loadingOlder}
              onLoadOlder={loadOlder}
              onAtEndChange={setAtEnd}
              scrollToEndRequest={scrollRequest}
              focusSeq={focusSeq}
              onFocused={onFocused}
            />
            {selected ? (
              <div className="tt-select-bar" role="toolbar" aria-label={t('chat.forwardMerged')}>
                <span role="status">{t('chat.selectedCount', { count: selected.size })}</span>
                <button
                  type="button"
                  className="tt-select-cancel"
                  onClick={() => setSelected(null)}
                >
                  {t('chat.cancelSelect')}
                </button>
                <button
                  type="button"
                  className="tt-select-forward"
                  disabled={selected.size === 0}
                  onClick={() => setMergedPicking(true)}
                >
                  {t('chat.forwardMerged')}
                </button>
              </div>
            ) : null}
            {/* Hidden, not gone, while picking: what is typed stays. */}
            <div className="tt-composer-slot" hidden={selected !== null}>
              <Composer
                initialDraft={view?.draft ?? ''}
                onDraft={(text) => open.handle.setDraft(text)}
                onTyping={() => open.handle.typing()}
                onSend={send}
                reply={reply}
                onCancelReply={() => setReply(null)}
                editing={editing}
                onCancelEdit={() => setEditing(null)}
                focusRequest={focusRequest}
                mention={groupChat?.mention}
                blocked={groupChat?.blocked}
                shareKinds={shareKinds}
                onShare={setSharing}
                onFiles={media.sendFiles}
                onVoice={media.sendVoice}
                onSticker={
                  groupChat?.blocked || (groupChat && !groupChat.mayShare('face'))
                    ? undefined
                    : (face) => sendShared({ kind: 'face', ...face })
                }
                translationPreview={preview}
              />
            </div>
          </>
        ) : (
          <PageSpinner />
        )}
      </main>
      <ActionSheet
        visible={menuFor !== null}
        extra={t('chat.actions')}
        cancelText={t('common.cancel')}
        actions={menuFor ? menuActions(menuFor) : []}
        onAction={() => setMenuFor(null)}
        onClose={() => setMenuFor(null)}
      />
      <LocationSheet
        visible={sharing === 'location'}
        onClose={() => setSharing(null)}
        onSend={sendShared}
      />
      <CardSheet
        visible={sharing === 'card'}
        onClose={() => setSharing(null)}
        onSend={sendShared}
      />
      <MoneySheet
        kind={sharing === 'transfer' || sharing === 'envelope' ? sharing : null}
        conversationId={conversationId}
        group={!single}
        onClose={() => {
          setSharing(null);
          setScrollRequest((count) => count + 1);
        }}
      />
      {viewing ? (
        <Suspense fallback={null}>
          <PhotoViewer
            photos={viewing.photos}
            index={viewing.index}
            onClose={() => setViewing(null)}
          />
        </Suspense>
      ) : null}
      <ForwardPicker
        visible={forwarding !== null}
        conversations={forwardTargets}
        remarks={remarks}
        busy={forwardBusy}
        onClose={() => setForwarding(null)}
        onSend={forward}
      />
      <ForwardPicker
        visible={mergedPicking}
        conversations={forwardTargets}
        remarks={remarks}
        busy={forwardBusy}
        onClose={() => setMergedPicking(false)}
        onSend={forwardMerged}
      />
      {record ? (
        <Suspense fallback={null}>
          <MergedViewer record={record} onClose={() => setRecord(null)} />
        </Suspense>
      ) : null}
    </div>
  );
}

/** What the composer offers to share besides text, where the chat allows it. */
const SHARE_KINDS: readonly ShareKind[] = [
  'voice',
  'image',
  'video',
  'file',
  'location',
  'card',
  'transfer',
  'envelope',
];

const PhotoViewer = lazy(() => import('./photo-viewer'));
const MergedViewer = lazy(() => import('./merged-viewer'));

/** The conversation's photos that can be opened (stored, not revoked), oldest first. */
function photosOf(messages: readonly LocalMessage[]): (ViewedPhoto & { clientMsgId: string })[] {
  return messages.flatMap((message) =>
    message.content.kind === 'image' &&
    message.content.image.id !== PENDING_MEDIA_ID &&
    message.revokedAt === null
      ? [
          {
            id: message.content.image.id,
            name: `photo-${message.seq ?? message.clientMsgId}.${message.content.image.mime.split('/')[1] ?? 'jpg'}`,
            clientMsgId: message.clientMsgId,
          },
        ]
      : [],
  );
}

/**
 * What message rows need for translation: the conversation's target and switch, the
 * engine's translations, where translations come from, and the order chosen per message.
 */
function useTranslationRows(
  selfId: string,
  view: ConversationView | undefined,
  handle: ConversationHandle | undefined,
  snapshot: ConversationSnapshot | undefined,
  motherTongueFirst: boolean,
): TranslationRowContext | undefined {
  const engineSnapshot = useEngineSnapshot();
  const [switched, setSwitched] = useState<ReadonlySet<string>>(() => new Set());
  const source = translationSource(
    engineSnapshot?.translation ?? null,
    deviceTranslator() !== null,
  );
  const target = snapshot?.translationTarget ?? null;
  const translations = snapshot?.translations;
  const translate = view?.translate ?? true;
  const request = useCallback((seq: number) => handle?.translate([seq]), [handle]);
  const retry = useCallback(
    (seq: number) => void handle?.retranslate(seq).catch(toastFailure),
    [handle],
  );
  const onSwitch = useCallback(
    (key: string) => setSwitched((current) => toggleSwitched(current, key)),
    [],
  );
  return useMemo(
    () =>
      translations
        ? {
            scope: { selfId, translate, target },
            source,
            translations,
            motherTongueFirst,
            switched,
            onSwitch,
            request,
            retry,
          }
        : undefined,
    [
      selfId,
      translate,
      target,
      source,
      translations,
      motherTongueFirst,
      switched,
      onSwitch,
      request,
      retry,
    ],
  );
}

/** "Retranslate" is offered where the server translates and the message needs it. */
function canRetranslate(message: LocalMessage, context: TranslationRowContext): boolean {
  return context.source === 'server' && needsTranslation(message, context.scope);
}

/**
 * What a reply sends of the message it quotes (only acknowledged text can be quoted):
 * its seq; the server adds the sender and excerpt from its own copy.
 */
function toQuote(message: LocalMessage): Quote | null {
  if (messageText(message) === null || message.seq === null) return null;
  return { seq: message.seq };
}
