import { MessageOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';

/** `/pages/home/home` (and `/` when signed in): the chat list. */
export function HomePage() {
  const { t } = useTranslation();
  return (
    <Page title={t('home.title')} back={false} flush>
      <EmptyState
        icon={<MessageOutline />}
        title={t('home.emptyTitle')}
        text={t('home.emptyText')}
      />
    </Page>
  );
}
