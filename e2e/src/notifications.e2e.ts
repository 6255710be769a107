import { callApi, LocalPushService } from '@teltlk/test-kit';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import {
  openChat,
  operator,
  registerAccount,
  send,
  signIn,
  startServer,
  type ApiAccount,
} from './harness.js';
import { browserSuite } from './suite.js';

/**
 * Notifications in the browser: a new message in a background tab shows a system
 * notification and counts in the tab title; a message to a device that is away goes
 * through a push service (one on loopback that checks VAPID and decrypts the payload as
 * the browser would) and the service worker shows it; the notification settings page;
 * the app shell offline; maintenance sending the app to /upgradation.
 */

let pushService: LocalPushService;
const suite = browserSuite({ PUSH_HOSTS: '127.0.0.1' });

beforeAll(async () => {
  pushService = await LocalPushService.start();
});
afterAll(async () => {
  await pushService.close();
});

interface Shown {
  title: string;
  body: string;
  tag: string;
}

/** The notifications the page's service worker shows now. */
function shownNotifications(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications();
    return shown.map(({ title, body, tag }) => ({ title, body, tag }));
  });
}

/** A signed-in page allowed to notify, with its service worker running. */
async function withNotifications(account: ApiAccount): Promise<Page> {
  const page = await suite.signedIn(account);
  await page.context().grantPermissions(['notifications'], { origin: suite.server.baseUrl });
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  return page;
}

/** Makes the page believe it is in a background tab (headless tabs are always visible). */
async function hide(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

function serviceWorkerOf(context: BrowserContext) {
  const [worker] = context.serviceWorkers();
  if (!worker) throw new Error('no service worker');
  return worker;
}

/** Whether the chat list kept in the page's local database (IndexedDB) holds `text`. */
function chatListKeeps(page: Page, text: string): Promise<boolean> {
  return page.evaluate(async (needle) => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(new Error(`IndexedDB: ${String(r.error)}`));
      });
    for (const { name } of await indexedDB.databases()) {
      if (!name?.startsWith('teltlk-')) continue;
      const db = await request(indexedDB.open(name));
      try {
        if (!db.objectStoreNames.contains('conversations')) continue;
        const rows = await request(
          db.transaction('conversations').objectStore('conversations').getAll(),
        );
        if (JSON.stringify(rows).includes(needle)) return true;
      } finally {
        db.close();
      }
    }
    return false;
  }, text);
}

describe('notifications', () => {
  it("notifies a background tab and counts it in the title; the chat beside the list on a wide screen; a friend's remark and translation pages", async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const page = await withNotifications(ada);
    await hide(page);
    const chat = await page.evaluate(
      ([a, b]) => (a! < b! ? `si_${a}_${b}` : `si_${b}_${a}`),
      [ada.id, bob.id],
    );
    await callApi(suite.server.baseUrl, 'POST', '/messages', {
      token: bob.token,
      body: {
        conversationId: chat,
        clientMsgId: 'background-1',
        content: { kind: 'text', text: 'Lunch?' },
      },
    });
    // Without previews (the default) it says only that a message came.
    await expect
      .poll(() => shownNotifications(page))
      .toEqual([{ title: 'You have a new message', body: '', tag: chat }]);
    await expect.poll(() => page.title()).toBe('(1) Chats · Teltlk');

    // On a wide screen (short of a desktop's, desktop.e2e.ts) the chat opens beside the
    // chat list, in a frame capped at 960 px.
    await page.setViewportSize({ width: 1100, height: 800 });
    await openChat(page, /Bob/);
    const list = page.getByRole('complementary', { name: 'Chats' });
    await list.getByRole('link', { name: /Bob/ }).waitFor();
    await page.getByRole('main').getByText('Lunch?').waitFor();
    expect(await page.getByRole('main').count()).toBe(1);
    const frame = await page
      .locator('.tt-app')
      .evaluate((app) => app.getBoundingClientRect().width);
    expect(frame).toBe(960);

    // A friend's remark and the translation of the chat with them, each a page of its own.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${suite.server.baseUrl}/#/pages/contacts/seeMeans?userId=${bob.id}`);
    await page.getByRole('link', { name: /Remark/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Set remark' }).waitFor();
    await page.getByRole('textbox', { name: 'Remark for Bob' }).fill('Bobby');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { level: 2, name: 'Bobby' }).waitFor();
    await page.getByRole('link', { name: 'Translation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Translation' }).waitFor();
    expect(page.url()).toContain('/pages/home/setUserTogue?userId=');
  });

  it('pushes a message to a device that is away, and the service worker shows it', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    // Ada's phone subscribed once and is closed now: its subscription is at the push service.
    const { publicKey } = await callApi<{ publicKey: string }>(
      suite.server.baseUrl,
      'GET',
      '/push/key',
      { token: ada.token },
    );
    const phone = pushService.subscribe(publicKey);
    await callApi(suite.server.baseUrl, 'PUT', '/push/subscription', {
      token: ada.token,
      body: phone,
    });
    await callApi(suite.server.baseUrl, 'PATCH', '/me/settings', {
      token: ada.token,
      body: { notificationPreviews: true },
    });

    const bobPage = await suite.signedIn(bob);
    await openChat(bobPage, /Ada/);
    await send(bobPage, 'The train leaves at nine');
    await expect.poll(() => pushService.received(phone.endpoint).length).toBe(1);
    expect(pushService.refusals).toEqual([]);
    const [push] = pushService.received(phone.endpoint);
    expect(JSON.parse(push!.payload)).toMatchObject({
      title: 'Bob',
      body: 'The train leaves at nine',
    });

    // The same payload, as the push service hands it to the browser's service worker.
    const adaPage = await withNotifications(ada);
    await serviceWorkerOf(adaPage.context()).evaluate((payload) => {
      const scope = self as unknown as { dispatchEvent(event: Event): void };
      const PushEventClass = (globalThis as unknown as { PushEvent: typeof Event }).PushEvent;
      scope.dispatchEvent(new PushEventClass('push', { data: payload } as EventInit));
    }, push!.payload);
    await expect
      .poll(() => shownNotifications(adaPage))
      .toEqual([expect.objectContaining({ title: 'Bob', body: 'The train leaves at nine' })]);
  });

  it('has a settings page for notifications and this device', async () => {
    const ada = await registerAccount(suite.server.baseUrl, 'Ada');
    const page = await withNotifications(ada);
    await page.goto(`${suite.server.baseUrl}/#/pages/user/setting`);
    await page.getByRole('link', { name: /Message notifications/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Message notifications' }).waitFor();
    await page
      .getByTestId('push-state')
      .filter({ hasText: /Allowed|gets notifications/ })
      .waitFor();
    await expectAccessible(page, 'message notifications (en_US)');
    const previews = page.getByRole('switch', { name: 'Show sender and text' });
    expect(await previews.isChecked()).toBe(false);
    // Saved optimistically: the switch turns once the change is under way.
    await previews.click();
    await expect.poll(() => previews.isChecked()).toBe(true);
    await page.reload();
    await expect.poll(() => previews.isChecked()).toBe(true);
  });

  it('opens the chat list offline from what the app keeps, once installed', async () => {
    const [ada] = await suite.accounts('Ada', 'Bob');
    const page = await suite.signedIn(ada);
    await openChat(page, /Bob/);
    await send(page, 'Offline soon');
    // A reload offline shows what the local database holds: wait until its chat list has
    // the message (acknowledged, then written), not only the page's bubble.
    await page.getByRole('img', { name: 'Sending' }).first().waitFor({ state: 'detached' });
    await expect.poll(() => chatListKeeps(page, 'Offline soon')).toBe(true);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    const manifest = await page.request.get(`${suite.server.baseUrl}/manifest.webmanifest`);
    expect(await manifest.json()).toMatchObject({ display: 'standalone', start_url: './' });

    await page.context().setOffline(true);
    try {
      await page.goto(`${suite.server.baseUrl}/`);
      await page.getByRole('heading', { level: 1, name: 'Chats' }).waitFor();
      await page.getByText('Offline soon').waitFor();
      // The landing site is pages of its own: never answered with the app's shell.
      const landing = await page.context().newPage();
      await expect(landing.goto(`${suite.server.baseUrl}/home/en/`)).rejects.toThrow();
      await landing.close();
    } finally {
      await page.context().setOffline(false);
    }
  });

  it('sends the app to /upgradation while the service is under maintenance', async () => {
    // A server of its own: under maintenance it answers 503 on purpose, which the other
    // tests' pages (still open in the suite) must never meet.
    const own = await startServer();
    try {
      const ada = await registerAccount(own.baseUrl, 'Ada');
      const { context, page, errors } = await signIn(suite.browser, own.baseUrl, ada);
      const underMaintenance = (on: boolean) =>
        expect
          .poll(
            async () =>
              (await callApi<{ maintenance: boolean }>(own.baseUrl, 'GET', '/meta/version'))
                .maintenance,
            { timeout: 10_000 },
          )
          .toBe(on);
      try {
        await operator(own, 'maintenance:on', '--note', 'test');
        await underMaintenance(true);
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'App version' }).waitFor();
        await page.getByText('This feature is currently under maintenance').first().waitFor();
        await expectAccessible(page, 'upgradation (en_US)');
      } finally {
        await operator(own, 'maintenance:off');
      }
      await underMaintenance(false);
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByText(/Teltlk is up to date/).waitFor();
      expect(errors.filter((line) => !line.startsWith('503 '))).toEqual([]);
      await context.close();
    } finally {
      await own.stop();
    }
  });
});
