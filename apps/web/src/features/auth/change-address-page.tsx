import { ADDRESS_UNDO_DAYS } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { Navigate, useSearchParams } from 'react-router';
import { useMe } from '../../api/queries';
import { paths } from '../../app/paths';
import { Page } from '../../ui/page';
import { PageSpinner } from '../../ui/spinner';
import { addressTitleKey, currentAddress, readChannel } from '../../ui/account-address';
import { useSecurityTexts } from '../../i18n/security';
import { DestinationForm } from './destination-form';

/**
 * `/pages/user/changeAddress?channel=email|phone`: a new email or phone for the account,
 * then its code (sendCode, `then=addPhone`). Replacing one asks for a step-up there, and
 * the old address is sent a link that undoes the change.
 */
export function ChangeAddressPage() {
  const { t } = usePageTexts();
  const { t: ts } = useSecurityTexts();
  const [search] = useSearchParams();
  const me = useMe();
  const channel = readChannel(search);
  if (channel === null) return <Navigate to={paths.accountSecurity} replace />;
  const current = me.data ? currentAddress(me.data, channel) : null;
  const replacing = current !== null;
  return (
    <Page title={ts(addressTitleKey(channel, replacing))}>
      <div className="tt-auth">
        {me.data ? (
          <>
            <p className="tt-hint">
              {current !== null
                ? ts('address.changeIntro', { current, days: ADDRESS_UNDO_DAYS })
                : channel === 'email'
                  ? ts('address.addEmailIntro')
                  : ts('address.addPhoneIntro')}
            </p>
            <DestinationForm
              purpose="register"
              codePath={paths.sendCode}
              codeQuery={{ then: 'addPhone' }}
              submitLabel={t('code.send')}
              channel={channel}
            />
          </>
        ) : (
          <PageSpinner />
        )}
      </div>
    </Page>
  );
}
