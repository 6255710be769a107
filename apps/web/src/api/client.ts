import { ApiClient } from '@teltlk/im-sdk';
import { useAuthStore } from '../app/auth-store';
import { paths } from '../app/paths';
import { currentUiLanguage } from '../i18n/index';
import { intlLocale } from '../i18n/language';
import { showToast } from '../ui/toast';
import { messageText } from '../ui/use-message';

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
});
