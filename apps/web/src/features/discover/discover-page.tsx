import { CompassOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';

/** `/pages/find/find`: rankings, mining check-in and other community features. */
export function DiscoverPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('discover.title')} back={false} flush>
      <EmptyState
        icon={<CompassOutline />}
        title={t('discover.emptyTitle')}
        text={t('discover.emptyText')}
      />
    </Page>
  );
}
