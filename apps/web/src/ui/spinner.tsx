import { useTranslation } from 'react-i18next';

/** The placeholder while a page or its data loads. */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <div className="tt-center" role="status" aria-label={t('common.loading')}>
      <span className="tt-spinner" aria-hidden />
    </div>
  );
}
