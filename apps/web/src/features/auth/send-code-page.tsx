import { ApiError, StepUpCancelled } from '@teltlk/im-sdk';
import { useRef, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { routes } from '@teltlk/client';
import { api } from '../../api/client';
import { useMe } from '../../api/queries';
import { queryKeys } from '../../api/query-keys';
import { useSignedIn } from '../../app/guards';
import { paths } from '../../app/paths';
import { readDestination, readPurpose, type DestinationParams } from '../../app/route-params';
import { showToast } from '../../ui/toast';
import { messageText } from '../../ui/use-message';
import { addressDoneKey, addressTitleKey, currentAddress } from '../../ui/account-address';
import { useSecurityTexts } from '../../i18n/security';
import { CodeEntryForm } from './code-entry-form';
import { MissingDestination } from './missing-destination';
import { useRegistrationDraft } from './registration-draft';

function VerifyRegistrationCode({ target }: { target: DestinationParams }) {
  const { t } = usePageTexts();
  const navigate = useNavigate();
  const update = useRegistrationDraft((state) => state.update);
  return (
    <CodeEntryForm
      purpose="register"
      target={target}
      title={t('code.title')}
      submitLabel={t('code.submit')}
      fallback="register"
      redeem={(code) =>
        api.call(routes.auth.verifyCode, { body: { purpose: 'register', code, ...target } })
      }
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

/**
 * The code of a phone or email being added to the signed-in account, or replacing the
 * one it has (the server then asks for a step-up, which the step-up sheet handles).
 */
function VerifyAddedAddress({ target }: { target: DestinationParams }) {
  const { t } = usePageTexts();
  const { t: ts } = useSecurityTexts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  // Known before the call, so the words still fit once the address has changed.
  const [replacing] = useState(
    () => (me.data ? currentAddress(me.data, target.channel) : null) !== null,
  );
  // The code is spent once verified: a step-up given up and tried again reuses its ticket.
  const ticket = useRef<string | null>(null);
  return (
    <CodeEntryForm
      purpose="register"
      target={target}
      title={ts(addressTitleKey(target.channel, replacing))}
      submitLabel={t('code.submit')}
      fallback="modify"
      redeem={async (code) => {
        ticket.current ??= (
          await api.call(routes.auth.verifyCode, {
            body: { purpose: 'register', code, ...target },
          })
        ).ticket;
        try {
          return await api.call(routes.security.setAddress, { body: { ticket: ticket.current } });
        } catch (failure) {
          if (!(failure instanceof StepUpCancelled)) ticket.current = null;
          throw failure;
        }
      }}
      onRedeemed={(updated) => {
        queryClient.setQueryData(queryKeys.me(), updated);
        void queryClient.invalidateQueries({ queryKey: queryKeys.stepUp() });
        showToast(ts(addressDoneKey(target.channel, replacing)), { icon: 'success' });
        void navigate(paths.accountSecurity, { replace: true });
      }}
    />
  );
}

/**
 * `/pages/sendCode/sendCode?purpose=register&channel=&destination=`: the registration code,
 * or (`then=addPhone`, signed in) the code of a phone or email added to the account.
 */
export function SendCodePage() {
  const { t } = usePageTexts();
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
    return <VerifyAddedAddress key={`${target.channel}:${target.destination}`} target={target} />;
  }
  // A new destination gets fresh state (typed code, errors).
  return <VerifyRegistrationCode key={`${target.channel}:${target.destination}`} target={target} />;
}
