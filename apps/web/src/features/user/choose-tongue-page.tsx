import type { Me } from '@teltlk/protocol';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../api/queries';
import { ChoiceList } from '../../ui/choice-list';
import { errorMessage, isSessionError } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { useGoBack } from '../../ui/page-header';
import { useLanguageChoices } from '../../ui/pickers';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import { messageText } from '../../ui/use-message';
import { useUpdateProfile } from './use-update-profile';

function TongueForm({ me }: { me: Me }) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const formId = useId();
  const update = useUpdateProfile();
  const choices = useLanguageChoices();
  const [motherTongue, setMotherTongue] = useState(me.motherTongue);

  const submit = () => {
    if (motherTongue === me.motherTongue) return goBack();
    update.mutate(
      { motherTongue },
      {
        onSuccess: () => {
          showToast(t('common.saved'), { icon: 'success' });
          goBack();
        },
        onError: (failure) => {
          if (!isSessionError(failure)) showToast(messageText(errorMessage(failure, 'modify')));
        },
      },
    );
  };

  return (
    <Page
      title={t('chooseTongue.title')}
      flush
      action={{ label: t('common.confirm'), form: formId, busy: update.isPending }}
    >
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <ChoiceList
          legend={t('chooseTongue.title')}
          name="motherTongue"
          searchable
          secondaryInName
          choices={choices}
          value={motherTongue}
          onChange={setMotherTongue}
        />
      </form>
    </Page>
  );
}

/** `/pages/user/chooseTongue`: the mother tongue; the header's confirm button saves. */
export function ChooseTonguePage() {
  const { t } = useTranslation();
  const me = useMe();
  if (me.data) return <TongueForm me={me.data} />;
  return (
    <Page title={t('chooseTongue.title')}>
      {me.error ? (
        <QueryError error={me.error} onRetry={() => void me.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
