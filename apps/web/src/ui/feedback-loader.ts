import type * as AntdFeedback from './antd-feedback';

type Feedback = typeof AntdFeedback;

let loading: Promise<Feedback> | null = null;

/** Toast and Dialog, loaded once on first use (or early, when the browser is idle). */
export function loadFeedback(): Promise<Feedback> {
  loading ??= import('./antd-feedback');
  return loading;
}

const FIRST_USE_EVENTS = ['pointerdown', 'keydown', 'focusin'] as const;

/**
 * Fetches Toast and Dialog at the first sign of use (a touch, a key, a focus), well before
 * any answer could need a toast; a page that is only looked at never parses them, which
 * on a slow phone keeps the first seconds free for the page itself. Returns the cleanup.
 */
export function preloadFeedback(): () => void {
  const start = () => {
    stop();
    void loadFeedback();
  };
  const stop = () => {
    for (const type of FIRST_USE_EVENTS) window.removeEventListener(type, start, true);
  };
  for (const type of FIRST_USE_EVENTS) window.addEventListener(type, start, true);
  return stop;
}
