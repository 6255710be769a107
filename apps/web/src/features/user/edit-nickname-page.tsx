import { NICKNAME_MAX_LENGTH, nicknameSchema, type Me } from '@teltlk/protocol';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../api/queries';
import { toFormErrors, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { useGoBack } from '../../ui/page-header';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { messageText, useMessageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';
import { useUpdateProfile } from './use-update-profile';

function NicknameForm({ me }: { me: Me }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const goBack = useGoBack();
  const formId = useId();
  const update = useUpdateProfile();
  const [nickname, setNickname] = useState(me.nickname);
  const [error, setError] = useState<Message | null>(null);

  const submit = () => {
    const invalid = checkField(nicknameSchema, nickname);
    setError(invalid);
    if (invalid) return;
    if (nickname.trim() === me.nickname) return goBack();
    update.mutate(
      { nickname: nickname.trim() },
      {
        onSuccess: () => {
          showToast(t('common.saved'), { icon: 'success' });
          goBack();
        },
        onError: (failure) => {
          const errors = toFormErrors(failure, { fields: ['nickname'], fallback: 'modify' });
          setError(errors.fields.nickname ?? null);
          if (errors.general) showToast(messageText(errors.general));
        },
      },
    );
  };

  return (
    <Page
      title={t('editNickname.title')}
      action={{ label: t('common.confirm'), form: formId, busy: update.isPending }}
    >
      <form
        id={formId}
        className="tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextField
          label={t('editNickname.label')}
          autoComplete="nickname"
          maxLength={NICKNAME_MAX_LENGTH}
          autoFocus
          value={nickname}
          onChange={setNickname}
          error={text(error)}
        />
      </form>
    </Page>
  );
}

/** `/pages/user/nikeName`: change the nickname; the header's confirm button saves. */
export function EditNicknamePage() {
  const { t } = useTranslation();
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
