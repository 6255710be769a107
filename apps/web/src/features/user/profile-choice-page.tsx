import type { Me } from '@teltlk/protocol';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../api/queries';
import { Page } from '../../ui/page';
import { useGoBack } from '../../ui/page-header';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import { useUpdateProfile } from './use-update-profile';
import { toastModifyFailure } from '../../ui/failure-toast';

/** Profile fields chosen from a list. */
type ChoiceField = 'country' | 'motherTongue';

export interface ProfileChoicePageProps {
  field: ChoiceField;
  title: string;
  /** The list to choose from, showing `value` and reporting a new choice. */
  renderList: (value: string, onChange: (value: string) => void) => ReactNode;
}

function ChoiceForm({ me, field, title, renderList }: ProfileChoicePageProps & { me: Me }) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const formId = useId();
  const update = useUpdateProfile();
  const [value, setValue] = useState(me[field]);

  const submit = () => {
    if (value === me[field]) return goBack();
    update.mutate(
      { [field]: value },
      {
        onSuccess: () => {
          showToast(t('common.saved'), { icon: 'success' });
          goBack();
        },
        onError: (failure) => {
          toastModifyFailure(failure);
        },
      },
    );
  };

  return (
    <Page
      title={title}
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
        {renderList(value, setValue)}
      </form>
    </Page>
  );
}

/** A profile field picked from a list; the header's confirm button saves it. */
export function ProfileChoicePage(props: ProfileChoicePageProps) {
  const me = useMe();
  if (me.data) return <ChoiceForm me={me.data} {...props} />;
  return (
    <Page title={props.title}>
      {me.error ? (
        <QueryError error={me.error} onRetry={() => void me.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
