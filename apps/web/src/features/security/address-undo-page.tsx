import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import type { AddressUndoView } from '@teltlk/protocol';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useSignedIn } from '../../app/guards';
import { paths } from '../../app/paths';
import { Button } from '../../ui/button';
import { errorMessage } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { PageSpinner } from '../../ui/spinner';
import { formatDateTime } from '../../ui/time';
import { useMessageText } from '../../ui/use-message';
import { useUiLocale } from '../../ui/use-ui-locale';
import { useSecurityTexts } from '../../i18n/security';
import './security.css';

/** The address change a link names, while it can still be undone. */
function OpenChange({ token, change }: { token: string; change: AddressUndoView }) {
  const { t } = useTranslation();
  const { t: ts } = useSecurityTexts();
  const text = useMessageText();
  const locale = useUiLocale();
  const queryClient = useQueryClient();
  const signedIn = useSignedIn();
  const undo = useMutation({
    mutationFn: () => api.call(routes.security.undoAddress, { body: { token } }),
    onSuccess: () => {
      // Every session of the account has ended, this browser's too if it was one of them:
      // asking who is signed in finds out, and signs out here if so.
      if (signedIn) void queryClient.invalidateQueries({ queryKey: queryKeys.me() });
    },
  });
  if (undo.isSuccess) {
    return (
      <div className="tt-undo" role="status">
        <p>{ts('undo.done', { previous: change.previous })}</p>
        <Link className="tt-button tt-button-primary tt-button-block" to={paths.root} replace>
          {t('login.submit')}
        </Link>
      </div>
    );
  }
  return (
    <div className="tt-undo">
      <p>
        {ts('undo.changed', {
          date: formatDateTime(change.changedAt, locale),
          channel: ts(`address.${change.channel}`),
          replacement: change.replacement,
        })}
      </p>
      <p>{ts('undo.intro', { previous: change.previous })}</p>
      <p className="tt-hint">
        {ts('undo.until', { date: formatDateTime(change.undoUntil, locale) })}
      </p>
      {undo.error ? (
        <p className="tt-alert" role="alert">
          {text(errorMessage(undo.error, 'modify'))}
        </p>
      ) : null}
      <Button block busy={undo.isPending} onClick={() => undo.mutate()}>
        {ts('undo.button', { previous: change.previous })}
      </Button>
    </div>
  );
}

/**
 * `/security/undo?token=`: opened from the notice sent to an address that was replaced,
 * signed in or not. Shows what would be put back and puts it back, which signs every
 * device of the account out; a link used or out of date says so.
 */
export function AddressUndoPage() {
  const { t } = useTranslation();
  const { t: ts } = useSecurityTexts();
  const text = useMessageText();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const change = useQuery({
    queryKey: ['address-undo', token],
    queryFn: () => api.call(routes.security.addressUndoView, { params: { token } }),
    enabled: token !== '',
    retry: (count, error) => !(error instanceof ApiError) && count < 2,
    staleTime: Infinity,
  });
  const invalid = (
    <p className="tt-alert" role="alert">
      {t('error.ADDRESS_UNDO_INVALID')}
    </p>
  );
  return (
    <Page title={ts('undo.title')}>
      {token === '' ? (
        invalid
      ) : change.error ? (
        <p className="tt-alert" role="alert">
          {text(errorMessage(change.error, 'load'))}
        </p>
      ) : !change.data ? (
        <PageSpinner />
      ) : change.data.state === 'open' ? (
        <OpenChange token={token} change={change.data} />
      ) : (
        invalid
      )}
    </Page>
  );
}
