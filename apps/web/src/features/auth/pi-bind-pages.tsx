import { useMutation } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import { nicknameSchema, NICKNAME_MAX_LENGTH, passwordInputSchema } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Navigate, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { handOverIncomplete } from '../../api/pi';
import { paths } from '../../app/paths';
import { Button } from '../../ui/button';
import { toFormErrors, type FormErrors } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { PasswordField, TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { messageText, useMessageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';
import { DestinationForm } from './destination-form';
import { useLaterStepsFetched } from './later-steps';
import { useRegistrationDraft } from './registration-draft';
import { useApplyAuth } from './use-apply-auth';

/** A Pi username as a first nickname, when it is one; otherwise the person types one. */
function nicknameFrom(username: string): string {
  const candidate = username.slice(0, NICKNAME_MAX_LENGTH);
  return checkField(nicknameSchema, candidate) ? '' : candidate;
}

/**
 * `/pages/login/bindTips`: a Pi account no Teltlk account holds yet. Make a new account
 * for it (the registration steps, nickname from the Pi username, no password), or bind
 * the account the person already has.
 */
export function BindTipsPage() {
  const { t } = usePageTexts();
  const navigate = useNavigate();
  const draft = useRegistrationDraft();
  useLaterStepsFetched(false);
  if (!draft.pi) return <Navigate to={paths.piLogin} replace />;
  const { username } = draft.pi;
  return (
    <Page title={t('pi.bindTipsTitle')}>
      <div className="tt-auth">
        <p className="tt-hint">{t('pi.bindTips', { username })}</p>
        <Button
          block
          onClick={() => {
            draft.update({ nickname: draft.nickname || nicknameFrom(username), password: '' });
            void navigate(paths.registerAccount);
          }}
        >
          {t('pi.createAccount')}
        </Button>
        <Button variant="secondary" block onClick={() => void navigate(paths.bindAccount)}>
          {t('pi.bindExisting')}
        </Button>
      </div>
    </Page>
  );
}

type BindField = 'account' | 'password';

/**
 * `/pages/login/bindAccount`: the person proves an existing account is theirs (its
 * password, or a code to its phone or email) and it is bound to their Pi account.
 */
export function BindAccountPage() {
  const { t } = usePageTexts();
  const text = useMessageText();
  const navigate = useNavigate();
  const applyAuth = useApplyAuth();
  const draft = useRegistrationDraft();
  const [proof, setProof] = useState<'password' | 'code'>('password');
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors<BindField>>({ fields: {}, general: null });
  const ticket = draft.pi?.ticket ?? '';

  const bind = useMutation({
    mutationFn: () =>
      api.call(routes.pi.bind, { body: { proof: 'password', ticket, account, password } }),
    onSuccess: async (result) => {
      await applyAuth(result);
      draft.reset();
      void handOverIncomplete();
      showToast(t('security.piBoundDone'), { icon: 'success' });
      void navigate(paths.root, { replace: true });
    },
    onError: (failure) => {
      const found = toFormErrors(failure, {
        fields: ['account', 'password'],
        codeFields: { ACCOUNT_NOT_FOUND: 'account', PASSWORD_INCORRECT: 'password' },
        fallback: 'login',
      });
      // The ticket ran out: back to signing in with Pi for a new one.
      if (found.general?.key === 'error.PI_TICKET_INVALID') {
        showToast(messageText(found.general));
        draft.update({ pi: null });
        void navigate(paths.piLogin, { replace: true });
        return;
      }
      setErrors(found);
    },
  });

  if (!draft.pi) return <Navigate to={paths.piLogin} replace />;

  const submit = () => {
    const fields = {
      account: account.trim() ? null : ({ key: 'rule.account' } as const),
      password: checkField(passwordInputSchema, password),
    };
    setErrors({
      fields: Object.fromEntries(Object.entries(fields).filter(([, value]) => value)),
      general: null,
    });
    if (!fields.account && !fields.password) bind.mutate();
  };

  return (
    <Page title={t('pi.bindTitle')}>
      <div className="tt-auth">
        <p className="tt-hint">{t('pi.bindIntro')}</p>
        <fieldset className="tt-segmented">
          <legend className="tt-visually-hidden">{t('pi.bindIntro')}</legend>
          {(['password', 'code'] as const).map((value) => (
            <label key={value}>
              <input
                type="radio"
                name="proof"
                value={value}
                checked={proof === value}
                onChange={() => setProof(value)}
              />
              {value === 'password' ? t('pi.byPassword') : t('pi.byCode')}
            </label>
          ))}
        </fieldset>
        {proof === 'password' ? (
          <form
            className="tt-form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <TextField
              label={t('login.account')}
              placeholder={t('login.accountPlaceholder')}
              autoComplete="username"
              autoCapitalize="off"
              spellCheck={false}
              value={account}
              onChange={setAccount}
              error={text(errors.fields.account ?? null)}
            />
            <PasswordField
              label={t('login.password')}
              autoComplete="current-password"
              value={password}
              onChange={setPassword}
              error={text(errors.fields.password ?? null)}
            />
            {errors.general ? (
              <p className="tt-alert" role="alert">
                {text(errors.general)}
              </p>
            ) : null}
            <Button type="submit" block busy={bind.isPending}>
              {t('pi.bindSubmit')}
            </Button>
          </form>
        ) : (
          <DestinationForm
            purpose="login"
            codePath={paths.phoneCode}
            codeQuery={{ bind: 'pi' }}
            submitLabel={t('codeLogin.getCode')}
          />
        )}
      </div>
    </Page>
  );
}
