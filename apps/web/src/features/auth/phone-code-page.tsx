import { usePageTexts } from '../../i18n/pages';
import { useNavigate, useSearchParams } from 'react-router';
import { routes } from '@teltlk/client';
import { api } from '../../api/client';
import { handOverIncomplete } from '../../api/pi';
import { paths } from '../../app/paths';
import { readDestination, type DestinationParams } from '../../app/route-params';
import { CodeEntryForm } from './code-entry-form';
import { MissingDestination } from './missing-destination';
import { useRegistrationDraft } from './registration-draft';
import { useApplyAuth } from './use-apply-auth';

function LoginWithCode({ target, bindPi }: { target: DestinationParams; bindPi: boolean }) {
  const { t } = usePageTexts();
  const navigate = useNavigate();
  const applyAuth = useApplyAuth();
  const draft = useRegistrationDraft();
  // Binding a Pi account: the code proves the account, which is then bound and signed in.
  const piTicket = bindPi ? draft.pi?.ticket : undefined;
  return (
    <CodeEntryForm
      purpose="login"
      target={target}
      title={piTicket ? t('pi.bindTitle') : t('codeLogin.title')}
      submitLabel={piTicket ? t('pi.bindSubmit') : t('codeLogin.submit')}
      fallback="login"
      redeem={(code) =>
        piTicket
          ? api.call(routes.pi.bind, {
              body: { proof: 'code', ticket: piTicket, code, ...target },
            })
          : api.call(routes.auth.loginWithCode, { body: { code, ...target } })
      }
      onRedeemed={async (result) => {
        await applyAuth(result);
        if (piTicket) {
          draft.reset();
          void handOverIncomplete();
        }
        void navigate(paths.root, { replace: true });
      }}
    />
  );
}

/** `/pages/sendCode/phoneCode?channel=&destination=`: enter the sign-in code. */
export function PhoneCodePage() {
  const { t } = usePageTexts();
  const [search] = useSearchParams();
  const target = readDestination(search);
  if (!target)
    return <MissingDestination title={t('codeLogin.title')} restartPath={paths.mobileLogin} />;
  return (
    <LoginWithCode
      key={`${target.channel}:${target.destination}`}
      target={target}
      bindPi={search.get('bind') === 'pi'}
    />
  );
}
