import { ApiError } from '@teltlk/im-sdk';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useSignedIn } from '../../app/guards';
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

/** The code of a phone being added to the signed-in account. */
function VerifyAddedPhone({ target }: { target: DestinationParams }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <CodeEntryForm
      purpose="register"
      target={target}
      title={t('pi.addPhoneTitle')}
      submitLabel={t('code.submit')}
      fallback="modify"
      redeem={async (code) => {
        const { ticket } = await api.verifyCode({ purpose: 'register', code, ...target });
        return api.addPhone({ ticket });
      }}
      onRedeemed={(me) => {
        queryClient.setQueryData(queryKeys.me(), me);
        showToast(t('pi.phoneAdded'), { icon: 'success' });
        void navigate(paths.accountSecurity, { replace: true });
      }}
    />
  );
}

/**
 * `/pages/sendCode/sendCode?purpose=register&channel=&destination=`: the registration code,
 * or (`then=addPhone`, signed in) the code of a phone added to the account.
 */
export function SendCodePage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const signedIn = useSignedIn();
  const target = readDestination(search);
  const purpose = readPurpose(search);
  const addingPhone = search.get('then') === 'addPhone';
  if (signedIn !== addingPhone) return <Navigate to={paths.root} replace />;
  if (!target || purpose !== 'register') {
    return (
      <MissingDestination
        title={t('code.title')}
        restartPath={addingPhone ? paths.bindPhoneNumber : paths.register}
      />
    );
  }
  if (addingPhone) {
    return <VerifyAddedPhone key={`${target.channel}:${target.destination}`} target={target} />;
  }
  // A new destination gets fresh state (typed code, errors).
  return <VerifyRegistrationCode key={`${target.channel}:${target.destination}`} target={target} />;
}
