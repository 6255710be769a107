import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '../ui/spinner';

const HomePageBeside = lazy(() =>
  import('../features/home/home-page').then(({ HomePage }) => ({
    default: () => <HomePage beside />,
  })),
);

/** Wide enough for the chat list and a chat side by side (the spec's 960 design maximum). */
const WIDE = '(min-width: 960px)';

function subscribe(listener: () => void): () => void {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

function useWide(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );
}

/**
 * A chat on a wide screen: the chat list beside it, in a frame capped at 960 px and
 * centred; on a phone, the chat alone.
 */
export function WideSplit({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  if (!useWide()) return children;
  return (
    <div className="tt-split">
      <aside className="tt-split-list" aria-label={t('home.title')}>
        <Suspense fallback={<PageSpinner />}>
          <HomePageBeside />
        </Suspense>
      </aside>
      <div className="tt-split-main">{children}</div>
    </div>
  );
}
