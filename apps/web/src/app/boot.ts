import './global.css';
import './boot.css';
import { putPiLoginFirst } from '../features/auth/pi-first';
import { loadCatalog } from '../i18n/catalogs';
import { readStoredLanguage } from '../i18n/language';
import { atSignIn } from './paths';
import { readStoredToken } from './stored-session';

/*
 * The page's entry. index.html paints the sign-in page from HTML and CSS alone. A
 * signed-out visitor at the sign-in page then gets that page without the app (guest.ts),
 * which loads once it is needed; everyone else gets the app, asked for once the first
 * frame is on screen, so on a slow network the page does not wait behind the scripts.
 */

function afterFirstPaint(run: () => void): void {
  // A hidden tab paints nothing (and runs no animation frames): start at once.
  if (document.visibilityState === 'hidden') run();
  // A frame callback runs just before the paint; a task it queues runs after it.
  else requestAnimationFrame(() => setTimeout(run, 0));
}

let app: Promise<void> | null = null;
function startApp(): Promise<void> {
  app ??= import('./main').then(
    () => undefined,
    (error: unknown) => {
      app = null;
      throw error;
    },
  );
  return app;
}

const main = document.querySelector<HTMLElement>('#root main');
if (main && readStoredToken() === null && atSignIn()) {
  // Signed out: index.html's sign-in page shows whole, in the order it will keep; what is
  // typed into it stays.
  putPiLoginFirst(main);
  delete main.dataset.signin;
  // The catalog and the page's code download side by side.
  void loadCatalog(readStoredLanguage(globalThis.localStorage));
  afterFirstPaint(() => {
    import('./guest')
      .then((guest) => guest.showSignIn(main, startApp))
      .catch((error: unknown) => {
        console.error('Teltlk failed to load the sign-in page', error);
        return startApp();
      });
  });
} else {
  afterFirstPaint(() => {
    startApp().catch((error: unknown) => console.error('Teltlk failed to load', error));
  });
}
