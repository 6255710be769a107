import { ApiClient } from '@teltlk/client';
import { useAuthStore } from '../app/auth-store';
import { paths } from '../app/paths';
import { currentUiLanguage } from '../i18n/index';
import { intlLocale } from '../i18n/language';
import { showToast } from '../ui/toast';
import { messageText } from '../ui/use-message';
import { requestOf, stepUpGate } from './step-up-gate';

/** The one REST client of the app; every call goes through it. */
export const api = new ApiClient({
  getToken: () => useAuthStore.getState().token,
  // The session is gone on the server: forget it here too; the route guards then show
  // the sign-in page. Forms leave these codes to this one place (isSessionError).
  onUnauthorized: (code) => {
    if (useAuthStore.getState().token === null) return;
    useAuthStore.getState().signOut();
    showToast(messageText({ key: `error.${code}` }));
  },
  // Under maintenance the first refused call takes the app to the page that says so,
  // before the next version check would.
  onMaintenance: () => {
    if (!window.location.hash.startsWith(`#${paths.upgradation}`)) {
      window.location.hash = `#${paths.upgradation}`;
    }
  },
  getLanguage: () => intlLocale(currentUiLanguage()),
  // A sensitive action refused for want of a recent proof: the step-up sheet (app layout)
  // asks the person, and the call is made again once they have proven it is them.
  onStepUpRequired: (ask) =>
    useAuthStore.getState().token === null
      ? Promise.resolve(false)
      : stepUpGate.ask(requestOf(ask)),
});

// Signed out meanwhile (here or in another tab): nobody is left to prove anything.
useAuthStore.subscribe((state) => {
  if (state.token === null) stepUpGate.settle(false);
});
