import { LeftOutline } from 'antd-mobile-icons';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { setPageTitle } from './page-title';

export interface HeaderAction {
  label: string;
  onClick?: () => void;
  /** Submits the form with this id, so Enter in the form and the button do the same. */
  form?: string;
  disabled?: boolean;
  busy?: boolean;
}

export interface PageHeaderProps {
  title: string;
  /** Shows the back button (default true). */
  back?: boolean;
  /** The confirm button on the right (nikeName, chooseCountry, chooseTongue). */
  action?: HeaderAction;
}

/** Back goes one step back in history, or to the root page when the app was opened here. */
export function useGoBack(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key === 'default') void navigate('/', { replace: true });
    else void navigate(-1);
  };
}

/** The confirm button at the end of a header, busy while its work runs. */
export function HeaderActionButton({ action }: { action: HeaderAction }) {
  return (
    <button
      type={action.form ? 'submit' : 'button'}
      form={action.form}
      className="tt-header-action"
      disabled={action.disabled || action.busy}
      aria-busy={action.busy || undefined}
      onClick={action.onClick}
    >
      {action.label}
    </button>
  );
}

export function PageHeader({ title, back = true, action }: PageHeaderProps) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const appName = t('common.appName');

  useEffect(() => {
    setPageTitle(title === appName ? appName : `${title} · ${appName}`);
  }, [title, appName]);

  return (
    <header className="tt-header">
      <div className="tt-header-side">
        {back ? (
          <button
            type="button"
            className="tt-icon-button"
            aria-label={t('common.back')}
            onClick={goBack}
          >
            <LeftOutline aria-hidden />
          </button>
        ) : null}
      </div>
      <h1 className="tt-header-title" dir="auto">
        {title}
      </h1>
      <div className="tt-header-side tt-header-side-end">
        {action ? <HeaderActionButton action={action} /> : null}
      </div>
    </header>
  );
}
