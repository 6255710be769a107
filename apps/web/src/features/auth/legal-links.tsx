import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../app/paths';

export function LegalLinks() {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('login.legal')}>
      <ul className="tt-legal-links">
        <li>
          <Link to={paths.agreement}>{t('legal.agreement')}</Link>
        </li>
        <li>
          <Link to={paths.service}>{t('legal.service')}</Link>
        </li>
        <li>
          <Link to={paths.privacy}>{t('legal.privacy')}</Link>
        </li>
      </ul>
    </nav>
  );
}
