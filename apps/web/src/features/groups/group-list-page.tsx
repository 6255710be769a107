import { useTranslation } from 'react-i18next';
import { Page } from '../../ui/page';
import { GroupList } from './group-list';

/** `/pages/home/groupList`: the caller's groups. */
export function GroupListPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('groups.title')} flush>
      <GroupList />
    </Page>
  );
}
