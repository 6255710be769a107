import { isPiBrowserAgent } from './agent.js';
import {
  PI_MESSAGES,
  PiSdkError,
  REQUEST_PERMISSION_FEATURE,
  SDK_VERSION,
  checkAdFormat,
  checkConversationId,
  checkNativePermission,
  checkPaymentsScope,
  checkScopes,
  type AdFormat,
  type NativePermission,
  type PiScope,
} from './rules.js';
import type {
  PaymentCallbacks,
  PaymentData,
  PiAuthResult,
  PiGlobal,
  PiPayment,
  ShowAdResponse,
} from './types.js';

/** The spec's local storage keys (§3). */
export const PI_STORAGE_KEYS = {
  browserType: 'browserType',
  devid: 'devid',
  piID: 'piID',
  piUsername: 'piUsername',
  piBrowser: 'PiBrowser',
} as const;

/** devid: the first 255 characters of the user agent. */
export const DEVID_LENGTH = 255;

export interface PiClientOptions {
  /** The SDK script to load; null: Pi is off on this server. */
  sdkUrl: string | null;
  sandbox: boolean;
  /** The local sandbox's page: being framed by it counts as being in the Pi Browser. */
  sandboxHostUrl: string | null;
  win: Window;
  /** How long loading the script may take before Pi counts as unavailable. */
  loadTimeoutMs?: number;
}

/** The origin of the window that frames this one, or null when it is not framed. */
function framingOrigin(win: Window): string | null {
  if (win.parent === win) return null;
  const ancestors = win.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0] ?? null;
  try {
    return win.document.referrer ? new URL(win.document.referrer).origin : null;
  } catch {
    return null;
  }
}

/**
 * The app's one way to Pi: a typed layer over `window.Pi` that loads the SDK only inside
 * the Pi Browser (or the local sandbox's page), initialises it once with version 2.0, and
 * checks the spec's rules before each call. Elsewhere every call fails with
 * 'This feature is currently only available to PI users'.
 */
export class PiClient {
  private loading: Promise<PiGlobal> | null = null;
  private granted: PiScope[] = [];
  readonly inPiBrowser: boolean;

  constructor(private readonly options: PiClientOptions) {
    const { win, sdkUrl, sandboxHostUrl } = options;
    const agent = isPiBrowserAgent(win.navigator.userAgent);
    const sandboxHost =
      sandboxHostUrl !== null && framingOrigin(win) === new URL(sandboxHostUrl).origin;
    this.inPiBrowser = sdkUrl !== null && (agent || sandboxHost);
    const storage = safeStorage(win);
    storage?.setItem(PI_STORAGE_KEYS.browserType, this.inPiBrowser ? 'pi' : 'other');
    storage?.setItem(PI_STORAGE_KEYS.piBrowser, this.inPiBrowser ? '1' : '0');
    storage?.setItem(PI_STORAGE_KEYS.devid, win.navigator.userAgent.slice(0, DEVID_LENGTH));
  }

  /** The SDK, loaded and initialised; fails outside the Pi Browser. */
  sdk(): Promise<PiGlobal> {
    if (!this.inPiBrowser || this.options.sdkUrl === null) {
      return Promise.reject(new PiSdkError(PI_MESSAGES.piOnly, 'PI_ONLY'));
    }
    this.loading ??= this.load(this.options.sdkUrl).catch((error: unknown) => {
      this.loading = null;
      throw error;
    });
    return this.loading;
  }

  /** Asks the person for `scopes`; remembers who they are on this device (piID, piUsername). */
  async authenticate(
    scopes: readonly PiScope[],
    onIncompletePaymentFound: (payment: PiPayment) => void,
  ): Promise<PiAuthResult> {
    const wanted = checkScopes(scopes);
    const pi = await this.sdk();
    const result = await pi.authenticate(wanted, onIncompletePaymentFound);
    this.granted = (result.user.credentials?.scopes ?? wanted).filter((s): s is PiScope =>
      wanted.includes(s as PiScope),
    );
    const storage = safeStorage(this.options.win);
    storage?.setItem(PI_STORAGE_KEYS.piID, result.user.uid);
    if (result.user.username) storage?.setItem(PI_STORAGE_KEYS.piUsername, result.user.username);
    return result;
  }

  /** Starts a payment; only after authenticate granted the payments scope. */
  async createPayment(data: PaymentData, callbacks: PaymentCallbacks): Promise<void> {
    checkPaymentsScope(this.granted);
    (await this.sdk()).createPayment(data, callbacks);
  }

  async isAdReady(format: AdFormat): Promise<boolean> {
    const type = checkAdFormat(format);
    return (await (await this.sdk()).Ads.isAdReady(type)).ready;
  }

  async requestAd(format: AdFormat): Promise<string> {
    const type = checkAdFormat(format);
    return (await (await this.sdk()).Ads.requestAd(type)).result;
  }

  async showAd(format: AdFormat): Promise<ShowAdResponse> {
    const type = checkAdFormat(format);
    return (await this.sdk()).Ads.showAd(type);
  }

  async openShareDialog(title: string, message: string): Promise<void> {
    (await this.sdk()).openShareDialog(title, message);
  }

  async openUrlInSystemBrowser(url: string): Promise<void> {
    await (await this.sdk()).openUrlInSystemBrowser(url);
  }

  async nativeFeaturesList(): Promise<string[]> {
    return (await this.sdk()).nativeFeaturesList();
  }

  /**
   * Asks the Pi Browser to let the app use the camera or the microphone: whether the person
   * allowed it, or null where this Pi Browser cannot ask (an SDK without the method, or a
   * build whose native features lack `request_permission`): the browser's own prompt is
   * then the only one.
   */
  async requestPermission(permission: NativePermission): Promise<boolean | null> {
    const wanted = checkNativePermission(permission);
    const pi = await this.sdk();
    if (!pi.requestPermission) return null;
    const features = await pi.nativeFeaturesList();
    if (!features.includes(REQUEST_PERMISSION_FEATURE)) return null;
    return pi.requestPermission(wanted);
  }

  /** Opens a conversation of Pi's own chat in the Pi Browser. */
  async openConversation(conversationId: number): Promise<void> {
    const id = checkConversationId(conversationId);
    const pi = await this.sdk();
    if (!pi.openConversation) throw new PiSdkError(PI_MESSAGES.unavailable, 'UNAVAILABLE');
    await pi.openConversation(id);
  }

  /** Copies through the Pi host when it can, otherwise through the clipboard. */
  async copyText(text: string): Promise<void> {
    if (this.inPiBrowser) {
      const pi = await this.sdk();
      if (pi.copyText) {
        pi.copyText(text);
        return;
      }
    }
    await this.options.win.navigator.clipboard.writeText(text);
  }

  /** What this device remembers of the last Pi sign-in. */
  remembered(): { piID: string | null; piUsername: string | null } {
    const storage = safeStorage(this.options.win);
    return {
      piID: storage?.getItem(PI_STORAGE_KEYS.piID) ?? null,
      piUsername: storage?.getItem(PI_STORAGE_KEYS.piUsername) ?? null,
    };
  }

  forget(): void {
    const storage = safeStorage(this.options.win);
    storage?.removeItem(PI_STORAGE_KEYS.piID);
    storage?.removeItem(PI_STORAGE_KEYS.piUsername);
  }

  private async load(sdkUrl: string): Promise<PiGlobal> {
    const win = this.options.win as Window & { Pi?: PiGlobal };
    if (!win.Pi) await injectScript(win, sdkUrl, this.options.loadTimeoutMs ?? 20_000);
    const pi = win.Pi;
    if (!pi) throw new PiSdkError(PI_MESSAGES.piOnly, 'PI_ONLY');
    await pi.init({ version: SDK_VERSION, sandbox: this.options.sandbox });
    return pi;
  }
}

function injectScript(win: Window, src: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = win.document.createElement('script');
    script.src = src;
    script.async = true;
    const timer = setTimeout(() => fail(), timeoutMs);
    const fail = () => {
      clearTimeout(timer);
      script.remove();
      reject(new PiSdkError(PI_MESSAGES.piOnly, 'PI_ONLY'));
    };
    script.onload = () => {
      clearTimeout(timer);
      resolve();
    };
    script.onerror = fail;
    win.document.head.append(script);
  });
}

/** localStorage, or null where the browser refuses it (private modes, blocked storage). */
function safeStorage(win: Window): Storage | null {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}
