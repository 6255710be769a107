import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { paths } from '../../app/paths';
import { readDestination, type DestinationParams } from '../../app/route-params';
import { Button } from '../../ui/button';
import { toFormErrors, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { useMessageText } from '../../ui/use-message';
import { CodeSection } from './code-section';
import { MissingDestination } from './missing-destination';
import { useApplyAuth } from './use-apply-auth';

function LoginWithCode({ target }: { target: DestinationParams }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const navigate = useNavigate();
  const applyAuth = useApplyAuth();
  const [code, setCode] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [general, setGeneral] = useState<Message | null>(null);

  const login = useMutation({
    mutationFn: (value: string) => api.loginWithCode({ code: value, ...target }),
    onSuccess: async (result) => {
      await applyAuth(result);
      void navigate(paths.root, { replace: true });
    },
    onError: (failure) => {
      const errors = toFormErrors(failure, {
        fields: ['code'],
        codeFields: { CODE_INVALID: 'code', CODE_EXPIRED: 'code' },
        fallback: 'login',
      });
      setError(errors.fields.code ?? null);
      setGeneral(errors.general);
      // A wrong code is typed again from the start.
      if (errors.fields.code) setCode('');
    },
  });

  const submit = (value: string) => {
    if (login.isPending) return;
    setGeneral(null);
    if (value.length !== 6) {
      setError({ key: 'rule.code' });
      return;
    }
    setError(null);
    login.mutate(value);
  };

  return (
    <Page title={t('codeLogin.title')}>
      <form
        className="tt-auth tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit(code);
        }}
      >
        <CodeSection
          purpose="login"
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
        <Button type="submit" block busy={login.isPending}>
          {t('codeLogin.submit')}
        </Button>
      </form>
    </Page>
  );
}

/** `/pages/sendCode/phoneCode?channel=&destination=`: enter the sign-in code. */
export function PhoneCodePage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const target = readDestination(search);
  if (!target)
    return <MissingDestination title={t('codeLogin.title')} restartPath={paths.mobileLogin} />;
  return <LoginWithCode key={`${target.channel}:${target.destination}`} target={target} />;
}
