import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import { userSearchQuery, type Me } from '@teltlk/protocol';
import { useId, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { useCountryCodes, useMe } from '../../api/queries';
import { queryKeys } from '../../api/query-keys';
import { Button } from '../../ui/button';
import { toFormErrors, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { messageText, useMessageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';
import { personPath } from './person-link';
import { searchTerm } from './search-term';
import './contacts.css';

function useOwnDialCode(me: Me | undefined): string | undefined {
  const countries = useCountryCodes();
  return countries.data?.countries.find((country) => country.code === me?.country)?.dialCode;
}

function AddFriendScreen({ headerConfirm }: { headerConfirm: boolean }) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const formId = useId();
  const me = useMe();
  const dialCode = useOwnDialCode(me.data);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<Message | null>(null);

  const search = useMutation({
    mutationFn: (q: string) =>
      api.call(routes.contacts.searchUsers, { query: { q } }).then((result) => result.user),
    onSuccess: (user) => {
      // The profile page shows the found user at once, without asking again.
      queryClient.setQueryData(queryKeys.person(user.id), user);
      void navigate(personPath(user.id));
    },
    onError: (failure) => {
      const errors = toFormErrors(failure, {
        fields: ['q'],
        codeFields: { USER_NOT_FOUND: 'q' },
      });
      setError(errors.fields.q ?? null);
      if (errors.general) showToast(messageText(errors.general));
    },
  });

  const submit = () => {
    const q = searchTerm(query, dialCode);
    const invalid = checkField(userSearchQuery.shape.q, q);
    setError(invalid);
    if (!invalid) search.mutate(q);
  };

  return (
    <Page
      title={t('addFriend.title')}
      action={
        headerConfirm
          ? { label: t('common.confirm'), form: formId, busy: search.isPending }
          : undefined
      }
    >
      <form
        id={formId}
        className="tt-form"
        role="search"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextField
          label={t('addFriend.searchLabel')}
          type="search"
          enterKeyHint="search"
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={254}
          autoFocus
          value={query}
          onChange={(value) => {
            setQuery(value);
            setError(null);
          }}
          hint={t('addFriend.searchHint')}
          error={text(error)}
        />
        {headerConfirm ? null : (
          <Button type="submit" block busy={search.isPending}>
            {t('addFriend.search')}
          </Button>
        )}
      </form>
      {me.data ? (
        <p className="tt-add-friend-me">{t('addFriend.myId', { id: me.data.teltlkId })}</p>
      ) : null}
    </Page>
  );
}

/** `/pages/contacts/addFriend`: find a user by phone, Teltlk ID or email. */
export function AddFriendPage() {
  return <AddFriendScreen headerConfirm={false} />;
}

/** `/pages/home/addFriend`: the same search from the chat list, confirmed in the header. */
export function HomeAddFriendPage() {
  return <AddFriendScreen headerConfirm />;
}
