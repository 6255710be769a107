import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

/*
 * Pages download when first visited (router.tsx), and the router keeps the page before on
 * screen until the next one has: on a slow network a tap then seemed to do nothing. While
 * a page downloads, a bar runs along the top of the screen.
 */

let downloading = 0;
const listeners = new Set<() => void>();

function changed(): void {
  // A page's download starts while React renders it: listeners hear of it after the render.
  queueMicrotask(() => {
    for (const listener of listeners) listener();
  });
}

/** Counts a page's download as under way until it has come (or failed). */
export function trackPageLoad<T>(load: Promise<T>): Promise<T> {
  downloading += 1;
  changed();
  return load.finally(() => {
    downloading -= 1;
    changed();
  });
}

export function subscribePageLoads(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether any page is downloading. */
export const pageDownloading = () => downloading > 0;

/** The bar, shown a moment after a download starts: a page that comes at once shows none. */
export function PageLoadBar() {
  const { t } = useTranslation();
  const loading = useSyncExternalStore(subscribePageLoads, pageDownloading);
  return loading ? (
    <div className="tt-page-load" role="progressbar" aria-label={t('common.loading')} />
  ) : null;
}
