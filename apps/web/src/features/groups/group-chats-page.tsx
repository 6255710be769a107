import { usePageTexts } from '../../i18n/pages';
import { Page } from '../../ui/page';
import { GroupList } from './group-list';

/** `/pages/contacts/groupChat`: the group chats entry of the contacts tab. */
export function GroupChatsPage() {
  const { t } = usePageTexts();
  return (
    <Page title={t('contacts.groupChats')} flush>
      <GroupList />
    </Page>
  );
}
