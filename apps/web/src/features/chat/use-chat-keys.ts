import type { LocalMessage } from '@teltlk/im-sdk';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { useScreen } from '../../app/screen';
import { canEdit } from '../../ui/conversation/messages';
import { useGoBack } from '../../ui/page-header';
import type { EditTarget } from './composer';

/** The newest message of one's own that may still be edited, as the composer edits it. */
export function lastEditable(
  messages: readonly LocalMessage[],
  selfId: string,
  now: number,
): EditTarget | null {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.seq !== null && message.content.kind === 'text' && canEdit(message, selfId, now)) {
      return { seq: message.seq, text: message.content.text };
    }
  }
  return null;
}

/** Whether something is open over the chat (a sheet, a menu, a viewer): its own Escape. */
function overlayOpen(): boolean {
  const overlays = document.querySelectorAll(
    '[aria-modal="true"], [role="dialog"], [role="alertdialog"], [role="menu"], .adm-mask',
  );
  return [...overlays].some((overlay) => overlay.getClientRects().length > 0);
}

/** The composer's text box, when the key was pressed in it. */
function composerBox(target: EventTarget | null): HTMLTextAreaElement | null {
  return target instanceof HTMLTextAreaElement && target.closest('.tt-composer') ? target : null;
}

interface ChatKeys {
  messages: readonly LocalMessage[] | undefined;
  selfId: string;
  /** Whether a reply or an edit is under way in the composer. */
  composing: boolean;
  onEdit: (edit: EditTarget) => void;
  /** Ends the reply or the edit under way. */
  onCancel: () => void;
}

/**
 * The chat's keyboard, as in the messengers people come from: Escape ends a reply or an
 * edit, else closes the chat (back to the list; on a phone, back); ↑ in the empty message
 * box edits one's newest message that may still be edited.
 */
export function useChatKeys({ messages, selfId, composing, onEdit, onCancel }: ChatKeys): void {
  const navigate = useNavigate();
  const goBack = useGoBack();
  const besideList = useScreen() !== 'phone';
  const latest = useRef({ messages, composing, onEdit, onCancel, goBack });
  latest.current = { messages, composing, onEdit, onCancel, goBack };

  useEffect(() => {
    // Whether something was open over the chat as the key went down: seen before anything
    // handles it, since what closes on Escape is gone by the time the key reaches here.
    let overOverlay = false;
    const onKeyDownFirst = (event: KeyboardEvent) => {
      overOverlay = event.key === 'Escape' && overlayOpen();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const now = latest.current;
      if (event.key === 'Escape') {
        if (overOverlay) return;
        event.preventDefault();
        if (now.composing) now.onCancel();
        else if (besideList) void navigate(paths.home);
        else now.goBack();
      } else if (event.key === 'ArrowUp') {
        const box = composerBox(event.target);
        if (!box || box.value !== '' || now.composing || !now.messages) return;
        const edit = lastEditable(now.messages, selfId, Date.now());
        if (!edit) return;
        event.preventDefault();
        now.onEdit(edit);
      }
    };
    document.addEventListener('keydown', onKeyDownFirst, true);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDownFirst, true);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [navigate, besideList, selfId]);
}
