import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import type { DeviceLoginView } from '@teltlk/protocol';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { paths, withQuery } from '../../app/paths';
import { Button } from '../../ui/button';
import { countryName } from '../../ui/countries';
import { errorMessage, isSessionError, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { PageSpinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { relativeTime } from '../../ui/time';
import { useMessageText } from '../../ui/use-message';
import { summariseUserAgent } from '../../ui/user-agent';
import { QrScanner } from './qr-scanner';
import { ticketFromScan } from './device-ticket-socket';
import './devices.css';

/**
 * The device that asks to be signed in, and the two answers. Approving signs that device
 * in to this account at once; refusing tells it no.
 */
function DeviceDecision({ ticket }: { ticket: DeviceLoginView }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const locale = useUiLocale();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [decided, setDecided] = useState<DeviceLoginView['state'] | null>(
    ticket.state === 'pending' ? null : ticket.state,
  );
  const decide = useMutation({
    mutationFn: (approve: boolean) => api.decideDeviceLogin(ticket.id, { approve }),
    onSuccess: (result) => {
      setDecided(result.state);
      // The session list now holds the new device.
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions() });
    },
  });
  const summary = summariseUserAgent(ticket.userAgent);
  const device = t('security.device', {
    browser: summary.browser ?? t('security.unknownBrowser'),
    os: summary.os ?? t('security.unknownOs'),
  });
  const failure: Message | null =
    decide.error && !isSessionError(decide.error) ? errorMessage(decide.error) : null;

  if (decided !== null) {
    return (
      <div className="tt-empty" role="status">
        <p>
          {decided === 'refused'
            ? t('device.refusedDone')
            : decided === 'pending'
              ? t('device.expired')
              : t('device.approved')}
        </p>
        <Button onClick={() => void navigate(paths.root, { replace: true })}>
          {t('device.done')}
        </Button>
      </div>
    );
  }
  return (
    <section className="tt-device-decision" aria-labelledby="device-ask">
      <h2 id="device-ask">{t('device.confirmTitle')}</h2>
      <dl className="tt-device-facts">
        <dt>{t('device.deviceLabel')}</dt>
        <dd data-testid="device-login-device">{device}</dd>
        {ticket.ip ? (
          <>
            <dt>{t('device.addressLabel')}</dt>
            <dd>{ticket.ip}</dd>
          </>
        ) : null}
        {ticket.country ? (
          <>
            <dt>{t('device.placeLabel')}</dt>
            <dd data-testid="device-login-place">{countryName(ticket.country, locale)}</dd>
          </>
        ) : null}
        <dt>{t('device.askedLabel')}</dt>
        <dd>{relativeTime(ticket.createdAt, Date.now(), locale)}</dd>
      </dl>
      <p className="tt-hint">{t('device.confirmIntro')}</p>
      {failure ? (
        <p className="tt-alert" role="alert">
          {text(failure)}
        </p>
      ) : null}
      <div className="tt-device-actions">
        <Button block busy={decide.isPending} onClick={() => decide.mutate(true)}>
          {t('device.approve')}
        </Button>
        <Button
          block
          variant="secondary"
          disabled={decide.isPending}
          onClick={() => decide.mutate(false)}
        >
          {t('device.refuse')}
        </Button>
      </div>
    </section>
  );
}

/** A ticket named by a scanned link. */
function TicketById({ id }: { id: string }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const ticket = useQuery({
    queryKey: queryKeys.deviceLogin(id),
    queryFn: () => api.deviceLogin(id),
    retry: (count, error) => !(error instanceof ApiError) && count < 2,
    staleTime: Infinity,
  });
  if (ticket.data) return <DeviceDecision ticket={ticket.data} />;
  if (ticket.error) {
    return (
      <div className="tt-empty">
        <p role="alert">{text(errorMessage(ticket.error, 'load'))}</p>
        <Link className="tt-button tt-button-secondary" to={paths.mobileDevice} replace>
          {t('device.scanAgain')}
        </Link>
      </div>
    );
  }
  return <PageSpinner />;
}

/**
 * `/pages/login/mobiledevice`: scan the QR code another device shows (or arrive from its
 * link with `ticket`), see which device asks, and approve or refuse.
 */
export function MobileDevicePage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [notOurs, setNotOurs] = useState(false);
  const ticket = search.get('ticket');
  const scanned = (value: string) => {
    const id = ticketFromScan(value, paths.mobileDevice);
    if (!id) return setNotOurs(true);
    setNotOurs(false);
    void navigate(withQuery(paths.mobileDevice, { ticket: id }), { replace: true });
  };
  return (
    <Page title={t('device.scanTitle')}>
      <div className="tt-device-login">
        {ticket ? (
          <TicketById key={ticket} id={ticket} />
        ) : (
          <>
            <p className="tt-hint">{t('device.scanIntro')}</p>
            <QrScanner onScan={scanned} />
            {notOurs ? (
              <p className="tt-alert" role="alert">
                {t('device.notLoginCode')}
              </p>
            ) : null}
            <Link className="tt-link-button" to={paths.verification}>
              {t('device.typeCode')}
            </Link>
          </>
        )}
      </div>
    </Page>
  );
}

/** `/verification`: approve a device that shows no QR code to scan, by its short code. */
export function VerificationPage() {
  const { t } = useTranslation();
  const text = useMessageText();
  const [code, setCode] = useState('');
  const find = useMutation({
    mutationFn: (typed: string) => api.findDeviceLogin({ code: typed }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '' || find.isPending) return;
    find.mutate(code);
  };
  if (find.data) {
    return (
      <Page title={t('device.verifyTitle')}>
        <div className="tt-device-login">
          <DeviceDecision ticket={find.data} />
        </div>
      </Page>
    );
  }
  const failure = find.error && !isSessionError(find.error) ? errorMessage(find.error) : null;
  return (
    <Page title={t('device.verifyTitle')}>
      <form className="tt-form tt-device-login" onSubmit={submit} noValidate>
        <p className="tt-hint">{t('device.verifyIntro')}</p>
        <TextField
          label={t('device.codeLabel')}
          value={code}
          onChange={setCode}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={16}
          error={failure ? text(failure) : undefined}
        />
        <Button type="submit" block busy={find.isPending} disabled={code.trim() === ''}>
          {t('common.next')}
        </Button>
      </form>
    </Page>
  );
}
