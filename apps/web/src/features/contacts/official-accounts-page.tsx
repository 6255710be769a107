import { singleConversationId } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { useMe } from '../../api/queries';
import { paths, withQuery } from '../../app/paths';
import { Page } from '../../ui/page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { PersonLink } from './person-link';
import { useOfficialAccounts } from '../../api/use-contacts';
import './contacts.css';

/** `/pages/contacts/officialAccounts`: the product's official accounts; each opens its chat. */
export function OfficialAccountsPage() {
  const { t } = usePageTexts();
  const me = useMe();
  const accounts = useOfficialAccounts();
  const error = accounts.error ?? me.error;
  return (
    <Page title={t('contacts.officialAccounts')} flush>
      {accounts.data && me.data ? (
        accounts.data.accounts.length > 0 ? (
          <ul className="tt-list tt-section">
            {accounts.data.accounts.map((account) => (
              <li key={account.id}>
                <PersonLink
                  user={account}
                  to={withQuery(paths.chat, {
                    conversationId: singleConversationId(me.data.id, account.id),
                  })}
                />
              </li>
            ))}
          </ul>
        ) : (
          <p className="tt-empty">{t('contacts.officialEmpty')}</p>
        )
      ) : error ? (
        <QueryError
          error={error}
          onRetry={() => void Promise.all([accounts.refetch(), me.refetch()])}
        />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
