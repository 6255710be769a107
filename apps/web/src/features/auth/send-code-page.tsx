import { ApiError } from '@teltlk/im-sdk';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { paths } from '../../app/paths';
import { readDestination, readPurpose, type DestinationParams } from '../../app/route-params';
import { showToast } from '../../ui/toast';
import { messageText } from '../../ui/use-message';
import { CodeEntryForm } from './code-entry-form';
import { MissingDestination } from './missing-destination';
import { useRegistrationDraft } from './registration-draft';

function VerifyRegistrationCode({ target }: { target: DestinationParams }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const update = useRegistrationDraft((state) => state.update);
  return (
    <CodeEntryForm
      purpose="register"
      target={target}
      title={t('code.title')}
      submitLabel={t('code.submit')}
      fallback="register"
      redeem={(code) => api.verifyCode({ purpose: 'register', code, ...target })}
      onRedeemed={({ ticket }) => {
        update({ ...target, ticket });
        void navigate(paths.registerAccount);
      }}
      onFailure={(failure) => {
        // Someone registered this destination meanwhile: start over with another.
        if (!(failure instanceof ApiError && failure.code === 'ACCOUNT_REGISTERED')) return false;
        showToast(messageText({ key: 'error.ACCOUNT_REGISTERED' }));
        void navigate(paths.register, { replace: true });
        return true;
      }}
    />
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
