import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/empty-state';

/** Shown when a page fails to load (a lost connection while fetching its code). */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <main className="tt-app">
      <EmptyState title={t('routeError.title')} text={t('routeError.text')}>
        <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
      </EmptyState>
    </main>
  );
}
