import type { UiLanguage } from '@teltlk/protocol';
import { mountLoginView } from '../features/auth/login-view';
import { catalogText, loadCatalog } from '../i18n/catalogs';
import { applyDocumentLanguage, readStoredLanguage, rememberUiLanguage } from '../i18n/language';
import { onFocusWithin } from '../ui/first-use';
import { atSignIn } from './paths';
import { TOKEN_STORAGE_KEY, storeToken } from './stored-session';

/*
 * A signed-out visitor's first page, before the app: index.html's sign-in page, taken
 * over with the DOM and the catalog of the visitor's language (login-view.ts), without
 * React, the router or i18next.
 * The app loads when it is needed: on signing in, on following a link to any other page,
 * or when another tab signs in. Until then a slow phone has nothing else to run.
 */

/**
 * Asks the browser to fetch the app's files (listed in index.html at build) into its
 * cache, without running them: signing in then starts the app from the cache. Done
 * when the visitor starts on the form, so a visitor who only looks spends no data on it.
 */
function prefetchApp(): void {
  const files = document.querySelector<HTMLMetaElement>('meta[name="teltlk-app-files"]');
  for (const href of files?.content.split(' ').filter(Boolean) ?? []) {
    const link = document.createElement('link');
    link.rel = 'prefetch';
    // As the module loader will ask for it, so the cached copy serves that request.
    link.crossOrigin = 'anonymous';
    link.href = href;
    document.head.append(link);
  }
}

const reportLoadFailure = (error: unknown) => console.error('Teltlk failed to load', error);

/** Shows the sign-in page in `main`; `startApp` loads the app, which then takes over. */
export async function showSignIn(main: HTMLElement, startApp: () => Promise<void>): Promise<void> {
  let language: UiLanguage = readStoredLanguage(globalThis.localStorage);
  let catalog = await loadCatalog(language);
  applyDocumentLanguage(language);

  let leaving: Promise<void> | null = null;
  const leave = (): Promise<void> => {
    leaving ??= startApp().then(
      () => {
        window.removeEventListener('hashchange', onRoute);
        window.removeEventListener('storage', onStorage);
        view.destroy();
      },
      (error: unknown) => {
        // Still here: the next sign-in or link tries again.
        leaving = null;
        throw error;
      },
    );
    return leaving;
  };
  // Every link of the page goes to another page of the app, which the app's router shows.
  const onRoute = () => void leave().catch(reportLoadFailure);
  const onStorage = (event: StorageEvent) => {
    if (event.key === TOKEN_STORAGE_KEY && event.newValue) void leave().catch(reportLoadFailure);
  };

  const view = mountLoginView(main, {
    language: () => language,
    text: (key, params) => catalogText(catalog, key, params),
    chooseLanguage: async (next) => {
      catalog = await loadCatalog(next);
      language = next;
      rememberUiLanguage(next);
    },
    signedIn: async (result) => {
      storeToken(result.token);
      // The interface language stored on the server follows the person to this device.
      rememberUiLanguage(result.settings.uiLanguage);
      await leave();
    },
  });
  window.addEventListener('hashchange', onRoute);
  window.addEventListener('storage', onStorage);
  onFocusWithin(main, prefetchApp);
  // A link of index.html's page followed before this script had started.
  if (!atSignIn()) onRoute();
}
