// The chat's stylesheets, here in cascade order (a sticker's rules win over its bubble's;
// media's, groups' and translation's over the messages'): imported by the components,
// those shared with other pages would take theirs to a shared chunk that loads first.
import './chat.css';
import './messages.css';
import './composer.css';
import './location-sheet.css';
import './media.css';
import './group-chat.css';
import './translation.css';
import type { ConversationView } from '@teltlk/im-sdk';
import { groupIdOf, peerOf, type SendableContent } from '@teltlk/protocol';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useSearchParams } from 'react-router';
import { useMe, useSettings } from '../../api/queries';
import { usePerson } from '../../api/use-contacts';
import { useRemarks } from '../../api/use-remarks';
import { useConversation, useEngineSnapshot, useSelfId } from '../../app/engine';
import { paths, withQuery } from '../../app/paths';
import { orderConversations } from '../../ui/conversation/chat-list';
import { buildRows, peerName } from '../../ui/conversation/messages';
import { EmptyState } from '../../ui/empty-state';
import { toastFailure } from '../../ui/failure-toast';
import { Page } from '../../ui/page';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import { ChatHeader } from './chat-header';
import { GroupCallBanner } from './group-call-banner';
import { startCall } from '../../app/start-call';
import { ChatSheets, useChatSheets } from './chat-sheets';
import { Composer, type ShareKind } from './composer';
import { ConnectionBanner } from './connection-banner';
import { useMenuTarget, useMessageMenu } from './message-menu';
import { MessageList } from './message-list';
import type { MessageRowContext, Person } from './message-row';
import { GroupNoticeBanner } from './notice-banner';
import { SelectBar } from './select-bar';
import { TranslationBanner } from './translation-banner';
import type { PreviewOptions } from './translation-preview';
import { useChatKeys } from './use-chat-keys';
import { useConversationParam } from './use-conversation-param';
import { useForwarding } from './use-forwarding';
import { useGroupChat } from './use-group-chat';
import { useMediaSend } from './use-media-send';
import { usePageVisible } from './use-page-visible';
import { useRequestCount } from './use-request-count';
import { useTextSend } from './use-text-send';
import { useTranslationRows } from './use-translation-rows';

/** `/pages/home/chat?conversationId=…[&seq=…]`: one conversation. */
export function ChatPage() {
  const { t } = usePageTexts();
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

/** A `seq` query parameter: a message to open the chat at (a search hit). */
function seqParam(value: string | null): number | null {
  const seq = Number(value);
  return value !== null && Number.isSafeInteger(seq) && seq > 0 ? seq : null;
}

/** A search hit the chat opened at: brought into view, then marked. */
function useSearchFocus() {
  const { t } = usePageTexts();
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
  return { focusSeq, foundSeq, onFocused };
}

function ChatScreen({ conversationId, selfId }: { conversationId: string; selfId: string }) {
  const { t } = usePageTexts();
  const snapshot = useEngineSnapshot();
  const open = useConversation(conversationId);
  const visible = usePageVisible();
  const [atEnd, setAtEnd] = useState(false);
  const searchFocus = useSearchFocus();
  const [scrollRequest, requestScroll] = useRequestCount();
  const menu = useMenuTarget();
  const { now } = menu;
  const forwarding = useForwarding(conversationId);
  const me = useMe();
  const settings = useSettings();

  const view: ConversationView | undefined = snapshot?.conversations.find(
    (conversation) => conversation.id === conversationId,
  );
  const single = conversationId.startsWith('si_');
  const remarks = useRemarks();
  const messages = open?.snapshot.messages;
  const sheets = useChatSheets(messages);
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

  const { foundSeq } = searchFocus;
  const { selection } = forwarding;
  const { openMenu } = menu;
  const { openPhoto, openRecord } = sheets;
  const context: MessageRowContext = useMemo(
    () => ({
      selfId,
      now,
      peerReadSeq: view?.peerReadSeq ?? 0,
      personOf,
      onMenu: openMenu,
      onRetry: (message) => handle?.retry(message.clientMsgId),
      onOpenPhoto: openPhoto,
      group: groupChat?.rowContext,
      translation,
      foundSeq,
      onOpenRecord: openRecord,
      selection,
    }),
    [
      foundSeq,
      selection,
      selfId,
      now,
      view?.peerReadSeq,
      personOf,
      openMenu,
      handle,
      openPhoto,
      openRecord,
      groupChat?.rowContext,
      translation,
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

  const shareKinds = SHARE_KINDS.filter((kind) =>
    // A transfer goes to one person; a red envelope anywhere one may write.
    kind === 'transfer'
      ? single
      : kind === 'envelope'
        ? !groupChat?.blocked
        : !groupChat || groupChat.mayShare(kind),
  );
  const media = useMediaSend(handle ?? null, groupChat?.blocked ? [] : shareKinds, requestScroll);

  const sendShared = (content: SendableContent) => {
    handle?.send(content).catch(toastFailure);
    requestScroll();
  };

  const text = useTextSend(handle, groupChat, requestScroll);

  const menuActions = useMessageMenu({
    selfId,
    now,
    handle,
    personOf,
    translation,
    onReply: text.startReply,
    onEdit: text.startEdit,
    onSelect: forwarding.startSelecting,
    onForward: forwarding.startForward,
  });

  const forwardTargets = useMemo(
    () => orderConversations(snapshot?.conversations ?? []),
    [snapshot?.conversations],
  );

  const { selected } = forwarding;
  useChatKeys({
    messages,
    selfId,
    composing: text.reply !== null || text.editing !== null || selected !== null,
    onEdit: text.startEdit,
    onCancel: () => {
      text.cancelReply();
      text.cancelEdit();
      forwarding.cancelSelecting();
    },
  });
  return (
    <div className="tt-chat">
      <ChatHeader
        title={title}
        typing={open?.snapshot.peerTyping ?? false}
        settingsTo={groupChat?.settingsTo ?? withQuery(paths.chatSetting, { conversationId })}
        onCall={
          view?.peer?.official || (!single && !groupChat?.group)
            ? undefined
            : (media) => startCall(conversationId, media)
        }
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
        {groupChat?.group ? (
          <GroupCallBanner conversationId={conversationId} selfId={selfId} />
        ) : null}
        <TranslationBanner conversationId={conversationId} context={translation} />
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
              focusSeq={searchFocus.focusSeq}
              onFocused={searchFocus.onFocused}
            />
            {selected ? (
              <SelectBar
                count={selected.size}
                onCancel={forwarding.cancelSelecting}
                onForward={forwarding.pickMergedTargets}
              />
            ) : null}
            {/* Hidden, not gone, while picking: what is typed stays. */}
            <div className="tt-composer-slot" hidden={selected !== null}>
              <Composer
                initialDraft={view?.draft ?? ''}
                onDraft={(draft) => open.handle.setDraft(draft)}
                onTyping={() => open.handle.typing()}
                onSend={text.send}
                reply={text.reply}
                onCancelReply={text.cancelReply}
                editing={text.editing}
                onCancelEdit={text.cancelEdit}
                focusRequest={text.focusRequest}
                mention={groupChat?.mention}
                blocked={groupChat?.blocked}
                shareKinds={shareKinds}
                onShare={sheets.share}
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
      <ChatSheets
        conversationId={conversationId}
        single={single}
        sheets={sheets}
        menu={{ target: menu.menuFor, actions: menuActions }}
        onCloseMenu={menu.closeMenu}
        onSend={sendShared}
        onMoneyClosed={requestScroll}
        forwarding={forwarding}
        forwardTargets={forwardTargets}
        remarks={remarks}
      />
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
