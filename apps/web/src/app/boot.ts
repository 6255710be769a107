import './global.css';
import './boot.css';

/*
 * The page's entry. index.html paints the sign-in header from HTML and CSS alone; the
 * app's code is asked for once that first frame is on screen, so on a slow network the
 * header does not wait behind the scripts sharing the same bandwidth.
 */

function afterFirstPaint(run: () => void): void {
  // A hidden tab paints nothing (and runs no animation frames): start at once.
  if (document.visibilityState === 'hidden') run();
  // A frame callback runs just before the paint; a task it queues runs after it.
  else requestAnimationFrame(() => setTimeout(run, 0));
}

afterFirstPaint(() => {
  import('./main').catch((error: unknown) => console.error('Teltlk failed to load', error));
});
