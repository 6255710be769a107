import { HostChannel, parentWindowPort } from './host-channel.js';
import {
  PI_MESSAGES,
  PI_TIMINGS,
  PiSdkError,
  checkAdFormat,
  checkConversationId,
  checkNativePermission,
  checkPaymentsScope,
  checkScopes,
  checkVersion,
  errorReport,
  type AdFormat,
} from './rules.js';
import type { PaymentCallbacks, PaymentData, PiGlobal, PiPayment, PiUser } from './types.js';

/**
 * A Pi SDK that runs inside a host speaking the window messages of host-protocol.ts: what
 * the local sandbox serves as `pi-sdk.js`, so the app meets the same `window.Pi` in an
 * ordinary browser as in the Pi Browser. It keeps the spec's rules: init first with
 * version 2.0, scopes from the list, consent first, the payments scope for payments, a
 * pending payment handled before a new one, callbacks retried every 10 s up to 5 times
 * while the host says so, usage reported at most every 15 s, errors reported as
 * `{ time, call, message, data }`.
 */

/** Events that count as use of the app (§7). */
const USAGE_EVENTS = ['click', 'scroll', 'mousemove', 'touchend', 'change'] as const;

interface Communication {
  accessToken: string;
  backendURL: string;
}

export interface HostedPiDeps {
  host: HostChannel;
  fetch: typeof fetch;
  /** Where use of the app is heard (the window); none in tests that do not track. */
  events?: Pick<EventTarget, 'addEventListener'>;
  now?: () => Date;
}

/** The hosted SDK has every method, those older SDK versions lack included. */
export type HostedPi = Required<PiGlobal>;

export function createHostedPi(deps: HostedPiDeps): HostedPi {
  const { host } = deps;
  const now = deps.now ?? (() => new Date());
  let initialized = false;
  let communication: Communication | null = null;
  let granted: string[] = [];
  let lastTrackAt = Number.NEGATIVE_INFINITY;
  let onIncomplete: ((payment: PiPayment) => void) | null = null;

  const ensureInit = () => {
    if (!initialized) throw new PiSdkError(PI_MESSAGES.notInitialized);
  };

  const communicate = async (): Promise<Communication> => {
    const info = await host.request('communicationInformationRequest', {});
    communication = {
      accessToken: info.accessToken,
      backendURL: info.backendURL.replace(/\/+$/, ''),
    };
    return communication;
  };

  /** A call to Pi's API with the person's token: 20 s, and the host told of a refusal. */
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const { accessToken, backendURL } = communication ?? (await communicate());
    let response: Response;
    try {
      response = await deps.fetch(`${backendURL}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${accessToken}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(PI_TIMINGS.httpTimeoutMs),
      });
    } catch {
      void host.request('networkError', { kind: 'unknown' }).catch(() => undefined);
      throw new PiSdkError(PI_MESSAGES.timeout, 'timeout');
    }
    const answer = (await response.json().catch(() => null)) as
      (T & { error?: string; error_message?: string }) | null;
    if (!response.ok) {
      const kind = response.status === 401 || response.status === 403 ? 'auth' : 'unknown';
      void host.request('networkError', { kind }).catch(() => undefined);
      const code = answer?.error ?? `http_${response.status}`;
      throw new PiSdkError(answer?.error_message ?? code, code);
    }
    return answer as T;
  };

  const report = (call: string, error: unknown, data: unknown) => {
    if (!communication) return;
    const body = { error: errorReport(call, error, data, now()) };
    void deps
      .fetch(`${communication.backendURL}/network/error`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${communication.accessToken}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(PI_TIMINGS.httpTimeoutMs),
      })
      .catch(() => undefined);
  };

  const track = () => {
    const at = Date.now();
    if (at - lastTrackAt < PI_TIMINGS.usageThrottleMs) return;
    lastTrackAt = at;
    void api('POST', '/v2/usage/track', {}).catch(() => undefined);
  };

  /**
   * Calls `callback` now, then every 10 s while the host says the payment has not reached
   * `targetStatus`, five times at most; `stop` ends it early.
   */
  const withRetrial = (
    callback: () => void,
    paymentId: string,
    targetStatus: 'developer_approved' | 'developer_completed',
  ) => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = (retriesLeft: number) => {
      if (stopped || retriesLeft === 0) return;
      timer = setTimeout(() => {
        void host
          .request('decideCallbackRetrial', { paymentId, targetStatus })
          .then(({ retry }) => {
            if (!retry || stopped) return;
            callback();
            run(retriesLeft - 1);
          })
          .catch(() => undefined);
      }, PI_TIMINGS.callbackRetryMs);
    };
    callback();
    run(PI_TIMINGS.callbackRetries);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  };

  const paymentFlow = async (data: PaymentData, callbacks: PaymentCallbacks) => {
    let pending: { exists: boolean; payment?: PiPayment | null };
    try {
      pending = await api('GET', '/v2/payments/incomplete');
    } catch {
      await host.request('showPrePaymentError', { paymentError: 'pending_check_failed' });
      throw new PiSdkError('pending_check_failed', 'pending_check_failed');
    }
    if (pending.exists && pending.payment) {
      onIncomplete?.(pending.payment);
      throw Object.assign(new PiSdkError(PI_MESSAGES.pendingPayment), {
        payment: pending.payment,
      });
    }
    await host.request('preparePaymentFlow', {});
    let created: PiPayment;
    try {
      created = await api<PiPayment>('POST', '/v2/payments/user_to_app', { payment: data });
    } catch (error) {
      const code = error instanceof PiSdkError && error.code ? error.code : 'unknown';
      await host.request('showPrePaymentError', { paymentError: code });
      throw error;
    }
    const paymentId = created.identifier;
    await host.request('startPaymentFlow', { paymentId });
    const stopApproval = withRetrial(
      () => callbacks.onReadyForServerApproval(paymentId),
      paymentId,
      'developer_approved',
    );
    let outcome: Awaited<ReturnType<typeof host.request<'waitForTransaction'>>>;
    try {
      outcome = await host.request('waitForTransaction', { paymentId });
    } finally {
      stopApproval();
    }
    if (outcome.cancelled) {
      callbacks.onCancel(paymentId);
      return;
    }
    const { txid } = outcome;
    withRetrial(
      () => callbacks.onReadyForServerCompletion(paymentId, txid),
      paymentId,
      'developer_completed',
    );
  };

  const adCall = <R>(format: unknown, call: (format: AdFormat) => Promise<R>): Promise<R> => {
    try {
      ensureInit();
      return call(checkAdFormat(format));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new PiSdkError(String(error)));
    }
  };

  return {
    init(config) {
      checkVersion(config?.version);
      initialized = true;
      track();
      for (const name of USAGE_EVENTS) {
        deps.events?.addEventListener(name, track, { passive: true, capture: true });
      }
    },

    async authenticate(scopes, onIncompletePaymentFound) {
      ensureInit();
      const wanted = checkScopes(scopes);
      try {
        const { granted: consented } = await host.request('openConsentModal', { scopes: wanted });
        if (!consented) throw new PiSdkError(PI_MESSAGES.consentCancelled);
        await communicate();
        let me: PiUser | null;
        try {
          me = await api<PiUser | null>('GET', '/v2/me');
        } catch {
          me = null;
        }
        if (!me?.uid) throw new PiSdkError(PI_MESSAGES.authenticationFailed);
        granted = me.credentials?.scopes ?? wanted;
        onIncomplete = onIncompletePaymentFound;
        const pending = await api<{ exists: boolean; payment?: PiPayment | null }>(
          'GET',
          '/v2/payments/incomplete',
        );
        if (pending.exists && pending.payment) onIncompletePaymentFound(pending.payment);
        return { accessToken: communication!.accessToken, user: me };
      } catch (error) {
        report('authenticate', error, { scopes: wanted });
        throw error;
      }
    },

    createPayment(data, callbacks) {
      ensureInit();
      checkPaymentsScope(granted);
      void paymentFlow(data, callbacks).catch((error: unknown) => {
        const failure = error instanceof Error ? error : new PiSdkError(String(error));
        report('createPayment', failure, data);
        const { payment } = failure as Error & { payment?: PiPayment };
        callbacks.onError(failure, payment);
      });
    },

    openShareDialog(title, message) {
      ensureInit();
      void host
        .request('openShareDialog', { title, sharingMessage: message })
        .catch(() => undefined);
    },

    async openUrlInSystemBrowser(url) {
      ensureInit();
      await host.request('openUrlInSystemBrowser', { url });
    },

    async nativeFeaturesList() {
      ensureInit();
      return (await host.request('checkNativeFeatures', {})).features;
    },

    async requestPermission(permission) {
      ensureInit();
      const wanted = checkNativePermission(permission);
      // As Pi's own SDK: a host that could not ask (null) counts as not granted.
      return (
        (await host.request('requestNativePermission', { permission: wanted })).granted === true
      );
    },

    async openConversation(conversationId) {
      ensureInit();
      await host.request('openConversation', {
        conversationId: checkConversationId(conversationId),
      });
    },

    copyText(text) {
      ensureInit();
      void host.request('copyText', { text }).catch(() => undefined);
    },

    Ads: {
      isAdReady: (format) =>
        adCall(format, async (type) => ({
          type,
          ready: (await host.request('isAdReady', { format: type })).ready,
        })),
      requestAd: (format) =>
        adCall(format, async (type) => ({
          type,
          result: (await host.request('requestAd', { format: type })).result,
        })),
      showAd: (format) => adCall(format, (type) => host.request('showAd', { format: type })),
    },
  };
}

/**
 * Installs the hosted SDK as `window.Pi`, talking to the parent window of `hostOrigin`
 * (the origin the script itself came from, in the sandbox's `pi-sdk.js`).
 */
export function installHostedPi(win: Window, hostOrigin: string): PiGlobal {
  const pi = createHostedPi({
    host: new HostChannel(parentWindowPort(win, hostOrigin)),
    fetch: win.fetch.bind(win),
    events: win,
  });
  (win as Window & { Pi?: PiGlobal }).Pi = pi;
  return pi;
}
