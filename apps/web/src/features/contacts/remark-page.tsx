import { REMARK_MAX_LENGTH, remarkSchema, userIdSchema, type UserProfile } from '@teltlk/protocol';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePerson, useUpdateRemark } from '../../api/use-contacts';
import { EmptyState } from '../../ui/empty-state';
import { toFormErrors, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { useGoBack } from '../../ui/page-header';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { messageText, useMessageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';

function RemarkForm({ person }: { person: UserProfile }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const goBack = useGoBack();
  const formId = useId();
  const update = useUpdateRemark();
  const [remark, setRemark] = useState(person.remark ?? '');
  const [error, setError] = useState<Message | null>(null);

  const submit = () => {
    const value = remark.trim();
    const invalid = value ? checkField(remarkSchema, value) : null;
    setError(invalid);
    if (invalid) return;
    if (value === (person.remark ?? '')) return goBack();
    update.mutate(
      { userId: person.id, remark: value || null },
      {
        onSuccess: () => {
          showToast(t('common.saved'), { icon: 'success' });
          goBack();
        },
        onError: (failure) => {
          const errors = toFormErrors(failure, { fields: ['remark'], fallback: 'modify' });
          setError(errors.fields.remark ?? null);
          if (errors.general) showToast(messageText(errors.general));
        },
      },
    );
  };

  return (
    <Page
      title={t('friends.remarkTitle')}
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
          label={t('friends.remarkPrompt', { name: person.nickname })}
          hint={t('friends.remarkHint')}
          maxLength={REMARK_MAX_LENGTH}
          autoFocus
          value={remark}
          onChange={setRemark}
          error={text(error)}
        />
      </form>
    </Page>
  );
}

/**
 * `/pages/home/setUserNickname?userId=`: the remark a person gives a friend (shown in
 * place of the nickname, to them alone); the header's confirm button saves.
 */
export function SetUserNicknamePage() {
  const { t } = useTranslation();
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
