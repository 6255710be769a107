const FIRST_USE_EVENTS = ['pointerdown', 'keydown', 'focusin'] as const;

/**
 * Runs `start` once, at the first sign of use (a touch, a key, a focus): the moment to
 * fetch code the page only needs once someone acts, so a page that is only looked at
 * never downloads or parses it, which on a slow phone keeps the first seconds free for
 * the page itself. Returns the cleanup, for an effect.
 */
export function onFirstUse(start: () => void): () => void {
  const run = () => {
    stop();
    start();
  };
  const stop = () => {
    for (const type of FIRST_USE_EVENTS) window.removeEventListener(type, run, true);
  };
  for (const type of FIRST_USE_EVENTS) window.addEventListener(type, run, true);
  return stop;
}

/**
 * Runs `start` once the focus is in `element`: at once if it is there already, as on a
 * page that was in use before its script arrived. Returns the cleanup.
 */
export function onFocusWithin(element: Element, start: () => void): () => void {
  if (element.contains(document.activeElement)) {
    start();
    return () => {};
  }
  element.addEventListener('focusin', start, { once: true });
  return () => element.removeEventListener('focusin', start);
}
