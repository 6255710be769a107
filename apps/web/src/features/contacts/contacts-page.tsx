import { TeamOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';

/** `/pages/contacts/contacts`: friends, new friend requests and groups. */
export function ContactsPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('contacts.title')} back={false} flush>
      <EmptyState
        icon={<TeamOutline />}
        title={t('contacts.emptyTitle')}
        text={t('contacts.emptyText')}
      />
    </Page>
  );
}
