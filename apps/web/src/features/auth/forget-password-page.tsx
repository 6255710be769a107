import { useMutation } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import { passwordSchema } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { paths } from '../../app/paths';
import { readDestination, type DestinationParams } from '../../app/route-params';
import { Button } from '../../ui/button';
import { toFormErrors, type FormErrors } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { PasswordField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { useMessageText } from '../../ui/use-message';
import { checkPasswordPair, hasErrors } from '../../ui/validation';
import { CodeSection } from './code-section';
import { MissingDestination } from './missing-destination';

type Field = 'code' | 'password' | 'confirmation';

function ResetPassword({ target }: { target: DestinationParams }) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {}, general: null });

  const reset = useMutation({
    mutationFn: () => api.call(routes.auth.resetPassword, { body: { code, password, ...target } }),
    onSuccess: () => {
      showToast(t('forget.done'), { icon: 'success', duration: 2500 });
      void navigate(paths.root, { replace: true });
    },
    onError: (failure) =>
      setErrors(
        toFormErrors(failure, {
          fields: ['code', 'password'],
          codeFields: { CODE_INVALID: 'code', CODE_EXPIRED: 'code' },
          fallback: 'modify',
        }),
      ),
  });

  const submit = () => {
    const pair = checkPasswordPair(passwordSchema, password, confirmation);
    const fields = {
      code: code.length === 6 ? null : ({ key: 'rule.code' } as const),
      password: pair.password,
      confirmation: pair.confirmation,
    };
    setErrors({
      fields: Object.fromEntries(Object.entries(fields).filter(([, value]) => value)),
      general: null,
    });
    if (!hasErrors(fields)) reset.mutate();
  };

  return (
    <Page title={t('forget.newTitle')}>
      <form
        className="tt-auth tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <CodeSection
          purpose="reset"
          channel={target.channel}
          destination={target.destination}
          code={code}
          onCodeChange={setCode}
          error={text(errors.fields.code)}
        />
        <PasswordField
          label={t('forget.newPassword')}
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          hint={t('form.passwordHint')}
          error={text(errors.fields.password)}
        />
        <PasswordField
          label={t('forget.confirmPassword')}
          autoComplete="new-password"
          value={confirmation}
          onChange={setConfirmation}
          error={text(errors.fields.confirmation)}
        />
        {errors.general ? (
          <p className="tt-alert" role="alert">
            {text(errors.general)}
          </p>
        ) : null}
        <Button type="submit" block busy={reset.isPending}>
          {t('forget.submit')}
        </Button>
      </form>
    </Page>
  );
}

/** `/pages/sendCode/forgetPassword?channel=&destination=`: code plus the new password. */
export function ForgetPasswordPage() {
  const { t } = usePageTexts();
  const [search] = useSearchParams();
  const target = readDestination(search);
  if (!target)
    return <MissingDestination title={t('forget.newTitle')} restartPath={paths.forget} />;
  return <ResetPassword key={`${target.channel}:${target.destination}`} target={target} />;
}
