import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import type { DeviceLoginDecision, DeviceLoginView, StepUpStatus } from '@teltlk/protocol';
import { useId, useState, type FormEvent } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { paths, withQuery } from '../../app/paths';
import { Button } from '../../ui/button';
import { countryName } from '../../ui/countries';
import { errorMessage, isHandledError, type Message } from '../../ui/error-message';
import { PasscodePad } from '../../ui/passcode-pad';
import { QueryError } from '../../ui/query-error';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { PageSpinner } from '../../ui/spinner';
import { PasswordField, TextField } from '../../ui/text-field';
import { relativeTime } from '../../ui/time';
import { useMessageText } from '../../ui/use-message';
import { summariseUserAgent } from '../../ui/user-agent';
import { useSecurityTexts } from '../../i18n/security';
import { QrScanner } from './qr-scanner';
import { ticketFromScan } from './device-ticket-socket';
import './devices.css';

type DecisionProof = 'password' | 'payment' | 'none';

/**
 * How the approver proves it is them: the account password, or the payment password for
 * an account with none; an account with neither (made through Pi) steps up instead, when
 * the server asks.
 */
function proofOf(methods: StepUpStatus['methods']): DecisionProof {
  if (methods.password) return 'password';
  return methods.payment ? 'payment' : 'none';
}

/** The three numbers, one of them the asking screen's: picked by a tap, read as radios. */
function MatchChoices({
  choices,
  value,
  onChange,
  error,
  disabled,
}: {
  choices: readonly string[];
  value: string | null;
  onChange: (value: string) => void;
  error?: string;
  disabled: boolean;
}) {
  const { t: ts } = useSecurityTexts();
  const legendId = useId();
  const errorId = useId();
  return (
    <fieldset
      className="tt-device-match"
      aria-labelledby={legendId}
      aria-describedby={error ? errorId : undefined}
    >
      <legend id={legendId}>{ts('device.matchTitle')}</legend>
      <div className="tt-device-match-choices">
        {choices.map((choice) => (
          <label key={choice}>
            <input
              type="radio"
              name="device-match"
              value={choice}
              checked={value === choice}
              disabled={disabled}
              onChange={() => onChange(choice)}
            />
            {choice}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="tt-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

type Decided =
  | { state: DeviceLoginView['state'] }
  /** A wrong number: the server refused the ticket, so the person starts again there. */
  | { state: 'wrongMatch' };

/**
 * The device that asks to be signed in, and the two answers. Approving signs that device
 * in to this account at once, so it asks for the number the other screen shows and the
 * password; refusing needs nothing.
 */
function DeviceDecision({ ticket }: { ticket: DeviceLoginView }) {
  const { t } = usePageTexts();
  const { t: ts } = useSecurityTexts();
  const text = useMessageText();
  const locale = useUiLocale();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: queryKeys.stepUp(),
    queryFn: () => api.call(routes.security.stepUpStatus),
  });
  const [decided, setDecided] = useState<Decided | null>(
    ticket.state === 'pending' ? null : { state: ticket.state },
  );
  const [match, setMatch] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [passcode, setPasscode] = useState('');
  const [errors, setErrors] = useState<{
    /** No number was tapped. */
    match?: boolean;
    password?: Message;
    general?: Message;
  }>({});
  const decide = useMutation({
    mutationFn: (decision: DeviceLoginDecision) =>
      api.call(routes.deviceLogins.decide, { params: { id: ticket.id }, body: decision }),
    onSuccess: (result) => {
      setDecided({ state: result.state });
      // The session list now holds the new device.
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions() });
    },
    onError: (failure) => {
      setPasscode('');
      if (isHandledError(failure)) return;
      const code = failure instanceof ApiError ? failure.code : null;
      if (code === 'DEVICE_MATCH_WRONG') setDecided({ state: 'wrongMatch' });
      else if (code === 'PASSWORD_INCORRECT' || code === 'PAYMENT_PASSWORD_INCORRECT') {
        setErrors({ password: errorMessage(failure) });
      } else setErrors({ general: errorMessage(failure) });
    },
  });
  const proof = status.data ? proofOf(status.data.methods) : null;
  const approve = (typedPasscode = passcode) => {
    if (decide.isPending || proof === null) return;
    const secret = proof === 'payment' ? typedPasscode : password;
    const missing = {
      match: match === null ? true : undefined,
      password:
        proof !== 'none' && secret === ''
          ? ({ key: proof === 'payment' ? 'rule.paymentPassword' : 'rule.password' } as const)
          : undefined,
    };
    setErrors(missing);
    if (match === null || missing.password) {
      if (proof === 'payment') setPasscode('');
      return;
    }
    decide.mutate({
      approve: true,
      match,
      ...(proof === 'none' ? {} : { proof: { method: proof, password: secret } }),
    });
  };
  const summary = summariseUserAgent(ticket.userAgent);
  const device = t('security.device', {
    browser: summary.browser ?? t('security.unknownBrowser'),
    os: summary.os ?? t('security.unknownOs'),
  });

  if (decided !== null) {
    return (
      <div className="tt-empty" role={decided.state === 'wrongMatch' ? 'alert' : 'status'}>
        <p>
          {decided.state === 'wrongMatch'
            ? t('error.DEVICE_MATCH_WRONG')
            : decided.state === 'refused'
              ? ts('device.refusedDone')
              : decided.state === 'pending'
                ? ts('device.expired')
                : ts('device.approved')}
        </p>
        <Button onClick={() => void navigate(paths.root, { replace: true })}>
          {ts('device.done')}
        </Button>
      </div>
    );
  }
  return (
    <section className="tt-device-decision" aria-labelledby="device-ask">
      <h2 id="device-ask">{ts('device.confirmTitle')}</h2>
      <dl className="tt-device-facts">
        <dt>{ts('device.deviceLabel')}</dt>
        <dd data-testid="device-login-device">{device}</dd>
        {ticket.ip ? (
          <>
            <dt>{ts('device.addressLabel')}</dt>
            <dd>{ticket.ip}</dd>
          </>
        ) : null}
        {ticket.country ? (
          <>
            <dt>{ts('device.placeLabel')}</dt>
            <dd data-testid="device-login-place">{countryName(ticket.country, locale)}</dd>
          </>
        ) : null}
        <dt>{ts('device.askedLabel')}</dt>
        <dd>{relativeTime(ticket.createdAt, Date.now(), locale)}</dd>
      </dl>
      <p className="tt-hint">{ts('device.confirmIntro')}</p>
      <form
        className="tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          approve();
        }}
      >
        <MatchChoices
          choices={ticket.choices}
          value={match}
          onChange={(value) => {
            setMatch(value);
            setErrors((current) => ({ ...current, match: undefined }));
          }}
          error={errors.match ? ts('device.matchMissing') : undefined}
          disabled={decide.isPending}
        />
        {status.error ? (
          <QueryError error={status.error} onRetry={() => void status.refetch()} />
        ) : proof === null ? (
          <PageSpinner />
        ) : proof === 'password' ? (
          <>
            <input type="text" name="username" autoComplete="username" hidden readOnly />
            <PasswordField
              label={ts('device.passwordLabel')}
              autoComplete="current-password"
              value={password}
              onChange={(value) => {
                setPassword(value);
                setErrors((current) => ({ ...current, password: undefined }));
              }}
              error={text(errors.password)}
            />
          </>
        ) : proof === 'payment' ? (
          <PasscodePad
            prompt={ts('device.paymentPrompt')}
            value={passcode}
            onChange={(value) => {
              setPasscode(value);
              setErrors((current) => ({ ...current, password: undefined }));
            }}
            onComplete={(value) => approve(value)}
            error={text(errors.password)}
            disabled={decide.isPending}
          />
        ) : null}
        {errors.general ? (
          <p className="tt-alert" role="alert">
            {text(errors.general)}
          </p>
        ) : null}
        <div className="tt-device-actions">
          <Button type="submit" block busy={decide.isPending} disabled={proof === null}>
            {ts('device.approve')}
          </Button>
          <Button
            block
            variant="secondary"
            disabled={decide.isPending}
            onClick={() => decide.mutate({ approve: false })}
          >
            {ts('device.refuse')}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** A ticket named by a scanned link. */
function TicketById({ id }: { id: string }) {
  const { t: ts } = useSecurityTexts();
  const text = useMessageText();
  const ticket = useQuery({
    queryKey: queryKeys.deviceLogin(id),
    queryFn: () => api.call(routes.deviceLogins.view, { params: { id } }),
    retry: (count, error) => !(error instanceof ApiError) && count < 2,
    staleTime: Infinity,
  });
  if (ticket.data) return <DeviceDecision ticket={ticket.data} />;
  if (ticket.error) {
    return (
      <div className="tt-empty">
        <p role="alert">{text(errorMessage(ticket.error, 'load'))}</p>
        <Link className="tt-button tt-button-secondary" to={paths.mobileDevice} replace>
          {ts('device.scanAgain')}
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
  const { t: ts } = useSecurityTexts();
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
    <Page title={ts('device.scanTitle')}>
      <div className="tt-device-login">
        {ticket ? (
          <TicketById key={ticket} id={ticket} />
        ) : (
          <>
            <p className="tt-hint">{ts('device.scanIntro')}</p>
            <QrScanner onScan={scanned} />
            {notOurs ? (
              <p className="tt-alert" role="alert">
                {ts('device.notLoginCode')}
              </p>
            ) : null}
            <Link className="tt-link-button" to={paths.verification}>
              {ts('device.typeCode')}
            </Link>
          </>
        )}
      </div>
    </Page>
  );
}

/** `/verification`: approve a device that shows no QR code to scan, by its short code. */
export function VerificationPage() {
  const { t } = usePageTexts();
  const { t: ts } = useSecurityTexts();
  const text = useMessageText();
  const [code, setCode] = useState('');
  const find = useMutation({
    mutationFn: (typed: string) => api.call(routes.deviceLogins.lookup, { body: { code: typed } }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '' || find.isPending) return;
    find.mutate(code);
  };
  if (find.data) {
    return (
      <Page title={ts('device.verifyTitle')}>
        <div className="tt-device-login">
          <DeviceDecision ticket={find.data} />
        </div>
      </Page>
    );
  }
  const failure = find.error && !isHandledError(find.error) ? errorMessage(find.error) : null;
  return (
    <Page title={ts('device.verifyTitle')}>
      <form className="tt-form tt-device-login" onSubmit={submit} noValidate>
        <p className="tt-hint">{ts('device.verifyIntro')}</p>
        <TextField
          label={ts('device.codeLabel')}
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
