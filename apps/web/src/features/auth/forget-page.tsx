import { usePageTexts } from '../../i18n/pages';
import { paths } from '../../app/paths';
import { Page } from '../../ui/page';
import { DestinationForm } from './destination-form';

/** `/pages/login/forget`: a code to the account's phone or email, to set a new password. */
export function ForgetPage() {
  const { t } = usePageTexts();
  return (
    <Page title={t('forget.title')}>
      <div className="tt-auth">
        <p className="tt-hint">{t('forget.intro')}</p>
        <DestinationForm
          purpose="reset"
          codePath={paths.forgetPassword}
          submitLabel={t('forget.getCode')}
        />
      </div>
    </Page>
  );
}
