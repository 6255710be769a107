import { QuestionCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../ui/empty-state';
import { PageHeader } from '../ui/page-header';
import { paths } from './paths';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="tt-page">
      <PageHeader title={t('common.appName')} />
      <main className="tt-content">
        <EmptyState
          icon={<QuestionCircleOutline />}
          title={t('notFound.title')}
          text={t('notFound.text')}
        >
          <Link className="tt-button tt-button-primary" to={paths.root} replace>
            {t('notFound.home')}
          </Link>
        </EmptyState>
      </main>
    </div>
  );
}
