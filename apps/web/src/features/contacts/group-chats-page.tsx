import { TeamOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';

/**
 * `/pages/contacts/groupChat`: the group chats entry of the contacts tab. Groups do not
 * exist yet, so the page says so instead of showing a list that cannot fill.
 */
export function GroupChatsPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('contacts.groupChats')} flush>
      <EmptyState
        icon={<TeamOutline />}
        title={t('contacts.groupsEmptyTitle')}
        text={t('contacts.groupsEmptyText')}
      />
    </Page>
  );
}
