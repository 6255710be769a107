import { TOAST_DURATION_MS } from '@teltlk/protocol';
import { loadFeedback } from './feedback-loader';
import './toast.css';

type ToastIcon = 'success' | 'fail';

/**
 * antd-mobile shows one toast at a time: a new toast replaces the one on screen and
 * takes over its handle. Counting shows lets hideLoading() leave alone a toast that has
 * already replaced the loading one.
 */
let shown = 0;
let loading: { sequence: number; handler: Promise<{ close: () => void }> } | null = null;

/** A short message at the centre of the screen (1500 ms by default, spec §9). */
export function showToast(
  text: string,
  options: { icon?: ToastIcon; duration?: number } = {},
): void {
  shown += 1;
  void loadFeedback().then(({ Toast }) =>
    Toast.show({
      content: <span role="status">{text}</span>,
      icon: options.icon,
      duration: options.duration ?? TOAST_DURATION_MS,
    }),
  );
}

/** A loading toast that stays until hideLoading() (or until another toast replaces it). */
export function showLoading(text: string): void {
  shown += 1;
  loading = {
    sequence: shown,
    handler: loadFeedback().then(({ Toast }) =>
      Toast.show({
        content: <span role="status">{text}</span>,
        icon: 'loading',
        duration: 0,
        maskClickable: false,
      }),
    ),
  };
}

export function hideLoading(): void {
  if (!loading) {
    // A hide without a matching show is harmless; spec §4 asks for a warning only.
    console.warn('hideLoading() called without a visible loading toast');
    return;
  }
  const { sequence, handler } = loading;
  loading = null;
  if (sequence === shown) void handler.then((toast) => toast.close());
}
