import {
  HOST_REPLY,
  HostChannel,
  PI_MESSAGES,
  type HostMethod,
  type HostPort,
  type HostReply,
  type PiGlobal,
  type PiPayment,
} from '@teltlk/pi-sdk';
import { createHostedPi } from '@teltlk/pi-sdk/hosted';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PiPlatformEmulator } from './platform.js';

/**
 * The hosted Pi SDK (the sandbox's `window.Pi`) against the Platform API emulator, with a
 * host played in memory and fake timers for the spec's 10 s × 5 retries, 15 s tracking
 * and 60/120 s host timeouts.
 */

const KEY = 'hosted-sdk-key';
type Handler = (params: never) => unknown;

function setup() {
  const emulator = new PiPlatformEmulator({ apiKey: KEY, baseUrl: 'http://pi.test' });
  let token = '';
  const asked: { method: HostMethod; params: unknown }[] = [];
  /** What the host answers; a method left out is never answered. */
  const handlers: Partial<Record<HostMethod, Handler>> = {
    openConsentModal: ({ scopes }: { scopes: string[] }) => {
      token = emulator.signIn('ada', scopes).accessToken;
      return { granted: true };
    },
    communicationInformationRequest: () => ({
      accessToken: token,
      backendURL: 'http://pi.test',
      frontendURL: 'http://pi.test',
    }),
    preparePaymentFlow: () => ({ ok: true }),
    startPaymentFlow: () => ({ ok: true }),
    showPrePaymentError: () => ({ ok: true }),
    networkError: () => ({ ok: true }),
    decideCallbackRetrial: ({
      paymentId,
      targetStatus,
    }: {
      paymentId: string;
      targetStatus: 'developer_approved';
    }) => ({ retry: !emulator.payments.get(paymentId)!.status[targetStatus] }),
    checkNativeFeatures: () => ({ features: ['inline_media', 'request_permission'] }),
    requestNativePermission: ({ permission }: { permission: string }) => ({
      granted: permission === 'microphone',
    }),
    openConversation: () => ({ ok: true }),
    isAdReady: () => ({ ready: true }),
    showAd: ({ format }: { format: string }) => ({ type: format, result: 'AD_REWARDED' }),
  };
  let listener: (reply: HostReply) => void = () => undefined;
  const port: HostPort = {
    post: (request) => {
      asked.push({ method: request.method, params: request.params });
      const handler = handlers[request.method];
      if (!handler) return;
      queueMicrotask(() => {
        try {
          const result = handler(request.params as never);
          listener({ type: HOST_REPLY, id: request.id, ok: true, result });
        } catch (error) {
          listener({ type: HOST_REPLY, id: request.id, ok: false, error: String(error) });
        }
      });
    },
    listen: (l) => {
      listener = l;
      return () => undefined;
    },
  };
  const fetch = vi.fn((url: string | URL | Request, init?: RequestInit) => {
    const { pathname } = new URL(url instanceof Request ? url.url : url);
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const answer = emulator.handle(
      init?.method ?? 'GET',
      pathname,
      headers.get('authorization') ?? undefined,
      body,
    );
    return Promise.resolve(
      new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  }) as unknown as typeof globalThis.fetch & ReturnType<typeof vi.fn>;
  const events = new EventTarget();
  const pi = createHostedPi({ host: new HostChannel(port), fetch, events });
  const callbacks = {
    onReadyForServerApproval: vi.fn<(id: string) => void>(),
    onReadyForServerCompletion: vi.fn<(id: string, txid: string) => void>(),
    onCancel: vi.fn<(id: string) => void>(),
    onError: vi.fn<(error: Error, payment?: PiPayment) => void>(),
  };
  return { emulator, pi, handlers, asked, fetch, events, callbacks };
}

const signedIn = async (pi: PiGlobal, scopes = ['username', 'payments'] as const) => {
  void pi.init({ version: '2.0', sandbox: true });
  return pi.authenticate([...scopes], () => undefined);
};

describe('the hosted Pi SDK', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses every call before init, and any version but 2.0', async () => {
    const { pi, callbacks } = setup();
    await expect(pi.authenticate(['username'], () => undefined)).rejects.toThrow(
      'Pi Network SDK was not initialized. Call init() before any other method.',
    );
    expect(() => pi.createPayment({ amount: 1, memo: 'm', metadata: {} }, callbacks)).toThrow(
      PI_MESSAGES.notInitialized,
    );
    await expect(pi.Ads.isAdReady('rewarded')).rejects.toThrow(PI_MESSAGES.notInitialized);
    expect(() => pi.openShareDialog('t', 'm')).toThrow(PI_MESSAGES.notInitialized);
    expect(() => pi.init({ version: '1.0' })).toThrow(
      'Unrecognized version number passed to init()',
    );
  });

  it('signs a person in after their consent, with the user Pi names', async () => {
    const { pi, asked } = setup();
    const result = await signedIn(pi);
    expect(result.user).toMatchObject({
      username: 'ada',
      credentials: { scopes: ['username', 'payments'] },
    });
    expect(result.accessToken).toMatch(/^[0-9a-f]{48}$/);
    expect(asked.map((a) => a.method)).toContain('openConsentModal');
  });

  it('checks scopes and says when consent is cancelled', async () => {
    const { pi, handlers } = setup();
    void pi.init({ version: '2.0' });
    await expect(
      pi.authenticate(['username', 'friends' as never], () => undefined),
    ).rejects.toThrow("Invalid scopes found. Please check the scopes you're requesting again.");
    handlers.openConsentModal = () => ({ granted: false });
    await expect(pi.authenticate(['username'], () => undefined)).rejects.toThrow(
      'User consent cancelled',
    );
  });

  it('fails authentication Pi refuses, tells the host, and reports the error', async () => {
    const { pi, handlers, asked, emulator } = setup();
    vi.setSystemTime(new Date(Date.UTC(2026, 10, 26, 9, 8, 7)));
    handlers.communicationInformationRequest = () => ({
      accessToken: 'revoked',
      backendURL: 'http://pi.test',
      frontendURL: 'http://pi.test',
    });
    void pi.init({ version: '2.0' });
    await expect(pi.authenticate(['username'], () => undefined)).rejects.toThrow(
      'Authentication failed.',
    );
    expect(asked).toContainEqual({ method: 'networkError', params: { kind: 'auth' } });
    await vi.waitFor(() => expect(emulator.errorReports).toHaveLength(1));
    expect(emulator.errorReports[0]).toEqual({
      time: '11-26 09:08:07',
      call: 'authenticate',
      message: 'Authentication failed.',
      data: { scopes: ['username'] },
    });
  });

  it('hands an unfinished payment to the app at sign-in', async () => {
    const { pi, emulator } = setup();
    await signedIn(pi);
    const token = [...emulator.users.values()][0]!;
    const payment = emulator.handle(
      'POST',
      '/v2/payments/user_to_app',
      `Bearer ${emulator.signIn(token.username).accessToken}`,
      { payment: { amount: 1, memo: 'm', metadata: {} } },
    ).body as PiPayment;
    emulator.handle('POST', `/v2/payments/${payment.identifier}/approve`, `Key ${KEY}`, undefined);
    emulator.handle('POST', `/sandbox/payments/${payment.identifier}/sign`, undefined, undefined);
    const found = vi.fn();
    await pi.authenticate(['username', 'payments'], found);
    expect(found).toHaveBeenCalledWith(expect.objectContaining({ identifier: payment.identifier }));
  });

  it('needs the payments scope, and a pending payment handled first', async () => {
    const { pi, emulator, callbacks } = setup();
    await signedIn(pi, ['username'] as never);
    expect(() => pi.createPayment({ amount: 1, memo: 'm', metadata: {} }, callbacks)).toThrow(
      'Cannot create a payment without "payments" scope',
    );
    const second = setup();
    await signedIn(second.pi);
    const person = [...second.emulator.users.values()][0]!;
    const pending = second.emulator.handle(
      'POST',
      '/v2/payments/user_to_app',
      `Bearer ${second.emulator.signIn(person.username).accessToken}`,
      { payment: { amount: 1, memo: 'm', metadata: {} } },
    ).body as PiPayment;
    second.emulator.handle(
      'POST',
      `/v2/payments/${pending.identifier}/approve`,
      `Key ${KEY}`,
      undefined,
    );
    second.emulator.handle(
      'POST',
      `/sandbox/payments/${pending.identifier}/sign`,
      undefined,
      undefined,
    );
    second.pi.createPayment({ amount: 2, memo: 'n', metadata: {} }, second.callbacks);
    await vi.waitFor(() => expect(second.callbacks.onError).toHaveBeenCalled());
    const [error, payment] = second.callbacks.onError.mock.calls[0]!;
    expect(error.message).toBe('A pending payment needs to be handled.');
    expect(payment?.identifier).toBe(pending.identifier);
    expect(emulator.payments.size).toBe(0);
  });

  it('calls approval again every 10 s, 5 times at most, while the host says retry', async () => {
    const { pi, handlers, callbacks } = setup();
    await signedIn(pi);
    handlers.waitForTransaction = undefined; // the person never signs
    pi.createPayment({ amount: 1, memo: 'm', metadata: {} }, callbacks);
    // Settles the flow's promises without moving the clock (vi.waitFor would move it).
    for (let i = 0; i < 20; i += 1) await vi.advanceTimersByTimeAsync(0);
    expect(callbacks.onReadyForServerApproval).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(callbacks.onReadyForServerApproval).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(callbacks.onReadyForServerApproval).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(callbacks.onReadyForServerApproval).toHaveBeenCalledTimes(6);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(callbacks.onReadyForServerApproval).toHaveBeenCalledTimes(6);
    // Waiting on the person's wallet ends after 60 s with 'timeout'.
    expect(callbacks.onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'timeout' }),
      undefined,
    );
  });

  it('stops retrying once the server approved, then completes with the txid', async () => {
    const { pi, handlers, emulator, callbacks } = setup();
    await signedIn(pi);
    let sign: () => void = () => undefined;
    handlers.waitForTransaction = ({ paymentId }: { paymentId: string }) =>
      new Promise((resolve) => {
        sign = () => {
          const signed = emulator.handle(
            'POST',
            `/sandbox/payments/${paymentId}/sign`,
            undefined,
            undefined,
          ).body as PiPayment;
          resolve({ cancelled: false, txid: signed.transaction!.txid });
        };
      });
    callbacks.onReadyForServerApproval.mockImplementation((id) => {
      emulator.handle('POST', `/v2/payments/${id}/approve`, `Key ${KEY}`, undefined);
    });
    pi.createPayment({ amount: 1, memo: 'm', metadata: {} }, callbacks);
    await vi.waitFor(() => expect(callbacks.onReadyForServerApproval).toHaveBeenCalledTimes(1));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(callbacks.onReadyForServerApproval).toHaveBeenCalledTimes(1);
    sign();
    await vi.waitFor(() => expect(callbacks.onReadyForServerCompletion).toHaveBeenCalledTimes(1));
    const [id, txid] = callbacks.onReadyForServerCompletion.mock.calls[0]!;
    // The server has not completed: the host says retry, and the callback comes again.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(callbacks.onReadyForServerCompletion).toHaveBeenCalledTimes(2);
    emulator.handle('POST', `/v2/payments/${id}/complete`, `Key ${KEY}`, { txid });
    handlers.decideCallbackRetrial = ({ paymentId }: { paymentId: string }) => ({
      retry: !emulator.payments.get(paymentId)!.status.developer_completed,
    });
    await vi.advanceTimersByTimeAsync(50_000);
    expect(callbacks.onReadyForServerCompletion).toHaveBeenCalledTimes(2);
    expect(callbacks.onError).not.toHaveBeenCalled();
  });

  it('calls onCancel when the person refuses in the wallet', async () => {
    const { pi, handlers, callbacks } = setup();
    await signedIn(pi);
    handlers.waitForTransaction = () => ({ cancelled: true });
    pi.createPayment({ amount: 1, memo: 'm', metadata: {} }, callbacks);
    await vi.waitFor(() => expect(callbacks.onCancel).toHaveBeenCalledTimes(1));
    expect(callbacks.onReadyForServerCompletion).not.toHaveBeenCalled();
  });

  it('times a host message out after 120 s, a wait on the person after 60 s', async () => {
    const { pi, handlers } = setup();
    void pi.init({ version: '2.0' });
    handlers.checkNativeFeatures = undefined;
    const features = pi.nativeFeaturesList();
    const failed = vi.fn();
    features.catch(failed);
    await vi.advanceTimersByTimeAsync(119_999);
    expect(failed).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(failed).toHaveBeenCalledWith(expect.objectContaining({ message: 'timeout' }));

    handlers.openConsentModal = undefined;
    const auth = pi.authenticate(['username'], () => undefined);
    const refused = vi.fn();
    auth.catch(refused);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refused).toHaveBeenCalledWith(expect.objectContaining({ message: 'timeout' }));
  });

  it('reports use at init, then at most every 15 s', async () => {
    const { pi, emulator, events } = setup();
    await signedIn(pi);
    await vi.waitFor(() => expect(emulator.usageReports).toBe(1));
    events.dispatchEvent(new Event('click'));
    events.dispatchEvent(new Event('scroll'));
    await vi.advanceTimersByTimeAsync(14_000);
    events.dispatchEvent(new Event('mousemove'));
    await vi.advanceTimersByTimeAsync(0);
    expect(emulator.usageReports).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    events.dispatchEvent(new Event('touchend'));
    await vi.waitFor(() => expect(emulator.usageReports).toBe(2));
  });

  it('asks the host for a device permission, and answers as the person did', async () => {
    const { pi, handlers, asked } = setup();
    await expect(pi.requestPermission('camera')).rejects.toThrow(PI_MESSAGES.notInitialized);
    void pi.init({ version: '2.0' });
    expect(await pi.requestPermission('microphone')).toBe(true);
    expect(await pi.requestPermission('camera')).toBe(false);
    // A host that could not ask counts as a refusal, as in Pi's own SDK.
    handlers.requestNativePermission = () => ({ granted: null });
    expect(await pi.requestPermission('microphone')).toBe(false);
    expect(asked.filter((a) => a.method === 'requestNativePermission')).toEqual([
      { method: 'requestNativePermission', params: { permission: 'microphone' } },
      { method: 'requestNativePermission', params: { permission: 'camera' } },
      { method: 'requestNativePermission', params: { permission: 'microphone' } },
    ]);
    await expect(pi.requestPermission('contacts' as never)).rejects.toThrow('Invalid argument');
    expect(asked.filter((a) => a.method === 'requestNativePermission')).toHaveLength(3);
  });

  it('waits on the person for a permission 60 s, as for consent', async () => {
    const { pi, handlers } = setup();
    void pi.init({ version: '2.0' });
    handlers.requestNativePermission = undefined;
    const failed = vi.fn();
    pi.requestPermission('camera').catch(failed);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(failed).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(failed).toHaveBeenCalledWith(expect.objectContaining({ message: 'timeout' }));
  });

  it('asks the host to open a conversation of Pi’s chat by its number', async () => {
    const { pi, handlers, asked } = setup();
    await expect(pi.openConversation(42)).rejects.toThrow(PI_MESSAGES.notInitialized);
    void pi.init({ version: '2.0' });
    await pi.openConversation(42);
    expect(asked).toContainEqual({ method: 'openConversation', params: { conversationId: 42 } });
    await expect(pi.openConversation('42' as never)).rejects.toThrow('Invalid argument');
    await expect(pi.openConversation(1.5)).rejects.toThrow('Invalid argument');
    handlers.openConversation = () => {
      throw new Error('no_such_conversation');
    };
    await expect(pi.openConversation(7)).rejects.toThrow('no_such_conversation');
    expect(asked.filter((a) => a.method === 'openConversation')).toHaveLength(2);
  });

  it('shows ads of the two formats only', async () => {
    const { pi } = setup();
    void pi.init({ version: '2.0' });
    await expect(pi.Ads.showAd('video' as never)).rejects.toThrow('Invalid argument');
    expect(await pi.Ads.isAdReady('interstitial')).toEqual({ type: 'interstitial', ready: true });
    expect(await pi.Ads.showAd('rewarded')).toEqual({ type: 'rewarded', result: 'AD_REWARDED' });
  });
});
