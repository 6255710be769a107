import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';

/** A code page opened without a valid channel and destination in its query. */
export function MissingDestination({ title, restartPath }: { title: string; restartPath: string }) {
  const { t } = usePageTexts();
  return (
    <Page title={title}>
      <EmptyState title={t('code.missingDestination')} text="">
        <Link className="tt-button tt-button-primary" to={restartPath} replace>
          {t('common.back')}
        </Link>
      </EmptyState>
    </Page>
  );
}
