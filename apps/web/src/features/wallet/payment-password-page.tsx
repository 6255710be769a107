import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import { CODE_TTL_SECONDS, type Channel, type WalletResult } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { useMe } from '../../api/queries';
import { paths } from '../../app/paths';
import { Button } from '../../ui/button';
import { CodeInput } from '../../ui/code-input';
import { errorMessage, isHandledError, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { PasscodePad } from '../../ui/passcode-pad';
import { showToast } from '../../ui/toast';
import { useMessageText } from '../../ui/use-message';
import { walletKeys } from '../../api/use-wallet';
import './wallet.css';

type Mode = 'set' | 'change' | 'forget';
type Step = 'code' | 'current' | 'new' | 'again';

const modeOf = (value: string | null): Mode =>
  value === 'change' || value === 'forget' ? value : 'set';

/**
 * `/pages/user/creatPassword`: the six-digit payment password on a passcode pad, entered
 * twice. `?mode=change` asks for the current one first; `?mode=forget` for a code sent to
 * the person's own phone or email (valid 5 minutes) instead.
 */
export function PaymentPasswordPage() {
  const { t } = usePageTexts();
  const text = useMessageText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const mode = modeOf(search.get('mode'));
  const [step, setStep] = useState<Step>(
    mode === 'change' ? 'current' : mode === 'forget' ? 'code' : 'new',
  );
  const [entry, setEntry] = useState('');
  const [current, setCurrent] = useState('');
  const [first, setFirst] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [channel, setChannel] = useState<Channel | null>(null);
  const [code, setCode] = useState('');

  const done = (wallet: WalletResult) => {
    queryClient.setQueryData(walletKeys.wallet(), wallet);
    showToast(t(mode === 'set' ? 'wallet.passwordSet' : 'wallet.passwordChanged'), {
      icon: 'success',
    });
    void navigate(paths.wallet, { replace: true });
  };
  const save = useMutation({
    mutationFn: (password: string) => {
      if (mode === 'change')
        return api.call(routes.wallet.changePassword, {
          body: { currentPassword: current, password },
        });
      if (mode === 'forget')
        return api.call(routes.wallet.resetPassword, {
          body: { channel: channel!, code, password },
        });
      return api.call(routes.wallet.setPassword, { body: { password } });
    },
    onSuccess: done,
    onError: (failure) => {
      // Given up at the step-up: the new password is chosen again when they are ready.
      if (isHandledError(failure)) {
        setError(null);
        setStep(mode === 'change' ? 'current' : 'new');
        return;
      }
      const message = errorMessage(failure, 'modify');
      const code = failure instanceof ApiError ? failure.code : '';
      // Back to where the wrong entry was made.
      if (code === 'PAYMENT_PASSWORD_INCORRECT' || code === 'PAYMENT_PASSWORD_LOCKED') {
        setStep('current');
      } else if (code.startsWith('CODE_')) {
        setCode('');
        setStep('code');
      } else {
        setStep('new');
      }
      setError(message);
    },
  });

  const complete = (passcode: string) => {
    setEntry('');
    if (step === 'current') {
      setCurrent(passcode);
      setError(null);
      setStep('new');
    } else if (step === 'new') {
      setFirst(passcode);
      setError(null);
      setStep('again');
    } else if (passcode !== first) {
      setFirst('');
      setError({ key: 'form.passwordMismatch' });
      setStep('new');
    } else {
      setError(null);
      save.mutate(passcode);
    }
  };

  const title = t(
    mode === 'set'
      ? 'wallet.setPassword'
      : mode === 'change'
        ? 'wallet.changePassword'
        : 'wallet.forgotPassword',
  );
  const prompt = t(
    step === 'current'
      ? 'wallet.enterCurrent'
      : step === 'new'
        ? 'wallet.enterNew'
        : 'wallet.enterAgain',
  );
  return (
    <Page title={title}>
      {step === 'code' ? (
        <CodeStep
          channel={channel}
          onChannel={setChannel}
          code={code}
          onCode={setCode}
          error={error}
          onDone={() => {
            setError(null);
            setStep('new');
          }}
        />
      ) : (
        <PasscodePad
          // A fresh pad per step, so the native input starts empty and focused.
          key={step}
          prompt={prompt}
          value={entry}
          onChange={setEntry}
          onComplete={complete}
          error={text(error)}
          disabled={save.isPending}
        />
      )}
    </Page>
  );
}

function CodeStep({
  channel,
  onChannel,
  code,
  onCode,
  error,
  onDone,
}: {
  channel: Channel | null;
  onChannel: (channel: Channel) => void;
  code: string;
  onCode: (code: string) => void;
  error: Message | null;
  onDone: () => void;
}) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const me = useMe();
  const channels = (['phone', 'email'] as const).filter((c) => me.data?.[c]);
  const chosen = channel ?? channels[0] ?? null;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (via: Channel) => api.call(routes.wallet.sendResetCode, { body: { channel: via } }),
    onSuccess: (result, via) => {
      onChannel(via);
      setSentTo(result.sentTo);
    },
  });
  const failure = send.error ? errorMessage(send.error, 'sendCode') : error;
  return (
    <div className="tt-form">
      {channels.length > 1 ? (
        <fieldset className="tt-filter-tabs">
          <legend>{t('wallet.codeVia')}</legend>
          {channels.map((c) => (
            <Button
              key={c}
              small
              variant={c === chosen ? 'primary' : 'secondary'}
              aria-pressed={c === chosen}
              onClick={() => onChannel(c)}
            >
              {me.data?.[c]}
            </Button>
          ))}
        </fieldset>
      ) : null}
      {sentTo ? (
        <p className="tt-hint">
          {t('wallet.codeSentTo', { to: sentTo, minutes: CODE_TTL_SECONDS.wallet / 60 })}
        </p>
      ) : null}
      <Button
        block
        variant="secondary"
        busy={send.isPending}
        disabled={!chosen}
        onClick={() => chosen && send.mutate(chosen)}
      >
        {t('wallet.sendCode')}
      </Button>
      <CodeInput
        label={t('wallet.code')}
        value={code}
        onChange={onCode}
        onComplete={() => sentTo && onDone()}
        error={text(failure)}
      />
      <Button block disabled={!sentTo || code.length < 6} onClick={onDone}>
        {t('common.next')}
      </Button>
    </div>
  );
}
