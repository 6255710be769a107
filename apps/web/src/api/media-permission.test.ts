import { PiClient, PiSdkError, type NativePermission, type PiGlobal } from '@teltlk/pi-sdk';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ensureMediaPermission } from './media-permission';

// The page's Pi client, made here over a window of the test's making.
const { pagePiClient } = vi.hoisted(() => ({ pagePiClient: vi.fn<() => Promise<PiClient>>() }));
vi.mock('./pi', () => ({ pagePiClient }));

/** Pi's SDK as the Pi Browser offers it: the person allows what `allowed` names. */
function piSdk(allowed: NativePermission[], features = ['inline_media', 'request_permission']) {
  return {
    init: vi.fn(),
    authenticate: vi.fn(),
    createPayment: vi.fn(),
    openShareDialog: vi.fn(),
    openUrlInSystemBrowser: vi.fn(() => Promise.resolve()),
    nativeFeaturesList: vi.fn(() => Promise.resolve(features)),
    requestPermission: vi.fn((permission: NativePermission) =>
      Promise.resolve(allowed.includes(permission)),
    ),
    Ads: { isAdReady: vi.fn(), requestAd: vi.fn(), showAd: vi.fn() },
  };
}

/** The page's client in a browser of this user agent, with this SDK already loaded. */
function clientIn(agent: string, sdk: ReturnType<typeof piSdk>): PiClient {
  const storage = new Map<string, string>();
  const win = {
    navigator: { userAgent: agent },
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    },
    location: { ancestorOrigins: [] },
    document: { referrer: '' },
    Pi: sdk as unknown as PiGlobal,
  } as unknown as Window;
  (win as { parent: unknown }).parent = win;
  return new PiClient({
    sdkUrl: 'https://sdk.example/pi-sdk.js',
    sandbox: false,
    sandboxHostUrl: null,
    win,
  });
}

const PI_BROWSER = 'Mozilla/5.0 (Linux; Android 14) PiBrowser/2.3';

describe('ensureMediaPermission', () => {
  beforeEach(() => {
    pagePiClient.mockReset();
  });

  it('leaves it to the browser’s own prompt outside the Pi Browser', async () => {
    const sdk = piSdk([]);
    pagePiClient.mockResolvedValue(clientIn('Mozilla/5.0 Chrome/150', sdk));
    expect(await ensureMediaPermission('video')).toBe(true);
    expect(sdk.requestPermission).not.toHaveBeenCalled();
    expect(sdk.init).not.toHaveBeenCalled();
  });

  it('asks Pi for the microphone for a voice call, and the camera too for video', async () => {
    const sdk = piSdk(['microphone', 'camera']);
    pagePiClient.mockResolvedValue(clientIn(PI_BROWSER, sdk));
    expect(await ensureMediaPermission('audio')).toBe(true);
    expect(sdk.requestPermission.mock.calls).toEqual([['microphone']]);
    expect(await ensureMediaPermission('video')).toBe(true);
    expect(sdk.requestPermission.mock.calls).toEqual([['microphone'], ['microphone'], ['camera']]);
  });

  it('is false when the person refuses either in the Pi Browser', async () => {
    const noCamera = piSdk(['microphone']);
    pagePiClient.mockResolvedValue(clientIn(PI_BROWSER, noCamera));
    expect(await ensureMediaPermission('audio')).toBe(true);
    expect(await ensureMediaPermission('video')).toBe(false);
    const noMicrophone = piSdk(['camera']);
    pagePiClient.mockResolvedValue(clientIn(PI_BROWSER, noMicrophone));
    expect(await ensureMediaPermission('video')).toBe(false);
    // Refused the microphone, the camera is not asked for.
    expect(noMicrophone.requestPermission.mock.calls).toEqual([['microphone']]);
  });

  it('is true where the Pi Browser cannot ask, or Pi does not answer', async () => {
    const older = piSdk([], ['inline_media']);
    pagePiClient.mockResolvedValue(clientIn(PI_BROWSER, older));
    expect(await ensureMediaPermission('video')).toBe(true);
    expect(older.requestPermission).not.toHaveBeenCalled();

    const silent = piSdk([]);
    silent.requestPermission.mockRejectedValue(new PiSdkError('timeout', 'timeout'));
    pagePiClient.mockResolvedValue(clientIn(PI_BROWSER, silent));
    expect(await ensureMediaPermission('audio')).toBe(true);

    pagePiClient.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await ensureMediaPermission('audio')).toBe(true);
  });
});
