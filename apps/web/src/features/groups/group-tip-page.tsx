import { groupConversationId } from '@teltlk/protocol';
import { CheckCircleOutline, ClockCircleOutline } from 'antd-mobile-icons';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate, useSearchParams } from 'react-router';
import { paths, withQuery } from '../../app/paths';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';
import { readGroupId } from '../../api/use-groups';

/** `/pages/home/groupTip?groupId=…&status=joined|pending`: the outcome of joining a group. */
export function GroupTipPage() {
  const { t } = usePageTexts();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const groupId = readGroupId(search);
  const name = search.get('name') ?? '';
  const joined = search.get('status') === 'joined';
  if (!groupId) {
    return (
      <Page title={t('groups.tipTitle')}>
        <EmptyState title={t('chat.notFound')} text={t('notFound.text')} />
      </Page>
    );
  }
  return (
    <Page title={t('groups.tipTitle')}>
      {joined ? (
        <EmptyState
          icon={<CheckCircleOutline />}
          title={t('groups.tipJoined', { name })}
          text={t('groups.noticeHint')}
        >
          <Button
            block
            onClick={() =>
              void navigate(
                withQuery(paths.chat, { conversationId: groupConversationId(groupId) }),
                { replace: true },
              )
            }
          >
            {t('groups.open')}
          </Button>
        </EmptyState>
      ) : (
        <EmptyState
          icon={<ClockCircleOutline />}
          title={t('groups.tipPending')}
          text={t('groups.tipPendingText', { name })}
        >
          <Button block variant="secondary" onClick={() => void navigate(paths.groupApplications)}>
            {t('groups.mine')}
          </Button>
        </EmptyState>
      )}
    </Page>
  );
}
