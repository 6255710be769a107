import { PENDING_MEDIA_ID, type ConversationHandle, type LocalMessage } from '@teltlk/im-sdk';
import { isSentContent } from '@teltlk/protocol';
import { useCallback, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { copyText } from '../../ui/clipboard';
import {
  canEdit,
  canRevoke,
  isRevoked,
  messageKey,
  messageText,
  partLine,
  quotablePart,
} from '../../ui/conversation/messages';
import { toastFailure } from '../../ui/failure-toast';
import { showToast } from '../../ui/toast';
import type { EditTarget } from './composer';
import { useAddFavourite } from './faces';
import type { Person } from './message-row';
import {
  isTranslationFirst,
  shownTranslation,
  type TranslationRowContext,
} from './use-translation';
import { canRetranslate } from './use-translation-rows';
import type { PendingReply, Quote } from './use-text-send';

/** A media a menu saves to the device: its id and the name it is saved under. */
export interface SavedMedia {
  mediaId: string;
  name: string;
}

/** One entry of a message's menu: something it does, or a media it saves. */
export type MenuAction = { key: string; text: string; danger?: boolean } & (
  { onClick: () => void; save?: undefined } | { save: SavedMedia; onClick?: undefined }
);

/** The message whose menu is open, beside the bubble it was opened on. */
export interface MenuTarget {
  message: LocalMessage;
  /** The bubble: the menu sits beside it, and it is marked while the menu is open. */
  anchor: HTMLElement;
}

/**
 * The message whose menu is open, and the time it opened at: what may still be edited or
 * revoked is measured from then, and rows show times against it.
 */
export function useMenuTarget() {
  const [menuFor, setMenuFor] = useState<MenuTarget | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const openMenu = useCallback((message: LocalMessage, anchor: HTMLElement) => {
    setNow(Date.now());
    setMenuFor({ message, anchor });
  }, []);
  const closeMenu = useCallback(() => setMenuFor(null), []);
  return { menuFor, now, openMenu, closeMenu };
}

/** The file name a photo, video or file is saved under: its own, or the kind and seq. */
export function savedMedia(message: LocalMessage): SavedMedia | null {
  const { content } = message;
  if (content.kind === 'file') {
    const { file } = content;
    return file.id === PENDING_MEDIA_ID ? null : { mediaId: file.id, name: file.name };
  }
  const media =
    content.kind === 'image'
      ? { id: content.image.id, mime: content.image.mime, stem: 'photo' }
      : content.kind === 'video'
        ? { id: content.video.id, mime: content.video.mime, stem: 'video' }
        : null;
  if (!media || media.id === PENDING_MEDIA_ID) return null;
  const subtype = media.mime.split('/')[1] ?? '';
  const extension = EXTENSIONS[subtype] ?? (/^[a-z0-9]{1,5}$/.test(subtype) ? subtype : 'bin');
  return {
    mediaId: media.id,
    name: `${media.stem}-${message.seq ?? message.clientMsgId}.${extension}`,
  };
}

/** Extensions of media types whose subtype is not one. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  jpeg: 'jpg',
  quicktime: 'mov',
  'svg+xml': 'svg',
  'x-matroska': 'mkv',
};

interface MenuOptions {
  selfId: string;
  now: number;
  handle: ConversationHandle | undefined;
  personOf: (senderId: string) => Person;
  translation: TranslationRowContext | undefined;
  onReply: (reply: PendingReply) => void;
  onEdit: (edit: EditTarget) => void;
  onSelect: (seq: number) => void;
  onForward: (message: LocalMessage) => void;
}

/** What a message's menu offers, in this order, as far as the message allows it. */
export function useMessageMenu({
  selfId,
  now,
  handle,
  personOf,
  translation,
  onReply,
  onEdit,
  onSelect,
  onForward,
}: MenuOptions): (message: LocalMessage) => MenuAction[] {
  const { t } = usePageTexts();
  const addFavourite = useAddFavourite();

  const copy = (text: string) => {
    void copyText(text).then((copied) =>
      showToast(copied ? t('chat.copied') : t('chat.copyFailed'), {
        icon: copied ? 'success' : 'fail',
      }),
    );
  };

  return (message) => {
    const text = messageText(message);
    const part = quotablePart(message);
    const actions: MenuAction[] = [];
    const quote = toQuote(message);
    if (quote && part) {
      const excerpt = partLine(part, t);
      actions.push({
        key: 'reply',
        text: t('chat.reply'),
        onClick: () => onReply({ name: personOf(message.senderId).name, text: excerpt, quote }),
      });
    }
    if (text !== null) {
      const translated = translation ? shownTranslation(message, translation) : null;
      actions.push({
        key: 'copy',
        text: translated === null ? t('chat.copy') : t('translation.copyOriginal'),
        onClick: () => copy(text),
      });
      if (translation && translated !== null) {
        actions.push({
          key: 'copyTranslation',
          text: t('translation.copyTranslation'),
          onClick: () => copy(translated),
        });
        // Both show; this puts the other one on top, as tapping the translation does.
        const first = isTranslationFirst(message, translation);
        const key = messageKey(message);
        actions.push({
          key: first ? 'showOriginal' : 'showTranslation',
          text: first ? t('chat.menuShowOriginal') : t('chat.menuShowTranslation'),
          onClick: () => translation.onSwitch(key),
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
    const saved = message.seq !== null && !isRevoked(message) ? savedMedia(message) : null;
    if (saved) actions.push({ key: 'save', text: t('chat.menuSave'), save: saved });
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
    if (message.seq !== null && part && isSentContent(message.content)) {
      actions.push({ key: 'forward', text: t('chat.forward'), onClick: () => onForward(message) });
    }
    if (message.seq !== null && message.content.kind === 'text' && canEdit(message, selfId, now)) {
      const target = { seq: message.seq, text: message.content.text };
      actions.push({ key: 'edit', text: t('chat.edit'), onClick: () => onEdit(target) });
    }
    if (message.seq !== null && isSentContent(message.content)) {
      const seq = message.seq;
      actions.push({ key: 'select', text: t('chat.select'), onClick: () => onSelect(seq) });
    }
    if (message.seq !== null && canRevoke(message, selfId, now)) {
      const seq = message.seq;
      actions.push({
        key: 'revoke',
        text: t('chat.revoke'),
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
}

/**
 * What a reply sends of the message it quotes (any acknowledged message a quote can show):
 * its seq; the server adds the sender and excerpt from its own copy.
 */
function toQuote(message: LocalMessage): Quote | null {
  if (quotablePart(message) === null || message.seq === null) return null;
  return { seq: message.seq };
}
