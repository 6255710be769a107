import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Page } from '../../ui/page';
import { DestinationForm } from './destination-form';

/** `/pages/login/Mobilelogin`: sign in with a code sent to a phone or email. */
export function CodeLoginPage() {
  const { t } = usePageTexts();
  return (
    <Page title={t('codeLogin.title')}>
      <div className="tt-auth">
        <p className="tt-hint">{t('codeLogin.intro')}</p>
        <DestinationForm
          purpose="login"
          codePath={paths.phoneCode}
          submitLabel={t('codeLogin.getCode')}
        />
        <Link className="tt-link-button" to={paths.login}>
          {t('codeLogin.passwordLogin')}
        </Link>
      </div>
    </Page>
  );
}
