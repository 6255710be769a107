import { useMutation } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { paths } from '../../app/paths';
import { readDestination, readPurpose, type DestinationParams } from '../../app/route-params';
import { Button } from '../../ui/button';
import { toFormErrors, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { showToast } from '../../ui/toast';
import { messageText, useMessageText } from '../../ui/use-message';
import { CodeSection } from './code-section';
import { MissingDestination } from './missing-destination';
import { useRegistrationDraft } from './registration-draft';

function VerifyRegistrationCode({ target }: { target: DestinationParams }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const navigate = useNavigate();
  const update = useRegistrationDraft((state) => state.update);
  const [code, setCode] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [general, setGeneral] = useState<Message | null>(null);

  const verify = useMutation({
    mutationFn: (value: string) => api.verifyCode({ purpose: 'register', code: value, ...target }),
    onSuccess: ({ ticket }) => {
      update({ ...target, ticket });
      void navigate(paths.registerAccount);
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.code === 'ACCOUNT_REGISTERED') {
        showToast(messageText({ key: 'error.ACCOUNT_REGISTERED' }));
        void navigate(paths.register, { replace: true });
        return;
      }
      const errors = toFormErrors(failure, {
        fields: ['code'],
        codeFields: { CODE_INVALID: 'code', CODE_EXPIRED: 'code' },
        fallback: 'register',
      });
      setError(errors.fields.code ?? null);
      setGeneral(errors.general);
      // A wrong code is typed again from the start.
      if (errors.fields.code) setCode('');
    },
  });

  const submit = (value: string) => {
    if (verify.isPending) return;
    setGeneral(null);
    if (value.length !== 6) {
      setError({ key: 'rule.code' });
      return;
    }
    setError(null);
    verify.mutate(value);
  };

  return (
    <Page title={t('code.title')}>
      <form
        className="tt-auth tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit(code);
        }}
      >
        <CodeSection
          purpose="register"
          channel={target.channel}
          destination={target.destination}
          code={code}
          onCodeChange={(value) => {
            setCode(value);
            if (error) setError(null);
          }}
          onComplete={submit}
          error={text(error)}
        />
        {general ? (
          <p className="tt-alert" role="alert">
            {text(general)}
          </p>
        ) : null}
        <Button type="submit" block busy={verify.isPending}>
          {t('code.submit')}
        </Button>
      </form>
    </Page>
  );
}

/** `/pages/sendCode/sendCode?purpose=register&channel=&destination=`: the registration code. */
export function SendCodePage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const target = readDestination(search);
  const purpose = readPurpose(search);
  if (!target || purpose !== 'register') {
    return <MissingDestination title={t('code.title')} restartPath={paths.register} />;
  }
  // A new destination gets fresh state (typed code, errors).
  return <VerifyRegistrationCode key={`${target.channel}:${target.destination}`} target={target} />;
}
