/**
 * The Pi SDK's rules, constants and messages as the product's spec gives them (§4–§9).
 * Both halves of this package hold to them: the app's typed layer over `window.Pi`
 * checks before it calls, and the hosted SDK (the one the local sandbox serves) enforces
 * them as Pi's own does.
 */

export const SDK_VERSION = '2.0';

/** Scopes a person may grant the app. */
export const PI_SCOPES = ['payments', 'username', 'roles', 'platform', 'wallet_address'] as const;
export type PiScope = (typeof PI_SCOPES)[number];

export const AD_FORMATS = ['interstitial', 'rewarded'] as const;
export type AdFormat = (typeof AD_FORMATS)[number];

/** Devices the app may ask the Pi Browser to let it use (`requestPermission`). */
export const NATIVE_PERMISSIONS = ['camera', 'microphone'] as const;
export type NativePermission = (typeof NATIVE_PERMISSIONS)[number];

/** What `nativeFeaturesList` names when the Pi Browser can ask for a native permission. */
export const REQUEST_PERMISSION_FEATURE = 'request_permission';

export const AD_RESULTS = [
  'AD_REWARDED',
  'AD_CLOSED',
  'AD_DISPLAY_ERROR',
  'AD_NETWORK_ERROR',
  'AD_NOT_AVAILABLE',
  'ADS_NOT_SUPPORTED',
  'USER_UNAUTHENTICATED',
] as const;
export type AdResult = (typeof AD_RESULTS)[number];

/** §9: the SDK's timings. */
export const PI_TIMINGS = {
  /** Calls to the network API. */
  httpTimeoutMs: 20_000,
  /** A host message without reply. */
  hostMessageTimeoutMs: 120_000,
  /** Waiting for the person to act in the host (consent, wallet). */
  userActionTimeoutMs: 60_000,
  /** The approval and completion callbacks are called again this often… */
  callbackRetryMs: 10_000,
  /** …at most this many times, while the host says retry. */
  callbackRetries: 5,
  /** Usage is reported at most this often. */
  usageThrottleMs: 15_000,
} as const;

/** §5 and §8: the SDK's own messages, word for word. */
export const PI_MESSAGES = {
  invalidScopes: "Invalid scopes found. Please check the scopes you're requesting again.",
  paymentsScopeMissing: 'Cannot create a payment without "payments" scope',
  invalidArgument: 'Invalid argument',
  badVersion: 'Unrecognized version number passed to init()',
  notInitialized: 'Pi Network SDK was not initialized. Call init() before any other method.',
  consentCancelled: 'User consent cancelled',
  pendingPayment: 'A pending payment needs to be handled.',
  authenticationFailed: 'Authentication failed.',
  timeout: 'timeout',
  piOnly: 'This feature is currently only available to PI users',
  unavailable: 'This feature is currently not available',
} as const;

/** An error of the Pi SDK, with the spec's message. */
export class PiSdkError extends Error {
  override name = 'PiSdkError';
  constructor(
    message: string,
    /** For errors the host or Pi's API reported: their own code. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export function checkVersion(version: unknown): void {
  if (version !== SDK_VERSION) throw new PiSdkError(PI_MESSAGES.badVersion);
}

export function isScope(value: unknown): value is PiScope {
  return typeof value === 'string' && (PI_SCOPES as readonly string[]).includes(value);
}

export function checkScopes(scopes: unknown): PiScope[] {
  if (!Array.isArray(scopes) || !scopes.every(isScope)) {
    throw new PiSdkError(PI_MESSAGES.invalidScopes);
  }
  return [...new Set(scopes)];
}

export function checkAdFormat(format: unknown): AdFormat {
  if (typeof format !== 'string' || !(AD_FORMATS as readonly string[]).includes(format)) {
    throw new PiSdkError(PI_MESSAGES.invalidArgument);
  }
  return format as AdFormat;
}

export function checkNativePermission(permission: unknown): NativePermission {
  if (
    typeof permission !== 'string' ||
    !(NATIVE_PERMISSIONS as readonly string[]).includes(permission)
  ) {
    throw new PiSdkError(PI_MESSAGES.invalidArgument);
  }
  return permission as NativePermission;
}

/** A conversation of Pi's chat is named by a whole number. */
export function checkConversationId(conversationId: unknown): number {
  if (typeof conversationId !== 'number' || !Number.isSafeInteger(conversationId)) {
    throw new PiSdkError(PI_MESSAGES.invalidArgument);
  }
  return conversationId;
}

export function checkPaymentsScope(granted: readonly string[]): void {
  if (!granted.includes('payments')) throw new PiSdkError(PI_MESSAGES.paymentsScopeMissing);
}

/** The spec's error report: `time` in UTC as MM-DD HH:MM:SS. */
export interface PiErrorReport {
  time: string;
  call: string;
  message: string;
  data: unknown;
}

export function errorReport(call: string, error: unknown, data: unknown, now: Date): PiErrorReport {
  const two = (n: number) => String(n).padStart(2, '0');
  const time =
    `${two(now.getUTCMonth() + 1)}-${two(now.getUTCDate())} ` +
    `${two(now.getUTCHours())}:${two(now.getUTCMinutes())}:${two(now.getUTCSeconds())}`;
  const message = error instanceof Error ? error.message : String(error);
  return { time, call, message, data };
}
