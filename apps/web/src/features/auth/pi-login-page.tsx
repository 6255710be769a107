import { useMutation } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { PiSdkError } from '@teltlk/pi-sdk';
import { useEffect, useRef } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link, useNavigate } from 'react-router';
import { routes } from '@teltlk/client';
import { api } from '../../api/client';
import { handOverIncomplete, piAccessToken, usePiClient } from '../../api/pi';
import { paths } from '../../app/paths';
import { Button } from '../../ui/button';
import { errorMessage, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { PiOnlyNotice } from '../../ui/pi-only';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { useMessageText } from '../../ui/use-message';
import { useRegistrationDraft } from './registration-draft';
import { useApplyAuth } from './use-apply-auth';

/** Why signing in with Pi failed, as the person is told. */
function failureMessage(failure: unknown): Message {
  // Pi's own refusals (consent cancelled, no piID) come back as the spec's one message,
  // the server's as its error.
  if (failure instanceof ApiError) return errorMessage(failure, 'login');
  if (failure instanceof PiSdkError && failure.code === 'PI_ONLY') return { key: 'error.PI_ONLY' };
  return { key: 'error.PI_TICKET_INVALID' };
}

/**
 * `/pages/login/PIlogin`: in the Pi Browser, the person's Pi account signs them in (asking
 * for username and payments); a Pi account no Teltlk account holds yet goes on to bindTips.
 * Elsewhere: the Pi-only message, and the other ways in.
 */
export function PiLoginPage() {
  const { t } = usePageTexts();
  const text = useMessageText();
  const navigate = useNavigate();
  const applyAuth = useApplyAuth();
  const updateDraft = useRegistrationDraft((state) => state.update);
  const { config, client } = usePiClient();
  const started = useRef(false);

  const signIn = useMutation({
    mutationFn: async () => {
      return api.call(routes.pi.login, { body: { accessToken: await piAccessToken(client!) } });
    },
    onSuccess: async (result) => {
      if (result.status === 'signedIn') {
        await applyAuth(result.auth);
        void handOverIncomplete();
        void navigate(paths.root, { replace: true });
        return;
      }
      updateDraft({ pi: { ticket: result.ticket, username: result.piUsername } });
      void navigate(paths.bindTips, { replace: true });
    },
  });

  const inPiBrowser = client?.inPiBrowser ?? false;
  const { mutate } = signIn;
  // Inside the Pi Browser, signing in starts by itself, once; failing sets up a retry.
  useEffect(() => {
    if (!inPiBrowser || started.current) return;
    started.current = true;
    mutate();
  }, [inPiBrowser, mutate]);

  if (config.isError) {
    return (
      <Page title={t('pi.loginTitle')}>
        <QueryError error={config.error} onRetry={() => void config.refetch()} />
      </Page>
    );
  }
  if (!client) return <PageSpinner />;
  if (!inPiBrowser) {
    return (
      <Page title={t('pi.loginTitle')}>
        <PiOnlyNotice />
      </Page>
    );
  }
  return (
    <Page title={t('pi.loginTitle')}>
      <div className="tt-auth">
        {signIn.isError ? (
          <>
            <p className="tt-alert" role="alert">
              {text(failureMessage(signIn.error))}
            </p>
            <Button block onClick={() => signIn.mutate()}>
              {t('pi.retry')}
            </Button>
          </>
        ) : (
          <p className="tt-hint" role="status">
            {t('pi.signingIn')}
          </p>
        )}
        <Link className="tt-link-button" to={paths.login}>
          {t('pi.passwordLogin')}
        </Link>
      </div>
    </Page>
  );
}
