import { NICKNAME_MAX_LENGTH, nicknameSchema, type Me } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { useMe } from '../../api/queries';
import { Page } from '../../ui/page';
import { TextFieldPage } from '../../ui/text-field-page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { checkField } from '../../ui/validation';
import { useUpdateProfile } from './use-update-profile';

function NicknameForm({ me }: { me: Me }) {
  const { t } = usePageTexts();
  const update = useUpdateProfile();
  return (
    <TextFieldPage
      title={t('editNickname.title')}
      label={t('editNickname.label')}
      autoComplete="nickname"
      initial={me.nickname}
      maxLength={NICKNAME_MAX_LENGTH}
      field="nickname"
      check={(value) => checkField(nicknameSchema, value)}
      save={(nickname) => update.mutateAsync({ nickname })}
      busy={update.isPending}
    />
  );
}

/** `/pages/user/nikeName`: change the nickname; the header's confirm button saves. */
export function EditNicknamePage() {
  const { t } = usePageTexts();
  const me = useMe();
  if (me.data) return <NicknameForm me={me.data} />;
  return (
    <Page title={t('editNickname.title')}>
      {me.error ? (
        <QueryError error={me.error} onRetry={() => void me.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
