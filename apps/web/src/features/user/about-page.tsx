import { APP_VERSION, CONTACT_EMAIL } from '@teltlk/protocol';
import { FileOutline, LockOutline, MailOutline, UnorderedListOutline } from 'antd-mobile-icons';
import { usePageTexts } from '../../i18n/pages';
import { paths } from '../../app/paths';
import { BrandLogo } from '../../ui/brand-logo';
import { LinkRow } from '../../ui/list-row';
import { Page } from '../../ui/page';
import './user.css';

/** `/pages/user/about`: app name, version and the legal texts. */
export function AboutPage() {
  const { t } = usePageTexts();
  return (
    <Page title={t('about.title')} flush>
      <div className="tt-about">
        <BrandLogo />
        <h2>{t('common.appName')}</h2>
        <p>{t('about.version', { version: APP_VERSION })}</p>
        <p>{t('about.description')}</p>
      </div>
      <ul className="tt-list">
        <li>
          <LinkRow to={paths.agreement} icon={<FileOutline />} label={t('legal.agreement')} />
        </li>
        <li>
          <LinkRow to={paths.service} icon={<UnorderedListOutline />} label={t('legal.service')} />
        </li>
        <li>
          <LinkRow to={paths.privacy} icon={<LockOutline />} label={t('legal.privacy')} />
        </li>
        <li>
          <a className="tt-row" href={`mailto:${CONTACT_EMAIL}`}>
            <MailOutline className="tt-row-icon" aria-hidden />
            <span className="tt-row-label">{t('settings.contact')}</span>
            <span className="tt-row-value">{CONTACT_EMAIL}</span>
          </a>
        </li>
      </ul>
    </Page>
  );
}
