import { useMutation } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import { inviteCodeSchema, type AuthResult } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { handOverIncomplete } from '../../api/pi';
import { paths } from '../../app/paths';
import { currentUiLanguage } from '../../i18n/index';
import { Button } from '../../ui/button';
import { errorMessage, isHandledError, ruleMessage, type Message } from '../../ui/error-message';
import { TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { messageText, useMessageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';
import { RegisterStepPage, registerStepPath } from './register-step';
import { useRegistrationDraft, type RegisterStep } from './registration-draft';
import { useApplyAuth } from './use-apply-auth';

/** Which page fixes a field the server rejected. */
const fieldSteps: Record<string, RegisterStep> = {
  nickname: 'account',
  password: 'account',
  country: 'region',
  motherTongue: 'language',
};

/** `/pages/register/invitCode`: optional invitation code, then the account is created. */
export function InviteCodePage() {
  const { t } = usePageTexts();
  const text = useMessageText();
  const navigate = useNavigate();
  const applyAuth = useApplyAuth();
  const draft = useRegistrationDraft();
  const [inviteCode, setInviteCode] = useState(draft.inviteCode);
  const [error, setError] = useState<Message | null>(null);

  const restart = (message: Message) => {
    showToast(messageText(message));
    // Through Pi, a new ticket comes from signing in with Pi again.
    if (draft.pi) {
      draft.update({ pi: null });
      void navigate(paths.piLogin, { replace: true });
      return;
    }
    draft.update({ ticket: null });
    void navigate(paths.register, { replace: true });
  };

  const register = useMutation({
    mutationFn: (code: string | undefined) => {
      const fields = {
        nickname: draft.nickname,
        country: draft.country ?? '',
        motherTongue: draft.motherTongue ?? '',
        inviteCode: code,
        uiLanguage: currentUiLanguage(),
      };
      return draft.pi
        ? api.call(routes.pi.register, { body: { ticket: draft.pi.ticket, ...fields } })
        : api.call(routes.auth.register, {
            body: { ticket: draft.ticket ?? '', password: draft.password, ...fields },
          });
    },
    onSuccess: async (result: AuthResult) => {
      // Signed in first, so the step guard does not see an empty draft and send the
      // person back to the start on the way home.
      await applyAuth(result);
      if (draft.pi) void handOverIncomplete();
      draft.reset();
      showToast(t('register.welcome'), { icon: 'success' });
      void navigate(paths.root, { replace: true });
    },
    onError: (failure) => {
      if (isHandledError(failure)) return;
      if (failure instanceof ApiError) {
        if (failure.code === 'INVITE_CODE_INVALID') return setError(errorMessage(failure));
        // The verification ran out (30 minutes) or the account appeared meanwhile: start over.
        if (
          failure.code === 'TICKET_INVALID' ||
          failure.code === 'PI_TICKET_INVALID' ||
          failure.code === 'ACCOUNT_REGISTERED'
        ) {
          return restart(errorMessage(failure));
        }
        const issue = failure.issues?.[0];
        if (issue?.path === 'inviteCode') return setError(ruleMessage(issue.rule));
        if (issue?.path === 'ticket') return restart({ key: 'error.TICKET_INVALID' });
        const step = issue ? fieldSteps[issue.path] : undefined;
        if (issue && step) {
          showToast(messageText(ruleMessage(issue.rule)));
          void navigate(registerStepPath(step));
          return;
        }
      }
      showToast(messageText(errorMessage(failure, 'register')));
    },
  });

  const finish = () => {
    const code = inviteCode.trim();
    const invalid = code ? checkField(inviteCodeSchema, code) : null;
    setError(invalid);
    if (invalid) return;
    draft.update({ inviteCode: code });
    register.mutate(code || undefined);
  };

  return (
    <RegisterStepPage
      step="invite"
      title={t('register.inviteTitle')}
      intro={t('register.inviteIntro')}
    >
      <form
        className="tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          finish();
        }}
      >
        <TextField
          label={t('register.inviteCode')}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={16}
          value={inviteCode}
          onChange={setInviteCode}
          hint={t('register.inviteHint')}
          error={text(error)}
        />
        <Button type="submit" block busy={register.isPending}>
          {t('register.finish')}
        </Button>
        <Button
          variant="secondary"
          block
          disabled={register.isPending}
          onClick={() => {
            setError(null);
            register.mutate(undefined);
          }}
        >
          {t('register.skip')}
        </Button>
      </form>
    </RegisterStepPage>
  );
}
