import type { CardContent } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { FriendPicker } from '../../ui/friend-picker';
import { Sheet } from '../../ui/sheet';
import '../../ui/sheet.css';

interface CardSheetProps {
  visible: boolean;
  onClose: () => void;
  onSend: (card: CardContent) => void;
}

/** Shares a contact's card: one tap on a friend sends theirs. */
export function CardSheet({ visible, onClose, onSend }: CardSheetProps) {
  const { t } = usePageTexts();
  return (
    <Sheet
      visible={visible}
      title={t('card.title')}
      onClose={onClose}
      className="tt-forward-inner"
      bodyClassName="tt-forward"
    >
      <FriendPicker
        className="tt-list tt-forward-list"
        empty={t('card.empty')}
        onPick={(friend) => {
          onSend({ kind: 'card', user: friend.user });
          onClose();
        }}
      />
    </Sheet>
  );
}
