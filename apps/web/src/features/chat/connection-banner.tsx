import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useConnectionTrouble } from '../../app/engine';

/**
 * 'The current network connection is poor' while the socket is down, once the first
 * attempt has ended (not during the first connect after opening the app). `inline`
 * sits in the page's flow (chat page); otherwise it floats under the header.
 */
export function ConnectionBanner({ inline = false }: { inline?: boolean }) {
  const { t } = useTranslation();
  const trouble = useConnectionTrouble();
  return (
    <div role="status" className={inline ? undefined : 'tt-connection-float'}>
      {trouble ? (
        <p className="tt-connection">
          <ExclamationCircleOutline aria-hidden />
          {t('error.NETWORK_ERROR')}
        </p>
      ) : null}
    </div>
  );
}
