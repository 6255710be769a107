import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { startTransition, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { initI18n } from '../i18n/index';
import { followOtherTabs } from './auth-store';
import { Providers } from './providers';
import { createAppRouter } from './router';

// antd-mobile 5 renders Toast and Dialog with the legacy ReactDOM.render, which React 19
// removed; give it a createRoot-based renderer before anything shows.
const roots = new WeakMap<Element | DocumentFragment, Root>();
unstableSetRender((node, container) => {
  let root = roots.get(container);
  if (!root) {
    root = createRoot(container);
    roots.set(container, root);
  }
  root.render(node);
  const mounted = root;
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    mounted.unmount();
    roots.delete(container);
  };
});

await initI18n();
followOtherTabs();

const router = createAppRouter();
const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

const root = createRoot(container);
// As a transition the first render runs in short slices that let the browser breathe (on a
// slow phone it is otherwise one long task); the static header stays until it commits.
startTransition(() =>
  root.render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);

// The service worker once the page has loaded and settled: it never competes with the
// first screen for the network (production builds only; the dev server serves no sw.js).
// The app itself may start after the load event (it is fetched by the boot script).
if (import.meta.env.PROD) {
  const register = () =>
    window.setTimeout(() => {
      void import('./service-worker')
        .then(({ registerServiceWorker }) => registerServiceWorker())
        .catch((error: unknown) => console.warn('Service worker not registered', error));
    }, 2_000);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
