import type { LocalMessage } from '@teltlk/im-sdk';
import { MERGED_ITEMS_MAX } from '@teltlk/protocol';
import { useMemo, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useEngine } from '../../app/engine';
import { toastFailure } from '../../ui/failure-toast';
import { showToast } from '../../ui/toast';
import type { MessageRowContext } from './message-row';

/**
 * Forwarding from a chat: one message to the chats picked, or several messages picked in
 * the chat, sent on as one chat history record. One forward at a time is under way.
 */
export function useForwarding(conversationId: string) {
  const { t } = usePageTexts();
  const engine = useEngine();
  const [forwarding, setForwarding] = useState<LocalMessage | null>(null);
  // Messages picked to forward as one chat history record (null: not picking).
  const [selected, setSelected] = useState<ReadonlySet<number> | null>(null);
  const [mergedPicking, setMergedPicking] = useState(false);
  const [busy, setBusy] = useState(false);

  const selection: MessageRowContext['selection'] = useMemo(
    () =>
      selected
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
    [selected, t],
  );

  const forward = (ids: string[]) => {
    if (!engine || !forwarding) return;
    setBusy(true);
    engine
      .forward(forwarding, ids)
      .then(() => {
        showToast(t('chat.forwarded'), { icon: 'success' });
        setForwarding(null);
      })
      .catch(toastFailure)
      .finally(() => setBusy(false));
  };

  const forwardMerged = (ids: string[]) => {
    if (!engine || !selected || selected.size === 0) return;
    setBusy(true);
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
      .finally(() => setBusy(false));
  };

  return {
    /** The one message being forwarded, while its chats are picked. */
    forwarding,
    startForward: (message: LocalMessage) => setForwarding(message),
    cancelForward: () => setForwarding(null),
    forward,
    /** The messages picked for a chat history record, or null when not picking. */
    selected,
    startSelecting: (seq: number) => setSelected(new Set([seq])),
    cancelSelecting: () => setSelected(null),
    selection,
    /** Whether the chats to send the record to are being picked. */
    mergedPicking,
    pickMergedTargets: () => setMergedPicking(true),
    cancelMergedPicking: () => setMergedPicking(false),
    forwardMerged,
    busy,
  };
}

export type Forwarding = ReturnType<typeof useForwarding>;
