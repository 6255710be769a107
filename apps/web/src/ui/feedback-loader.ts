import type * as AntdFeedback from './antd-feedback';
import { onFirstUse } from './first-use';

type Feedback = typeof AntdFeedback;

let loading: Promise<Feedback> | null = null;

/** Toast and Dialog, loaded once on first use (or early, when the browser is idle). */
export function loadFeedback(): Promise<Feedback> {
  loading ??= import('./antd-feedback');
  return loading;
}

/** Fetches Toast and Dialog at the first sign of use, well before an answer could need a toast. */
export function preloadFeedback(): () => void {
  return onFirstUse(() => void loadFeedback());
}
