import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { errorMessage } from './error-message';
import { useMessageText } from './use-message';

/** A failed load, with the reason and a retry button. */
export function QueryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const text = useMessageText();
  return (
    <div className="tt-empty">
      <p role="alert">{text(errorMessage(error, 'load'))}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </div>
  );
}
