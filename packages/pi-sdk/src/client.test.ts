import { describe, expect, it, vi } from 'vitest';
import { PiClient, PI_STORAGE_KEYS } from './client.js';
import type { PiGlobal } from './types.js';

const SDK_URL = 'https://sdk.example/pi-sdk.js';
const HOST = 'http://127.0.0.1:3100/';

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** As much of a window as the client reads: agent, framing, storage, an SDK already there. */
function fakeWindow(options: { agent?: string; framedBy?: string; pi?: PiGlobal }) {
  const win = {
    navigator: {
      userAgent: options.agent ?? 'Mozilla/5.0 Chrome/150',
      clipboard: { writeText: vi.fn() },
    },
    localStorage: new MemoryStorage(),
    location: { ancestorOrigins: options.framedBy ? [options.framedBy] : [] },
    document: { referrer: '' },
    Pi: options.pi,
  } as unknown as Window & { Pi?: PiGlobal };
  (win as { parent: unknown }).parent = options.framedBy ? {} : win;
  return win;
}

function fakePi() {
  return {
    init: vi.fn<PiGlobal['init']>(),
    authenticate: vi.fn(() =>
      Promise.resolve({
        accessToken: 'token',
        user: { uid: 'uid-1', username: 'ada', credentials: { scopes: ['username'] } },
      }),
    ),
    createPayment: vi.fn(),
    openShareDialog: vi.fn(),
    openUrlInSystemBrowser: vi.fn(() => Promise.resolve()),
    nativeFeaturesList: vi.fn(() => Promise.resolve(['inline_media', 'request_permission'])),
    requestPermission: vi.fn((permission: string) => Promise.resolve(permission === 'microphone')),
    openConversation: vi.fn(() => Promise.resolve()),
    Ads: {
      isAdReady: vi.fn(),
      requestAd: vi.fn(),
      showAd: vi.fn(() =>
        Promise.resolve({ type: 'rewarded' as const, result: 'AD_REWARDED' as const }),
      ),
    },
  };
}

const client = (win: Window, sdkUrl: string | null = SDK_URL) =>
  new PiClient({ sdkUrl, sandbox: false, sandboxHostUrl: HOST, win });

describe('the app’s Pi client', () => {
  it('outside the Pi Browser says Pi-only features are for Pi users', async () => {
    const win = fakeWindow({});
    const pi = client(win);
    expect(pi.inPiBrowser).toBe(false);
    await expect(pi.authenticate(['username'], () => undefined)).rejects.toThrow(
      'This feature is currently only available to PI users',
    );
    expect(win.localStorage.getItem(PI_STORAGE_KEYS.browserType)).toBe('other');
    expect(win.localStorage.getItem(PI_STORAGE_KEYS.piBrowser)).toBe('0');
  });

  it('keeps the first 255 characters of the user agent as devid', () => {
    const agent = `Mozilla/5.0 PiBrowser/2.1 ${'x'.repeat(400)}`;
    const win = fakeWindow({ agent });
    client(win);
    expect(win.localStorage.getItem(PI_STORAGE_KEYS.devid)).toBe(agent.slice(0, 255));
    expect(win.localStorage.getItem(PI_STORAGE_KEYS.browserType)).toBe('pi');
  });

  it('counts the sandbox page framing the app as the Pi Browser, and no other page', () => {
    expect(client(fakeWindow({ framedBy: 'http://127.0.0.1:3100' })).inPiBrowser).toBe(true);
    expect(client(fakeWindow({ framedBy: 'https://evil.example' })).inPiBrowser).toBe(false);
    expect(client(fakeWindow({ agent: 'PiBrowser' }), null).inPiBrowser).toBe(false);
  });

  it('initialises the SDK once with version 2.0, and remembers who signed in', async () => {
    const sdk = fakePi();
    const win = fakeWindow({ agent: 'Mozilla/5.0 PiBrowser', pi: sdk });
    const pi = client(win);
    const result = await pi.authenticate(['username'], () => undefined);
    await pi.nativeFeaturesList();
    expect(sdk.init).toHaveBeenCalledTimes(1);
    expect(sdk.init).toHaveBeenCalledWith({ version: '2.0', sandbox: false });
    expect(result.user.uid).toBe('uid-1');
    expect(pi.remembered()).toEqual({ piID: 'uid-1', piUsername: 'ada' });
    pi.forget();
    expect(pi.remembered()).toEqual({ piID: null, piUsername: null });
  });

  it('checks scopes, the payments scope and ad formats before the SDK hears of them', async () => {
    const sdk = fakePi();
    const pi = client(fakeWindow({ agent: 'PiBrowser', pi: sdk }));
    await expect(
      pi.authenticate(['username', 'contacts'] as never, () => undefined),
    ).rejects.toThrow("Invalid scopes found. Please check the scopes you're requesting again.");
    expect(sdk.authenticate).not.toHaveBeenCalled();
    await pi.authenticate(['username'], () => undefined);
    await expect(
      pi.createPayment({ amount: 1, memo: 'm', metadata: {} }, {} as never),
    ).rejects.toThrow('Cannot create a payment without "payments" scope');
    await expect(pi.showAd('banner' as never)).rejects.toThrow('Invalid argument');
    expect(await pi.showAd('rewarded')).toEqual({ type: 'rewarded', result: 'AD_REWARDED' });
  });

  it('asks the Pi Browser for a device permission where it can ask', async () => {
    const sdk = fakePi();
    const pi = client(fakeWindow({ agent: 'PiBrowser', pi: sdk }));
    expect(await pi.requestPermission('microphone')).toBe(true);
    expect(await pi.requestPermission('camera')).toBe(false);
    expect(sdk.requestPermission.mock.calls).toEqual([['microphone'], ['camera']]);
    await expect(pi.requestPermission('location' as never)).rejects.toThrow('Invalid argument');
    expect(sdk.requestPermission).toHaveBeenCalledTimes(2);
  });

  it('says null where the Pi Browser cannot ask, so the browser’s own prompt applies', async () => {
    const older = fakePi();
    older.nativeFeaturesList.mockResolvedValue(['inline_media']);
    expect(
      await client(fakeWindow({ agent: 'PiBrowser', pi: older })).requestPermission('camera'),
    ).toBeNull();
    expect(older.requestPermission).not.toHaveBeenCalled();
    const { requestPermission: _none, ...withoutMethod } = fakePi();
    const oldSdk = client(fakeWindow({ agent: 'PiBrowser', pi: withoutMethod }));
    expect(await oldSdk.requestPermission('microphone')).toBeNull();
    await expect(client(fakeWindow({})).requestPermission('camera')).rejects.toThrow(
      'This feature is currently only available to PI users',
    );
  });

  it('opens a conversation of Pi’s chat, where the SDK can', async () => {
    const sdk = fakePi();
    await client(fakeWindow({ agent: 'PiBrowser', pi: sdk })).openConversation(42);
    expect(sdk.openConversation).toHaveBeenCalledWith(42);
    const { openConversation: _none, ...older } = fakePi();
    await expect(
      client(fakeWindow({ agent: 'PiBrowser', pi: older })).openConversation(42),
    ).rejects.toThrow('This feature is currently not available');
    await expect(
      client(fakeWindow({ agent: 'PiBrowser', pi: sdk })).openConversation(-0.5),
    ).rejects.toThrow('Invalid argument');
  });
});
