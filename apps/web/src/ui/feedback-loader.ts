import type * as AntdFeedback from './antd-feedback';

type Feedback = typeof AntdFeedback;

let loading: Promise<Feedback> | null = null;

/** Toast and Dialog, loaded once on first use (or early, when the browser is idle). */
export function loadFeedback(): Promise<Feedback> {
  loading ??= import('./antd-feedback');
  return loading;
}

/** Fetches Toast and Dialog once the first screen is up, so the first toast is not late. */
export function preloadFeedback(): void {
  const start = () => void loadFeedback();
  if ('requestIdleCallback' in window) window.requestIdleCallback(start, { timeout: 3000 });
  else setTimeout(start, 1500);
}
