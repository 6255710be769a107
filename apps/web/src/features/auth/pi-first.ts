/*
 * Pioneers arriving from the Pi Browser sign in with their Pi account: there it comes first
 * on the sign-in page, as the main way in. The Pi Browser names itself in its user agent
 * (as @teltlk/pi-sdk reads it); checked here without the SDK, which this page does not load.
 */

/** Puts signing in with Pi before the form in the Pi Browser (once; again is a no-op). */
export function putPiLoginFirst(main: ParentNode): void {
  if (!/\bPiBrowser\b/i.test(navigator.userAgent)) return;
  const form = main.querySelector('[data-login="form"]');
  const piLogin = main.querySelector('[data-login="pi-login"]');
  if (!form || !piLogin || form.previousElementSibling === piLogin) return;
  form.before(piLogin);
  piLogin.classList.replace('tt-button-secondary', 'tt-button-primary');
}
