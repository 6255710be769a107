import { useEffect } from 'react';
import { onFirstUse } from '../../ui/first-use';

type PageLoader = () => Promise<unknown>;

/**
 * The registration's later pages. Each is a chunk of its own, and while one downloads the
 * step before stays on screen, its button seemingly dead: on a slow network, a round trip
 * or more at every step.
 */
const codePage: PageLoader = () => import('./send-code-page');
const detailPages: PageLoader[] = [
  () => import('./register-account-page'),
  () => import('./select-region-page'),
  () => import('./register-language-page'),
  () => import('./invite-code-page'),
];

const fetched = new Set<PageLoader>();

function fetchPages(pages: readonly PageLoader[]): void {
  for (const load of pages) {
    if (fetched.has(load)) continue;
    fetched.add(load);
    // A page that fails to download now is downloaded again when it is reached.
    load().catch(() => {});
  }
}

/**
 * Fetches the registration's later pages once the person starts on its first (the
 * first touch or key), so that each step opens at once: they download while the person
 * types and waits for the code. A page only looked at downloads nothing more. Through
 * Pi (`withCode` false) there is no code to enter, and no code page to fetch.
 */
export function useLaterStepsFetched(withCode: boolean): void {
  useEffect(
    () => onFirstUse(() => fetchPages(withCode ? [codePage, ...detailPages] : detailPages)),
    [withCode],
  );
}
