import { REMARK_MAX_LENGTH, remarkSchema, userIdSchema, type UserProfile } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { useSearchParams } from 'react-router';
import { usePerson, useUpdateRemark } from '../../api/use-contacts';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';
import { TextFieldPage } from '../../ui/text-field-page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { checkField } from '../../ui/validation';

function RemarkForm({ person }: { person: UserProfile }) {
  const { t } = usePageTexts();
  const update = useUpdateRemark();
  return (
    <TextFieldPage
      title={t('friends.remarkTitle')}
      label={t('friends.remarkPrompt', { name: person.nickname })}
      hint={t('friends.remarkHint')}
      initial={person.remark ?? ''}
      maxLength={REMARK_MAX_LENGTH}
      field="remark"
      // Empty shows the nickname again.
      check={(value) => (value ? checkField(remarkSchema, value) : null)}
      save={(remark) => update.mutateAsync({ userId: person.id, remark: remark || null })}
      busy={update.isPending}
    />
  );
}

/**
 * `/pages/home/setUserNickname?userId=`: the remark a person gives a friend (shown in
 * place of the nickname, to them alone); the header's confirm button saves.
 */
export function SetUserNicknamePage() {
  const { t } = usePageTexts();
  const [search] = useSearchParams();
  const parsed = userIdSchema.safeParse(search.get('userId'));
  const person = usePerson(parsed.success ? parsed.data : null);
  if (person.data?.relation === 'friend') return <RemarkForm person={person.data} />;
  return (
    <Page title={t('friends.remarkTitle')}>
      {!parsed.success || person.data ? (
        <EmptyState title={t('friends.notFriendsYet')} text={t('notFound.text')} />
      ) : person.error ? (
        <QueryError error={person.error} onRetry={() => void person.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
