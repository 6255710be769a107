import { useQuery } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import { APP_VERSION } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { paths } from '../../app/paths';
import { standingOf } from '../../app/versions';
import { Button } from '../../ui/button';
import { Page } from '../../ui/page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';

/** Fetches the newest app: the waiting service worker takes over (or the page reloads). */
async function updateNow(): Promise<void> {
  const worker =
    'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  if (worker) {
    await worker.update().catch(() => undefined);
    const waiting = worker.waiting ?? worker.installing;
    if (waiting) {
      navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload());
      waiting.postMessage({ type: 'skipWaiting' });
      return;
    }
  }
  window.location.reload();
}

/**
 * `/upgradation`: whether this copy of the app is current. Under maintenance it says so
 * (the spec's message) and checks again on request; too old to work with the server, it
 * asks to update; a newer version it offers; otherwise it says all is up to date.
 */
export function UpgradationPage() {
  const { t } = usePageTexts();
  const navigate = useNavigate();
  const [updating, setUpdating] = useState(false);
  const version = useQuery({
    queryKey: ['meta', 'version'],
    queryFn: () => api.call(routes.meta.version),
  });
  const standing = version.data ? standingOf(APP_VERSION, version.data) : null;
  const update = () => {
    setUpdating(true);
    void updateNow();
  };
  return (
    <Page title={t('upgradation.title')}>
      <section className="tt-empty" aria-live="polite">
        {version.error ? (
          <QueryError error={version.error} onRetry={() => void version.refetch()} />
        ) : !version.data || standing === null ? (
          <PageSpinner />
        ) : standing === 'maintenance' ? (
          <>
            <p role="alert">{t('error.MAINTENANCE')}</p>
            <Button busy={version.isFetching} onClick={() => void version.refetch()}>
              {t('common.retry')}
            </Button>
          </>
        ) : standing === 'current' ? (
          <>
            <p>{t('upgradation.current', { version: APP_VERSION })}</p>
            <Button onClick={() => void navigate(paths.root, { replace: true })}>
              {t('upgradation.open')}
            </Button>
          </>
        ) : (
          <>
            <p role={standing === 'required' ? 'alert' : undefined}>
              {standing === 'required' ? t('upgradation.required') : t('upgradation.available')}
            </p>
            <p className="tt-hint">
              {t('upgradation.versions', { mine: APP_VERSION, latest: version.data.version })}
            </p>
            <Button busy={updating} onClick={update}>
              {t('upgradation.update')}
            </Button>
          </>
        )}
      </section>
    </Page>
  );
}
