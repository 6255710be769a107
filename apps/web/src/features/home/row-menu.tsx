import type { ConversationView } from '@teltlk/im-sdk';
import { ActionSheet } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { conversationName } from '../../ui/conversation/messages';
import { rowActions, type RowAction } from './conversation-row';

interface RowMenuProps {
  /** The conversation whose menu is open; null while closed. */
  conversation: ConversationView | null;
  remarks: ReadonlyMap<string, string | null>;
  onAction: (conversation: ConversationView, action: RowAction) => void;
  onClose: () => void;
}

/** A chat row's long-press menu: pin, mute, delete. Loaded on first use, not with the list. */
export function RowMenu({ conversation, remarks, onAction, onClose }: RowMenuProps) {
  const { t } = useTranslation();
  return (
    <ActionSheet
      visible={conversation !== null}
      extra={
        conversation
          ? t('home.actions', {
              name: conversationName(conversation, remarks) ?? t('chat.title'),
            })
          : null
      }
      cancelText={t('common.cancel')}
      actions={
        conversation
          ? rowActions(conversation, t).map((action) => ({
              key: action.key,
              text: action.text,
              danger: action.key === 'delete',
              onClick: () => {
                onClose();
                onAction(conversation, action.key);
              },
            }))
          : []
      }
      onClose={onClose}
    />
  );
}
