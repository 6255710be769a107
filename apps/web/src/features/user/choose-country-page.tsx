import type { Me } from '@teltlk/protocol';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../api/queries';
import { CountryList } from '../../ui/country-list';
import { errorMessage, isSessionError } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { useGoBack } from '../../ui/page-header';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import { messageText } from '../../ui/use-message';
import { useUpdateProfile } from './use-update-profile';

function CountryForm({ me }: { me: Me }) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const formId = useId();
  const update = useUpdateProfile();
  const [country, setCountry] = useState(me.country);

  const submit = () => {
    if (country === me.country) return goBack();
    update.mutate(
      { country },
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
      title={t('chooseCountry.title')}
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
        <CountryList legend={t('chooseCountry.title')} value={country} onChange={setCountry} />
      </form>
    </Page>
  );
}

/** `/pages/user/chooseCountry`: the country or region; the header's confirm button saves. */
export function ChooseCountryPage() {
  const { t } = useTranslation();
  const me = useMe();
  if (me.data) return <CountryForm me={me.data} />;
  return (
    <Page title={t('chooseCountry.title')}>
      {me.error ? (
        <QueryError error={me.error} onRetry={() => void me.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
