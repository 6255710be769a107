import type { ConversationHandle } from '@teltlk/im-sdk';
import type { SendableContent } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { isBlank } from '../../ui/conversation/messages';
import { toastFailure } from '../../ui/failure-toast';
import { showToast } from '../../ui/toast';
import type { EditTarget, ReplyTarget } from './composer';
import type { Mentionable } from './mentions';
import type { GroupChat } from './use-group-chat';
import { useRequestCount } from './use-request-count';

export type Quote = NonNullable<Extract<SendableContent, { kind: 'text' }>['quote']>;

/** A reply being written: whom and what it answers, and the quote it sends. */
export interface PendingReply extends ReplyTarget {
  quote: Quote;
}

/** What the composer's text goes to besides a new message: a reply, or an edit (never both). */
type TextTarget =
  { kind: 'new' } | { kind: 'reply'; reply: PendingReply } | { kind: 'edit'; editing: EditTarget };

const NEW: TextTarget = { kind: 'new' };

/**
 * Sending the composer's text: a new message (with its mentions in a group), a reply to a
 * message, or an edit of one's own. Choosing "reply" asks the composer for focus.
 */
export function useTextSend(
  handle: ConversationHandle | undefined,
  groupChat: GroupChat | null | undefined,
  onSent: () => void,
) {
  const { t } = usePageTexts();
  const [target, setTarget] = useState<TextTarget>(NEW);
  const [focusRequest, requestFocus] = useRequestCount();
  const reply = target.kind === 'reply' ? target.reply : null;
  const editing = target.kind === 'edit' ? target.editing : null;

  const send = (text: string, picked: readonly Mentionable[]): boolean => {
    if (!handle) return false;
    if (isBlank(text)) {
      showToast(t('chat.blank'));
      return false;
    }
    if (editing) {
      if (text.trim() !== editing.text) handle.edit(editing.seq, text.trim()).catch(toastFailure);
      setTarget(NEW);
      return true;
    }
    const mentions = groupChat ? groupChat.mentionsOf(text, picked) : {};
    const content: SendableContent = reply
      ? { kind: 'text', text: text.trim(), quote: reply.quote, ...mentions }
      : { kind: 'text', text: text.trim(), ...mentions };
    handle.send(content).catch(toastFailure);
    handle.setDraft('');
    setTarget(NEW);
    onSent();
    return true;
  };

  return {
    reply,
    editing,
    focusRequest,
    send,
    startReply: (pending: PendingReply) => {
      setTarget({ kind: 'reply', reply: pending });
      requestFocus();
    },
    startEdit: (edit: EditTarget) => setTarget({ kind: 'edit', editing: edit }),
    cancelReply: () => setTarget((current) => (current.kind === 'reply' ? NEW : current)),
    cancelEdit: () => setTarget((current) => (current.kind === 'edit' ? NEW : current)),
  };
}
