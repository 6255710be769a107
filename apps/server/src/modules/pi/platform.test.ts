import { startPiSandbox, type RunningPiSandbox } from '@teltlk/pi-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PiApiError, PiPlatform, PiUnreachable, type PaymentDto } from './platform.js';
import { Horizon } from '../payments/horizon.js';
import { signedPayment } from '../../test/pi-sandbox.js';

const API_KEY = 'platform-test-key';

/**
 * The Platform API adapter against the local sandbox over HTTP: every call of PI.md, and
 * the state changes and checks Pi makes.
 */
describe('Pi Platform API adapter against the sandbox', () => {
  let sandbox: RunningPiSandbox;
  let platform: PiPlatform;
  beforeAll(async () => {
    sandbox = await startPiSandbox({ apiKey: API_KEY });
    platform = new PiPlatform({ baseUrl: `${sandbox.url}/v2`, apiKey: API_KEY });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  let people = 0;
  const person = (scopes?: string[]) =>
    sandbox.emulator.signIn(`adapter_${(people += 1)}_${Date.now().toString(36)}`, scopes);

  /** A user-to-app payment as the SDK makes it, with the person's token. */
  const userPayment = (accessToken: string, amount = 1.5) => {
    const answer = sandbox.emulator.handle(
      'POST',
      '/v2/payments/user_to_app',
      `Bearer ${accessToken}`,
      { payment: { amount, memo: 'Recharge', metadata: { order: 'o1' } } },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as PaymentDto;
  };
  const walletSigns = (id: string) =>
    sandbox.emulator.handle('POST', `/sandbox/payments/${id}/sign`, undefined, undefined)
      .body as PaymentDto;
  const code = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PiApiError);
    return (error as PiApiError).code;
  };

  it('names the person of a token, with the scopes granted', async () => {
    const { accessToken, user } = person(['username', 'payments']);
    expect(await platform.me(accessToken)).toEqual({
      uid: user.uid,
      username: user.username,
      scopes: ['username', 'payments'],
    });
    expect(await platform.me('not-a-token')).toBeNull();
  });

  it('approves twice as once, completes with the transaction id only', async () => {
    const { accessToken } = person();
    const payment = userPayment(accessToken);
    expect((await platform.getPayment(payment.identifier)).status.developer_approved).toBe(false);
    const approved = await platform.approvePayment(payment.identifier);
    const again = await platform.approvePayment(payment.identifier);
    expect(again).toEqual(approved);
    expect(again.status.developer_approved).toBe(true);

    expect(await code(platform.completePayment(payment.identifier, 'any'))).toBe(
      'verification_failed',
    );
    const signed = walletSigns(payment.identifier);
    expect(signed.transaction?.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(await code(platform.completePayment(payment.identifier, 'f'.repeat(64)))).toBe(
      'txid_mismatch',
    );
    const done = await platform.completePayment(payment.identifier, signed.transaction!.txid);
    expect(done.status).toMatchObject({ developer_completed: true, transaction_verified: true });
    expect(await code(platform.cancelPayment(payment.identifier))).toBe('already_completed');
  });

  it('never completes a cancelled payment', async () => {
    const { accessToken } = person();
    const payment = userPayment(accessToken);
    await platform.approvePayment(payment.identifier);
    expect((await platform.cancelPayment(payment.identifier)).status.cancelled).toBe(true);
    expect(await code(platform.completePayment(payment.identifier, 'x'))).toBe('cancelled_payment');
    expect(await code(platform.approvePayment(payment.identifier))).toBe('cancelled_payment');
  });

  it('refuses a second payment while one with a transaction is unfinished', async () => {
    const { accessToken } = person();
    const first = userPayment(accessToken);
    await platform.approvePayment(first.identifier);
    walletSigns(first.identifier);
    const answer = sandbox.emulator.handle(
      'POST',
      '/v2/payments/user_to_app',
      `Bearer ${accessToken}`,
      { payment: { amount: 1, memo: 'Again', metadata: {} } },
    );
    expect(answer.body).toMatchObject({ error: 'ongoing_payment_found' });
    const incomplete = sandbox.emulator.handle(
      'GET',
      '/v2/payments/incomplete',
      `Bearer ${accessToken}`,
      undefined,
    );
    expect(incomplete.body).toMatchObject({
      exists: true,
      payment: { identifier: first.identifier },
    });
  });

  it('needs the payments scope for a payment', () => {
    const { accessToken } = person(['username']);
    const answer = sandbox.emulator.handle(
      'POST',
      '/v2/payments/user_to_app',
      `Bearer ${accessToken}`,
      { payment: { amount: 1, memo: 'x', metadata: {} } },
    );
    expect(answer).toMatchObject({ status: 403, body: { error: 'missing_scope' } });
  });

  it('pays a person from the app, one open payment at a time', async () => {
    const { user } = person();
    expect(
      await code(platform.createPayment({ amount: 1, memo: 'w', metadata: {}, uid: 'nobody' })),
    ).toBe('user_not_found');
    expect(
      await code(platform.createPayment({ amount: -1, memo: 'w', metadata: {}, uid: user.uid })),
    ).toBe('invalid_amount');
    const payment = await platform.createPayment({
      amount: 2,
      memo: 'Withdraw',
      metadata: { withdrawal: 'w1' },
      uid: user.uid,
    });
    expect(payment).toMatchObject({ direction: 'app_to_user', to_address: user.walletAddress });
    expect(
      await code(platform.createPayment({ amount: 1, memo: 'w', metadata: {}, uid: user.uid })),
    ).toBe('ongoing_payment_found');
    expect((await platform.incompleteServerPayments()).map((p) => p.identifier)).toContain(
      payment.identifier,
    );

    // The app's transaction must be on the ledger, to the person, with the payment as memo.
    const horizon = new Horizon(`${sandbox.url}/horizon`);
    const submit = async (memo: string, to: string) => {
      const { envelope } = signedPayment(sandbox, { to, amount: '2', memo });
      return { hash: await horizon.submit(envelope) };
    };
    const wrongMemo = await submit('other', payment.to_address!);
    expect(await code(platform.completePayment(payment.identifier, wrongMemo.hash))).toBe(
      'txid_mismatch',
    );
    const sent = await submit(payment.identifier, payment.to_address!);
    const done = await platform.completePayment(payment.identifier, sent.hash);
    expect(done.transaction?.txid).toBe(sent.hash);
    expect((await platform.incompleteServerPayments()).map((p) => p.identifier)).not.toContain(
      payment.identifier,
    );
  });

  it('tells a rewarded ad watched to the end from one closed early or never shown', async () => {
    // As the Pi Browser shows them, over the sandbox's HTTP like the host page does.
    const show = async (format: string, watched: boolean) => {
      const response = await fetch(`${sandbox.url}/sandbox/ads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ format, watched }),
      });
      return ((await response.json()) as { adId: string; result: string }).adId;
    };
    const watched = await show('rewarded', true);
    expect(await platform.adStatus(watched)).toMatchObject({
      identifier: watched,
      mediator_ack_status: 'granted',
    });
    expect((await platform.adStatus(await show('rewarded', false)))?.mediator_ack_status).toBe(
      'failed',
    );
    expect((await platform.adStatus(await show('interstitial', true)))?.mediator_ack_status).toBe(
      null,
    );
    expect(await platform.adStatus('never-shown')).toBeNull();
    const wrong = new PiPlatform({ baseUrl: `${sandbox.url}/v2`, apiKey: 'wrong-key-1' });
    expect(await code(wrong.adStatus(watched))).toBe('unauthorized');
  });

  it('refuses a wrong server key, and says so', async () => {
    const wrong = new PiPlatform({ baseUrl: `${sandbox.url}/v2`, apiKey: 'wrong-key-1' });
    expect(await code(wrong.incompleteServerPayments())).toBe('unauthorized');
  });

  it('counts an unreachable Pi as unreachable', async () => {
    const away = new PiPlatform({ baseUrl: 'http://127.0.0.1:9/v2', apiKey: API_KEY });
    await expect(away.me('token-1234')).rejects.toBeInstanceOf(PiUnreachable);
  });
});
