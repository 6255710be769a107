import { i18n } from '../i18n/index';

/**
 * Registers the service worker (/sw.js: the app shell offline, Web Push), and offers a
 * new version once one is installed and waiting: "Update" switches to it and reloads.
 * Taps on notifications arrive here as messages naming the page to open.
 */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  const container = navigator.serviceWorker;
  container.addEventListener('message', (event: MessageEvent<{ type?: string; path?: string }>) => {
    if (event.data?.type === 'open' && typeof event.data.path === 'string') {
      window.location.hash = `#${event.data.path}`;
    }
  });
  const registration = await container.register('./sw.js');
  // A page that was controlled already reloads when the new worker takes over.
  const hadController = container.controller !== null;
  let reloading = false;
  container.addEventListener('controllerchange', () => {
    if (!hadController || reloading) return;
    reloading = true;
    window.location.reload();
  });
  const offer = (worker: ServiceWorker | null) => {
    if (worker && container.controller) showUpdatePrompt(worker);
  };
  offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offer(installing);
    });
  });
  // A tab left open for days still hears of new versions.
  window.setInterval(() => void registration.update().catch(() => undefined), 60 * 60_000);
  return registration;
}

function showUpdatePrompt(worker: ServiceWorker): void {
  if (document.querySelector('.tt-update-prompt')) return;
  const prompt = document.createElement('div');
  prompt.className = 'tt-update-prompt';
  prompt.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = i18n.t('update.available');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'tt-button tt-button-primary tt-button-small';
  button.textContent = i18n.t('update.reload');
  button.addEventListener('click', () => {
    button.disabled = true;
    worker.postMessage({ type: 'skipWaiting' });
  });
  prompt.append(text, button);
  document.body.append(prompt);
}
