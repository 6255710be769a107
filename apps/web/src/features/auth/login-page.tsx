import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { BrandLogo } from '../../ui/brand-logo';
import { Button } from '../../ui/button';
import type { FormErrors, Message } from '../../ui/error-message';
import { PasswordField, TextField } from '../../ui/text-field';
import { useMessageText } from '../../ui/use-message';
import { LanguageSelect } from './language-select';
import { LegalLinks } from './legal-links';
import type { LoginField as Field } from './login-request';
import { useApplyAuth } from './use-apply-auth';

/**
 * The calls load on the first focus in the form (or the first submit), not with the page:
 * the page shows and answers sooner on a slow phone, and the code is there before the
 * person has finished typing.
 */
const loadRequests = () => import('./login-request');

/** `/` and `/pages/login/login`: sign in with phone, email or Teltlk ID and a password. */
export function LoginPage() {
  const { t } = useTranslation();
  const text = useMessageText();
  const navigate = useNavigate();
  const applyAuth = useApplyAuth();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {}, general: null });

  useEffect(() => {
    document.title = t('common.appName');
  }, [t]);

  const login = useMutation({
    mutationFn: async () => (await loadRequests()).signInWithPassword(account, password),
    onSuccess: async (result) => {
      await applyAuth(result);
      void navigate(paths.root, { replace: true });
    },
    onError: async (failure) => setErrors((await loadRequests()).loginErrors(failure)),
  });

  const submit = () => {
    const fields: Partial<Record<Field, Message>> = {};
    if (!account.trim()) fields.account = { key: 'rule.account' };
    if (!password) fields.password = { key: 'rule.password' };
    setErrors({ fields, general: null });
    if (Object.keys(fields).length === 0) login.mutate();
  };

  return (
    <main className="tt-page">
      <div className="tt-login-top">
        <LanguageSelect />
      </div>
      <div className="tt-auth">
        <div className="tt-brand">
          <BrandLogo />
          <h1>{t('login.welcome')}</h1>
          <p>{t('login.tagline')}</p>
        </div>
        <form
          className="tt-form"
          noValidate
          aria-label={t('login.title')}
          onFocus={() => void loadRequests()}
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
            error={text(errors.fields.account)}
          />
          <PasswordField
            label={t('login.password')}
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={text(errors.fields.password)}
          />
          {errors.general ? (
            <p className="tt-alert" role="alert">
              {text(errors.general)}
            </p>
          ) : null}
          <Button type="submit" block busy={login.isPending}>
            {t('login.submit')}
          </Button>
          <div className="tt-auth-links">
            <Link className="tt-link-button" to={paths.mobileLogin}>
              {t('login.codeLogin')}
            </Link>
            <Link className="tt-link-button" to={paths.forget}>
              {t('login.forgot')}
            </Link>
          </div>
        </form>
        <Link className="tt-button tt-button-secondary tt-button-block" to={paths.register}>
          {t('login.register')}
        </Link>
        <LegalLinks />
      </div>
    </main>
  );
}
