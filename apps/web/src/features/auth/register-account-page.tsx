import { nicknameSchema, NICKNAME_MAX_LENGTH, passwordSchema } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { Button } from '../../ui/button';
import type { Message } from '../../ui/error-message';
import { PasswordField, TextField } from '../../ui/text-field';
import { useMessageText } from '../../ui/use-message';
import { checkField, checkPasswordPair, hasErrors } from '../../ui/validation';
import { RegisterStepPage } from './register-step';
import { useRegistrationDraft } from './registration-draft';

/** `/pages/register/nikename`: nickname and password (no password for an account made through Pi). */
export function RegisterAccountPage() {
  const { t } = usePageTexts();
  const text = useMessageText();
  const navigate = useNavigate();
  const draft = useRegistrationDraft();
  const [nickname, setNickname] = useState(draft.nickname);
  const [password, setPassword] = useState(draft.password);
  const [confirmation, setConfirmation] = useState(draft.password);
  const [errors, setErrors] = useState<
    Record<'nickname' | 'password' | 'confirmation', Message | null>
  >({
    nickname: null,
    password: null,
    confirmation: null,
  });

  const throughPi = draft.pi !== null;

  const submit = () => {
    const next = {
      nickname: checkField(nicknameSchema, nickname),
      ...(throughPi
        ? { password: null, confirmation: null }
        : checkPasswordPair(passwordSchema, password, confirmation)),
    };
    setErrors(next);
    if (hasErrors(next)) return;
    draft.update({ nickname: nickname.trim(), password });
    void navigate(paths.selectRegion);
  };

  return (
    <RegisterStepPage
      step="account"
      title={t('register.accountTitle')}
      intro={t('register.accountIntro')}
    >
      <form
        className="tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextField
          label={t('register.nickname')}
          autoComplete="nickname"
          maxLength={NICKNAME_MAX_LENGTH}
          value={nickname}
          onChange={setNickname}
          error={text(errors.nickname)}
        />
        {throughPi ? null : (
          <>
            <PasswordField
              label={t('register.password')}
              autoComplete="new-password"
              value={password}
              onChange={setPassword}
              hint={t('form.passwordHint')}
              error={text(errors.password)}
            />
            <PasswordField
              label={t('register.confirmPassword')}
              autoComplete="new-password"
              value={confirmation}
              onChange={setConfirmation}
              error={text(errors.confirmation)}
            />
          </>
        )}
        <Button type="submit" block>
          {t('common.next')}
        </Button>
      </form>
    </RegisterStepPage>
  );
}
