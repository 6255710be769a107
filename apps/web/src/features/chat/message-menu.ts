import type { ConversationHandle, LocalMessage } from '@teltlk/im-sdk';
import { REVOKE_WINDOW_SECONDS, isSentContent } from '@teltlk/protocol';
import { useCallback, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { copyText } from '../../ui/clipboard';
import {
  canEdit,
  canRevoke,
  messageText,
  partLine,
  quotablePart,
} from '../../ui/conversation/messages';
import { formatDuration } from '../../ui/conversation/time-labels';
import { toastFailure } from '../../ui/failure-toast';
import { showToast } from '../../ui/toast';
import { useUiLocale } from '../../ui/use-ui-locale';
import type { EditTarget } from './composer';
import { useAddFavourite } from './faces';
import type { Person } from './message-row';
import { shownTranslation, type TranslationRowContext } from './use-translation';
import { canRetranslate } from './use-translation-rows';
import type { PendingReply, Quote } from './use-text-send';

export interface MenuAction {
  key: string;
  text: string;
  danger?: boolean;
  onClick: () => void;
}

/**
 * The message whose menu is open, and the time it opened at: what may still be edited or
 * revoked is measured from then, and rows show times against it.
 */
export function useMenuTarget() {
  const [menuFor, setMenuFor] = useState<LocalMessage | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const openMenu = useCallback((message: LocalMessage) => {
    setNow(Date.now());
    setMenuFor(message);
  }, []);
  const closeMenu = useCallback(() => setMenuFor(null), []);
  return { menuFor, now, openMenu, closeMenu };
}

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
  const locale = useUiLocale();
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
      actions.push({ key: 'select', text: t('chat.select'), onClick: () => onSelect(seq) });
    }
    if (message.seq !== null && part) {
      actions.push({ key: 'forward', text: t('chat.forward'), onClick: () => onForward(message) });
    }
    if (message.seq !== null && message.content.kind === 'text' && canEdit(message, selfId, now)) {
      const target = { seq: message.seq, text: message.content.text };
      actions.push({ key: 'edit', text: t('chat.edit'), onClick: () => onEdit(target) });
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
}

/**
 * What a reply sends of the message it quotes (only acknowledged text can be quoted):
 * its seq; the server adds the sender and excerpt from its own copy.
 */
function toQuote(message: LocalMessage): Quote | null {
  if (messageText(message) === null || message.seq === null) return null;
  return { seq: message.seq };
}
