import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import type { Channel, StepUpBody, StepUpStatus } from '@teltlk/protocol';
import { useEffect, useId, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { api } from '../../api/client';
import { piAccessToken, usePiClient } from '../../api/pi';
import { queryKeys } from '../../api/query-keys';
import type { StepUpRequest } from '../../api/step-up-gate';
import { Button } from '../../ui/button';
import { CodeInput } from '../../ui/code-input';
import { errorMessage, toFormErrors, type Message } from '../../ui/error-message';
import { toastFailure } from '../../ui/failure-toast';
import { PasscodePad } from '../../ui/passcode-pad';
import { QueryError } from '../../ui/query-error';
import { Sheet } from '../../ui/sheet';
import { PageSpinner } from '../../ui/spinner';
import { PasswordField } from '../../ui/text-field';
import { formatDateTime } from '../../ui/time';
import { showToast } from '../../ui/toast';
import { useCountdown } from '../../ui/use-countdown';
import { useMessageText } from '../../ui/use-message';
import { useUiLocale } from '../../ui/use-ui-locale';
import { useSecurityTexts } from '../../i18n/security';
import { codeChannels, mayActNow, stepUpMethods, type StepUpMethod } from './step-up-methods';
import './security.css';

interface ProofProps {
  /** Sends a proof to the server; resolves once it has taken it. */
  prove: (body: StepUpBody) => Promise<StepUpStatus>;
}

/** Checks a proof at the step-up endpoint; the mutation each method form runs. */
function useProof(onProven: () => void) {
  return useMutation({
    mutationFn: (body: StepUpBody) => api.call(routes.security.stepUp, { body }),
    onSuccess: onProven,
  });
}

function PasswordProof({ prove }: ProofProps) {
  const { t } = usePageTexts();
  const { t: ts } = useSecurityTexts();
  const text = useMessageText();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [general, setGeneral] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (busy) return;
    if (!password) {
      setError({ key: 'rule.password' });
      return;
    }
    setBusy(true);
    try {
      await prove({ method: 'password', password });
    } catch (failure) {
      const errors = toFormErrors(failure, {
        fields: ['password'],
        codeFields: { PASSWORD_INCORRECT: 'password' },
        fallback: 'modify',
      });
      setError(errors.fields.password ?? null);
      setGeneral(errors.general);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="tt-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <input type="text" name="username" autoComplete="username" hidden readOnly />
      <PasswordField
        label={ts('stepUp.passwordLabel')}
        autoComplete="current-password"
        autoFocus
        value={password}
        onChange={(value) => {
          setPassword(value);
          setError(null);
        }}
        error={text(error)}
      />
      {general ? (
        <p className="tt-alert" role="alert">
          {text(general)}
        </p>
      ) : null}
      <Button type="submit" block busy={busy}>
        {t('common.confirm')}
      </Button>
    </form>
  );
}

function CodeProof({ prove, status }: ProofProps & { status: StepUpStatus }) {
  const { t } = usePageTexts();
  const { t: ts } = useSecurityTexts();
  const text = useMessageText();
  const legendId = useId();
  const channels = codeChannels(status);
  const [channel, setChannel] = useState<Channel>(channels[0] ?? 'email');
  const [sent, setSent] = useState<{ channel: Channel; sentTo: string; resendAt: number } | null>(
    null,
  );
  const [code, setCode] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [general, setGeneral] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const secondsLeft = useCountdown(sent?.channel === channel ? sent.resendAt : null);
  const send = useMutation({
    mutationFn: () => api.call(routes.security.sendStepUpCode, { body: { channel } }),
    onSuccess: (result) => {
      setSent({ channel, sentTo: result.sentTo, resendAt: Date.now() + result.resendAfter * 1000 });
      showToast(t('code.sent'), { icon: 'success' });
    },
    onError: (failure) => {
      // One went out a moment ago: it is still good, and the wait is what the server says.
      if (failure instanceof ApiError && failure.code === 'CODE_TOO_FREQUENT') {
        const seconds = Number(failure.params?.seconds ?? 60);
        const sentTo = status.methods[channel] ?? '';
        setSent({ channel, sentTo, resendAt: Date.now() + seconds * 1000 });
      }
      toastFailure(failure, 'sendCode');
    },
  });
  const submit = async (value: string) => {
    if (busy) return;
    setGeneral(null);
    if (value.length !== 6) {
      setError({ key: 'rule.code' });
      return;
    }
    setBusy(true);
    try {
      await prove({ method: 'code', channel, code: value });
    } catch (failure) {
      const errors = toFormErrors(failure, {
        fields: ['code'],
        codeFields: { CODE_INVALID: 'code', CODE_EXPIRED: 'code' },
        fallback: 'modify',
      });
      setError(errors.fields.code ?? null);
      setGeneral(errors.general);
      if (errors.fields.code) setCode('');
    } finally {
      setBusy(false);
    }
  };
  const shown = sent?.channel === channel ? sent : null;
  return (
    <form
      className="tt-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit(code);
      }}
    >
      {channels.length > 1 ? (
        <fieldset className="tt-segmented" aria-labelledby={legendId}>
          <legend id={legendId} className="tt-visually-hidden">
            {ts('stepUp.codeChannel')}
          </legend>
          {channels.map((option) => (
            <label key={option}>
              <input
                type="radio"
                name="step-up-channel"
                value={option}
                checked={channel === option}
                onChange={() => {
                  setChannel(option);
                  setCode('');
                  setError(null);
                }}
              />
              {t(`channel.${option}`)}
            </label>
          ))}
        </fieldset>
      ) : null}
      <p className="tt-hint">
        {shown
          ? t('code.sentTo', { destination: shown.sentTo })
          : t('code.notSentYet', { destination: status.methods[channel] ?? '' })}
      </p>
      <div>
        <Button
          variant="secondary"
          small
          busy={send.isPending}
          disabled={secondsLeft > 0}
          onClick={() => send.mutate()}
        >
          {secondsLeft > 0
            ? t('code.resendIn', { seconds: secondsLeft })
            : shown
              ? t('code.resend')
              : t('code.send')}
        </Button>
      </div>
      {shown ? (
        <>
          <CodeInput
            label={t('code.label')}
            value={code}
            onChange={(value) => {
              setCode(value);
              setError(null);
            }}
            onComplete={(value) => void submit(value)}
            error={text(error)}
            disabled={busy}
            autoFocus
          />
          {general ? (
            <p className="tt-alert" role="alert">
              {text(general)}
            </p>
          ) : null}
          <Button type="submit" block busy={busy}>
            {t('common.confirm')}
          </Button>
        </>
      ) : null}
    </form>
  );
}

function PaymentProof({ prove }: ProofProps) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const [passcode, setPasscode] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (password: string) => {
    setBusy(true);
    try {
      await prove({ method: 'payment', password });
    } catch (failure) {
      setPasscode('');
      setError(errorMessage(failure, 'modify'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <PasscodePad
      prompt={t('wallet.enterToPay')}
      value={passcode}
      onChange={(value) => {
        setPasscode(value);
        setError(null);
      }}
      onComplete={(password) => void submit(password)}
      error={text(error)}
      disabled={busy}
    />
  );
}

function PiProof({ prove }: ProofProps) {
  const { t: ts } = useSecurityTexts();
  const { client } = usePiClient();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!client) return;
    setBusy(true);
    try {
      await prove({ method: 'pi', accessToken: await piAccessToken(client) });
    } catch (failure) {
      toastFailure(failure, 'modify');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="tt-form">
      <p className="tt-hint">{ts('stepUp.piIntro')}</p>
      <Button block busy={busy} onClick={() => void confirm()}>
        {ts('stepUp.piButton')}
      </Button>
    </div>
  );
}

/** Why the step-up is asked for, in the person's words: a stale proof, or a new device on hold. */
function Reason({ request, status }: { request: StepUpRequest; status: StepUpStatus }) {
  const { t: ts } = useSecurityTexts();
  const locale = useUiLocale();
  const heldUntil = status.heldUntil;
  return (
    <p className="tt-step-up-reason">
      {request.reason === 'hold' && heldUntil !== null
        ? ts('stepUp.hold', { time: formatDateTime(heldUntil, locale) })
        : ts('stepUp.stale')}
    </p>
  );
}

function Methods({
  request,
  status,
  onProven,
}: {
  request: StepUpRequest;
  status: StepUpStatus;
  onProven: () => void;
}) {
  const { t } = usePageTexts();
  const { t: ts } = useSecurityTexts();
  const legendId = useId();
  const { client } = usePiClient();
  const methods = stepUpMethods(status, request, client?.inPiBrowser ?? false);
  const [chosen, setChosen] = useState<StepUpMethod | null>(null);
  const proof = useProof(onProven);
  const method = chosen && methods.includes(chosen) ? chosen : methods[0];
  const prove = (body: StepUpBody) => proof.mutateAsync(body);
  if (method === undefined) {
    return (
      <p className="tt-alert" role="alert">
        {status.methods.pi ? ts('stepUp.piElsewhere') : t('error.STEP_UP_METHOD_UNAVAILABLE')}
      </p>
    );
  }
  return (
    <>
      {methods.length > 1 ? (
        <fieldset className="tt-segmented" aria-labelledby={legendId}>
          <legend id={legendId} className="tt-visually-hidden">
            {ts('stepUp.methods')}
          </legend>
          {methods.map((option) => (
            <label key={option}>
              <input
                type="radio"
                name="step-up-method"
                value={option}
                checked={method === option}
                onChange={() => setChosen(option)}
              />
              {ts(`stepUp.${option}`)}
            </label>
          ))}
        </fieldset>
      ) : null}
      {method === 'password' ? <PasswordProof prove={prove} /> : null}
      {method === 'code' ? <CodeProof prove={prove} status={status} /> : null}
      {method === 'payment' ? <PaymentProof prove={prove} /> : null}
      {method === 'pi' ? <PiProof prove={prove} /> : null}
    </>
  );
}

/**
 * The one place the app asks a person to prove it is them (see StepUpGate): why, then
 * the ways their account has. Closing it gives up: the refused call fails quietly.
 */
export function StepUpSheet({
  request,
  onDone,
}: {
  request: StepUpRequest;
  onDone: (proven: boolean) => void;
}) {
  const { t: ts } = useSecurityTexts();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: queryKeys.stepUp(),
    queryFn: () => api.call(routes.security.stepUpStatus),
    // Asked afresh at each opening: the proof may have been made in another tab meanwhile,
    // or have run out since.
    staleTime: 0,
  });
  // Only an answer asked for now says the refused call may go again at once: one cached
  // from before may speak of a proof that has run out since.
  const fresh = status.isFetchedAfterMount ? status.data : undefined;
  const alreadyProven = fresh !== undefined && mayActNow(fresh, request);
  const ready = status.data && !alreadyProven ? status.data : null;
  useEffect(() => {
    if (alreadyProven) onDone(true);
  }, [alreadyProven, onDone]);
  const proven = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.stepUp() });
    showToast(ts('stepUp.done'), { icon: 'success' });
    onDone(true);
  };
  return (
    <Sheet visible title={ts('stepUp.title')} onClose={() => onDone(false)} className="tt-step-up">
      <div className="tt-step-up-body">
        {status.error ? (
          <QueryError error={status.error} onRetry={() => void status.refetch()} />
        ) : ready ? (
          <>
            <Reason request={request} status={ready} />
            <Methods request={request} status={ready} onProven={proven} />
          </>
        ) : (
          <PageSpinner />
        )}
      </div>
    </Sheet>
  );
}
