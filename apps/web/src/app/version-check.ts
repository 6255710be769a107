import { routes } from '@teltlk/client';
import { APP_VERSION } from '@teltlk/protocol';
import { api } from '../api/client';
import { paths } from './paths';
import { standingOf } from './versions';

/** How often an open app asks again. */
const EVERY_MS = 30 * 60_000;

/**
 * Asks the server, now and then, whether this copy of the app may go on: under
 * maintenance, or older than the oldest version the server works with, the app goes to
 * `/upgradation`, which says why and what to do. A newer version that is not required
 * is offered by the service worker's update prompt instead.
 */
export function startVersionChecks(go: (path: string) => void): () => void {
  const check = async () => {
    try {
      const standing = standingOf(APP_VERSION, await api.call(routes.meta.version));
      if ((standing === 'maintenance' || standing === 'required') && !onUpgradePage()) {
        go(paths.upgradation);
      }
    } catch {
      // Offline or refused: asked again at the next turn.
    }
  };
  void check();
  const timer = window.setInterval(() => void check(), EVERY_MS);
  return () => window.clearInterval(timer);
}

function onUpgradePage(): boolean {
  return window.location.hash.startsWith(`#${paths.upgradation}`);
}
