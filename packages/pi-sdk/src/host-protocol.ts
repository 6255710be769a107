import type { AdFormat, NativePermission } from './rules.js';
import type { ShowAdResponse } from './types.js';

/**
 * The window messages between an app's SDK and the host that runs it (the Pi Browser, or
 * the local sandbox's page), §7 of the spec. The SDK asks, the host answers the same id.
 */
export interface HostMethods {
  /** The person's access token for this app and where Pi's API and front end are. */
  communicationInformationRequest: {
    params: Record<string, never>;
    result: { accessToken: string; backendURL: string; frontendURL: string };
  };
  openConsentModal: { params: { scopes: string[] }; result: { granted: boolean } };
  preparePaymentFlow: { params: Record<string, never>; result: { ok: true } };
  startPaymentFlow: { params: { paymentId: string }; result: { ok: true } };
  /** Resolves once the person signed the payment in the wallet, or cancelled. */
  waitForTransaction: {
    params: { paymentId: string };
    result: { cancelled: true } | { cancelled: false; txid: string };
  };
  showPrePaymentError: { params: { paymentError: string }; result: { ok: true } };
  /** Whether a callback should be called again: the payment has not reached `targetStatus`. */
  decideCallbackRetrial: {
    params: { paymentId: string; targetStatus: 'developer_approved' | 'developer_completed' };
    result: { retry: boolean };
  };
  /** Opens a conversation of Pi's own chat in the Pi Browser. */
  openConversation: { params: { conversationId: number }; result: { ok: true } };
  openShareDialog: { params: { title: string; sharingMessage: string }; result: { ok: true } };
  openUrlInSystemBrowser: { params: { url: string }; result: { ok: true } };
  checkNativeFeatures: { params: Record<string, never>; result: { features: string[] } };
  /**
   * Asks the person to let the app use a device (the system's prompt, in the Pi Browser);
   * `granted: null` when the host could not ask.
   */
  requestNativePermission: {
    params: { permission: NativePermission };
    result: { granted: boolean | null };
  };
  isAdReady: { params: { format: AdFormat }; result: { ready: boolean } };
  requestAd: { params: { format: AdFormat }; result: { result: string } };
  showAd: { params: { format: AdFormat }; result: ShowAdResponse };
  copyText: { params: { text: string }; result: { ok: true } };
  /** Pi's API refused the token (auth) or failed otherwise (unknown). */
  networkError: { params: { kind: 'auth' | 'unknown' }; result: { ok: true } };
}

export type HostMethod = keyof HostMethods;

export const HOST_REQUEST = 'pi-sdk:request';
export const HOST_REPLY = 'pi-sdk:reply';

export interface HostRequest<M extends HostMethod = HostMethod> {
  type: typeof HOST_REQUEST;
  id: string;
  method: M;
  params: HostMethods[M]['params'];
}

export type HostReply =
  | { type: typeof HOST_REPLY; id: string; ok: true; result: unknown }
  | { type: typeof HOST_REPLY; id: string; ok: false; error: string };

/** Methods that wait for the person, not for the host: the shorter timeout. */
export const USER_ACTION_METHODS: ReadonlySet<HostMethod> = new Set([
  'openConsentModal',
  'waitForTransaction',
  'requestNativePermission',
  'showAd',
]);

export function isHostRequest(value: unknown): value is HostRequest {
  const data = value as Partial<HostRequest> | null;
  return (
    typeof data === 'object' &&
    data !== null &&
    data.type === HOST_REQUEST &&
    typeof data.id === 'string' &&
    typeof data.method === 'string'
  );
}

export function isHostReply(value: unknown): value is HostReply {
  const data = value as Partial<HostReply> | null;
  return (
    typeof data === 'object' &&
    data !== null &&
    data.type === HOST_REPLY &&
    typeof data.id === 'string'
  );
}
