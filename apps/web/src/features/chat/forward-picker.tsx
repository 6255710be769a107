import type { ConversationView } from '@teltlk/im-sdk';
import { FORWARD_MAX_TARGETS } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { CheckList } from '../../ui/check-list';
import { Sheet } from '../../ui/sheet';
import { showToast } from '../../ui/toast';
import { conversationName } from '../../ui/conversation/messages';
import '../../ui/sheet.css';

interface ForwardPickerProps {
  visible: boolean;
  conversations: readonly ConversationView[];
  remarks: ReadonlyMap<string, string | null>;
  busy: boolean;
  onClose: () => void;
  onSend: (conversationIds: string[]) => void;
}

/** Chooses up to FORWARD_MAX_TARGETS chats to forward a message to. */
export function ForwardPicker({
  visible,
  conversations,
  remarks,
  busy,
  onClose,
  onSend,
}: ForwardPickerProps) {
  const { t } = usePageTexts();
  const [chosen, setChosen] = useState<string[]>([]);

  const toggle = (id: string, checked: boolean) => {
    if (!checked) {
      setChosen((current) => current.filter((item) => item !== id));
      return;
    }
    if (chosen.length >= FORWARD_MAX_TARGETS) {
      showToast(t('chat.forwardLimit', { max: FORWARD_MAX_TARGETS }));
      return;
    }
    setChosen((current) => [...current, id]);
  };

  return (
    <Sheet
      visible={visible}
      title={t('chat.forwardTitle')}
      onClose={onClose}
      action={{
        label: t('chat.forwardSend', { count: chosen.length }),
        onClick: () => onSend(chosen),
        disabled: chosen.length === 0,
        busy,
      }}
      afterClose={() => setChosen([])}
      className="tt-forward-inner"
      bodyClassName="tt-forward"
    >
      {conversations.length === 0 ? (
        <p className="tt-forward-empty">{t('chat.forwardNone')}</p>
      ) : (
        <CheckList
          className="tt-list tt-forward-list"
          items={conversations.map((conversation) => ({
            id: conversation.id,
            name: conversationName(conversation, remarks) ?? t('chat.title'),
            avatarUrl: conversation.peer?.avatarUrl ?? conversation.group?.avatarUrl,
          }))}
          chosen={chosen}
          onToggle={toggle}
        />
      )}
    </Sheet>
  );
}
