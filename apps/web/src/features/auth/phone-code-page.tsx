import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { paths } from '../../app/paths';
import { readDestination, type DestinationParams } from '../../app/route-params';
import { CodeEntryForm } from './code-entry-form';
import { MissingDestination } from './missing-destination';
import { useApplyAuth } from './use-apply-auth';

function LoginWithCode({ target }: { target: DestinationParams }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const applyAuth = useApplyAuth();
  return (
    <CodeEntryForm
      purpose="login"
      target={target}
      title={t('codeLogin.title')}
      submitLabel={t('codeLogin.submit')}
      fallback="login"
      redeem={(code) => api.loginWithCode({ code, ...target })}
      onRedeemed={async (result) => {
        await applyAuth(result);
        void navigate(paths.root, { replace: true });
      }}
    />
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
