import { useTranslation } from 'react-i18next';
import { Page } from '../../ui/page';
import { GroupList } from './group-list';

/** `/pages/contacts/groupChat`: the group chats entry of the contacts tab. */
export function GroupChatsPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('contacts.groupChats')} flush>
      <GroupList />
    </Page>
  );
}
