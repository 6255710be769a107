import type { ConversationView, LocalMessage } from '@teltlk/im-sdk';
import type { MergedContent, SendableContent } from '@teltlk/protocol';
import { lazy, Suspense, useCallback, useState } from 'react';
import { CardSheet } from './card-sheet';
import type { ShareKind } from './composer';
import { ForwardPicker } from './forward-picker';
import { LocationSheet } from './location-sheet';
import { savedMedia, type MenuAction, type MenuTarget } from './message-menu';
import { MessagePopover } from './message-popover';
import { MoneySheet } from './money-sheets';
import type { ViewedPhoto } from './photo-viewer';
import type { Forwarding } from './use-forwarding';

const PhotoViewer = lazy(() => import('./photo-viewer'));
const MergedViewer = lazy(() => import('./merged-viewer'));

/** What opens over the chat: a share sheet, the photo viewer, a chat history record. */
export function useChatSheets(messages: readonly LocalMessage[] | undefined) {
  const [sharing, setSharing] = useState<ShareKind | null>(null);
  const [viewing, setViewing] = useState<{ photos: ViewedPhoto[]; index: number } | null>(null);
  const [record, setRecord] = useState<MergedContent | null>(null);
  const openPhoto = useCallback(
    (message: LocalMessage) => {
      const photos = photosOf(messages ?? []);
      const index = photos.findIndex((photo) => photo.clientMsgId === message.clientMsgId);
      if (index >= 0) setViewing({ photos, index });
    },
    [messages],
  );
  return {
    sharing,
    share: setSharing,
    closeShare: () => setSharing(null),
    viewing,
    openPhoto,
    closePhoto: () => setViewing(null),
    record,
    openRecord: setRecord,
    closeRecord: () => setRecord(null),
  };
}

export type ChatSheetState = ReturnType<typeof useChatSheets>;

interface ChatSheetsProps {
  conversationId: string;
  single: boolean;
  sheets: ChatSheetState;
  menu: { target: MenuTarget | null; actions: (message: LocalMessage) => MenuAction[] };
  onCloseMenu: () => void;
  /** Sends what a location or card sheet made. */
  onSend: (content: SendableContent) => void;
  /** A transfer or red envelope sheet closed (having sent, perhaps). */
  onMoneyClosed: () => void;
  forwarding: Forwarding;
  forwardTargets: readonly ConversationView[];
  remarks: ReadonlyMap<string, string | null>;
}

/** The message menu, sheets and viewers over a chat; each shows while its state says so. */
export function ChatSheets({
  conversationId,
  single,
  sheets,
  menu,
  onCloseMenu,
  onSend,
  onMoneyClosed,
  forwarding,
  forwardTargets,
  remarks,
}: ChatSheetsProps) {
  const { sharing, viewing, record } = sheets;
  return (
    <>
      <MessagePopover
        target={menu.target}
        actions={menu.target ? menu.actions(menu.target.message) : []}
        onClose={onCloseMenu}
      />
      <LocationSheet visible={sharing === 'location'} onClose={sheets.closeShare} onSend={onSend} />
      <CardSheet visible={sharing === 'card'} onClose={sheets.closeShare} onSend={onSend} />
      <MoneySheet
        kind={sharing === 'transfer' || sharing === 'envelope' ? sharing : null}
        conversationId={conversationId}
        group={!single}
        onClose={() => {
          sheets.closeShare();
          onMoneyClosed();
        }}
      />
      {viewing ? (
        <Suspense fallback={null}>
          <PhotoViewer photos={viewing.photos} index={viewing.index} onClose={sheets.closePhoto} />
        </Suspense>
      ) : null}
      <ForwardPicker
        visible={forwarding.forwarding !== null}
        conversations={forwardTargets}
        remarks={remarks}
        busy={forwarding.busy}
        onClose={forwarding.cancelForward}
        onSend={forwarding.forward}
      />
      <ForwardPicker
        visible={forwarding.mergedPicking}
        conversations={forwardTargets}
        remarks={remarks}
        busy={forwarding.busy}
        onClose={forwarding.cancelMergedPicking}
        onSend={forwarding.forwardMerged}
      />
      {record ? (
        <Suspense fallback={null}>
          <MergedViewer record={record} onClose={sheets.closeRecord} />
        </Suspense>
      ) : null}
    </>
  );
}

/** The conversation's photos that can be opened (stored, not revoked), oldest first. */
function photosOf(messages: readonly LocalMessage[]): (ViewedPhoto & { clientMsgId: string })[] {
  return messages.flatMap((message) => {
    const saved = message.content.kind === 'image' && message.revokedAt === null;
    const media = saved ? savedMedia(message) : null;
    return media ? [{ id: media.mediaId, name: media.name, clientMsgId: message.clientMsgId }] : [];
  });
}
