import { usePageTexts } from '../../i18n/pages';

/** While messages are picked for a chat history record: how many, cancel, and forward. */
export function SelectBar({
  count,
  onCancel,
  onForward,
}: {
  count: number;
  onCancel: () => void;
  onForward: () => void;
}) {
  const { t } = usePageTexts();
  return (
    <div className="tt-select-bar" role="toolbar" aria-label={t('chat.forwardMerged')}>
      <span role="status">{t('chat.selectedCount', { count })}</span>
      <button type="button" className="tt-select-cancel" onClick={onCancel}>
        {t('chat.cancelSelect')}
      </button>
      <button
        type="button"
        className="tt-select-forward"
        disabled={count === 0}
        onClick={onForward}
      >
        {t('chat.forwardMerged')}
      </button>
    </div>
  );
}
