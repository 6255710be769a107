import type { ConversationView } from '@teltlk/im-sdk';
import { FORWARD_MAX_TARGETS } from '@teltlk/protocol';
import { Popup } from 'antd-mobile';
import { CloseOutline } from 'antd-mobile-icons';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../ui/avatar';
import { showToast } from '../../ui/toast';
import { conversationName } from './messages';

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
  const { t } = useTranslation();
  const titleId = useId();
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
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      afterClose={() => setChosen([])}
      bodyClassName="tt-forward"
      destroyOnClose
    >
      <div role="dialog" aria-modal="true" aria-labelledby={titleId} className="tt-forward-inner">
        <header className="tt-forward-header">
          <button
            type="button"
            className="tt-icon-button"
            aria-label={t('common.cancel')}
            onClick={onClose}
          >
            <CloseOutline aria-hidden />
          </button>
          <h2 id={titleId}>{t('chat.forwardTitle')}</h2>
          <button
            type="button"
            className="tt-header-action"
            disabled={chosen.length === 0 || busy}
            aria-busy={busy || undefined}
            onClick={() => onSend(chosen)}
          >
            {t('chat.forwardSend', { count: chosen.length })}
          </button>
        </header>
        {conversations.length === 0 ? (
          <p className="tt-forward-empty">{t('chat.forwardNone')}</p>
        ) : (
          <ul className="tt-list tt-forward-list">
            {conversations.map((conversation) => {
              const name = conversationName(conversation, remarks) ?? t('chat.title');
              const checked = chosen.includes(conversation.id);
              return (
                <li key={conversation.id}>
                  <label className="tt-row tt-forward-row">
                    <input
                      type="checkbox"
                      checked={checked}
                      onChange={(event) => toggle(conversation.id, event.target.checked)}
                    />
                    <Avatar
                      name={name}
                      url={conversation.peer?.avatarUrl ?? conversation.group?.avatarUrl}
                      size={36}
                    />
                    <span className="tt-row-label">{name}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Popup>
  );
}
