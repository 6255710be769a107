import { usePageTexts } from '../../i18n/pages';
import { Page } from '../../ui/page';
import { GroupList } from './group-list';

/** `/pages/home/groupList`: the caller's groups. */
export function GroupListPage() {
  const { t } = usePageTexts();
  return (
    <Page title={t('groups.title')} flush>
      <GroupList />
    </Page>
  );
}
