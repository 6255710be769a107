import { usePageTexts } from '../i18n/pages';
import { Link } from 'react-router';
import { paths } from '../app/paths';
import { useSignedIn } from '../app/guards';

/** This page's address for the Pi Browser, which opens `pi://` links. */
export function piBrowserLink(location: Location = window.location): string {
  return `pi://${location.host}${location.pathname}${location.search}${location.hash}`;
}

/**
 * 'This feature is currently only available to PI users', and what else the person can
 * do: sign in another way (when signed out), or open this page in the Pi Browser.
 */
export function PiOnlyNotice() {
  const { t } = usePageTexts();
  const signedIn = useSignedIn();
  return (
    <div className="tt-auth tt-pi-only">
      <p className="tt-alert" role="alert">
        {t('pi.onlyPi')}
      </p>
      {signedIn ? null : (
        <>
          <p className="tt-hint">{t('pi.otherWays')}</p>
          <Link className="tt-button tt-button-primary tt-button-block" to={paths.login}>
            {t('pi.passwordLogin')}
          </Link>
          <Link className="tt-button tt-button-secondary tt-button-block" to={paths.mobileLogin}>
            {t('pi.codeLogin')}
          </Link>
        </>
      )}
      <a className="tt-link-button" href={piBrowserLink()}>
        {t('pi.openInPiBrowser')}
      </a>
    </div>
  );
}
