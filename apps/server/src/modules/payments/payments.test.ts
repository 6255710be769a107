import type { PaymentDto, RunningPiSandbox } from '@teltlk/pi-sandbox';
import type {
  PaymentListResult,
  PaymentRecord,
  RechargeOrder,
  WalletResult,
  WalletRules,
} from '@teltlk/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../lib/clock.js';
import { createTestApp, dialects, expectError, type TestApp } from '../../test/harness.js';
import { piEnv, piPayer, startClockedSandbox, type PiPayer } from '../../test/pi-sandbox.js';

const PI = 10_000_000;

describe.each(dialects)('Pi payments on $dialect', ({ dialect }) => {
  let sandbox: RunningPiSandbox;
  let useClock: (source: { now(): number }) => void;
  let t: TestApp;
  beforeAll(async () => {
    const started = await startClockedSandbox();
    sandbox = started.sandbox;
    useClock = started.clock.use;
  });
  afterAll(async () => {
    await sandbox.close();
  });
  beforeEach(async () => {
    t = await createTestApp({ dialect, env: piEnv(sandbox) });
    useClock(t.clock);
  });
  afterEach(async () => {
    // Every scenario ends with a ledger that adds up.
    expect(await t.ctx.services.ledger.verify(t.ctx.db)).toEqual([]);
    await t.close();
  });

  const api = (payer: PiPayer, method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.call(method, `/api/v1${url}`, { token: payer.user.token, body });
  const balance = async (payer: PiPayer) =>
    (await api(payer, 'GET', '/wallet')).json<WalletResult>().balances[0]!;
  const order = async (payer: PiPayer, amount: string) => {
    const response = await api(payer, 'POST', '/wallet/recharge', { amount });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<RechargeOrder>();
  };
  /** The browser's part: Pi's createPayment with the order's fields. */
  const piCreate = (payer: PiPayer, payment: RechargeOrder['payment']) => {
    const answer = sandbox.emulator.handle(
      'POST',
      '/v2/payments/user_to_app',
      `Bearer ${payer.pi.accessToken}`,
      { payment },
    );
    expect(answer.status).toBe(200);
    return answer.body as PaymentDto;
  };
  /** The person's wallet signs: the payment goes on the chain. */
  const sign = (id: string) => {
    const answer = sandbox.emulator.handle('POST', `/sandbox/payments/${id}/sign`, undefined, {});
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body as PaymentDto).transaction!.txid;
  };
  const approve = (payer: PiPayer, paymentId: string) =>
    api(payer, 'POST', '/wallet/recharge/approve', { paymentId });
  const complete = (payer: PiPayer, paymentId: string, txid: string) =>
    api(payer, 'POST', '/wallet/recharge/complete', { paymentId, txid });
  /** A whole recharge, as the Pi SDK drives it. */
  const recharge = async (payer: PiPayer, amount: string) => {
    const { payment } = await order(payer, amount);
    const dto = piCreate(payer, payment);
    expect((await approve(payer, dto.identifier)).statusCode).toBe(200);
    const txid = sign(dto.identifier);
    const done = await complete(payer, dto.identifier, txid);
    expect(done.statusCode, done.body).toBe(200);
    return { dto, txid, record: done.json<PaymentRecord>() };
  };
  const withdraw = (payer: PiPayer, amount: string, password = '123456') =>
    api(payer, 'POST', '/wallet/withdraw', { amount, password });
  const chainBalance = (address: string) =>
    sandbox.emulator.horizon.accounts.get(address)?.balance ?? 0n;
  const payments = async (payer: PiPayer, query = '') =>
    (await api(payer, 'GET', `/wallet/payments${query}`)).json<PaymentListResult>();
  /** Pending withdrawals' retry jobs, run now, as a starting node runs them. */
  const retryNow = async () => {
    await t.ctx.services.withdrawals.resume();
    await t.ctx.jobs.runDue();
  };

  describe('recharge', () => {
    it('credits 3.5 Pi once the payment is approved, signed and completed', async () => {
      const payer = await piPayer(t, sandbox);
      const { dto, txid, record } = await recharge(payer, '3.5');
      expect(record).toMatchObject({
        kind: 'recharge',
        state: 'completed',
        amount: 3.5 * PI,
        txid,
      });
      expect(await balance(payer)).toEqual({ currency: 'PI', available: 3.5 * PI, held: 0 });
      expect(sandbox.emulator.payments.get(dto.identifier)!.status).toMatchObject({
        developer_approved: true,
        developer_completed: true,
      });
      expect((await payments(payer)).payments).toEqual([record]);
    });

    it('credits once however often, in whatever order and however concurrently Pi calls back', async () => {
      const payer = await piPayer(t, sandbox);
      const { payment } = await order(payer, '2');
      const dto = piCreate(payer, payment);
      // Completion before approval: there is nothing to complete.
      expectError(await complete(payer, dto.identifier, 'x'.repeat(64)), 'NOT_FOUND');
      const approvals = await Promise.all([1, 2, 3].map(() => approve(payer, dto.identifier)));
      expect(approvals.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      // Completion before the person signed: no transaction yet.
      expectError(await complete(payer, dto.identifier, 'x'.repeat(64)), 'PAYMENT_NOT_COMPLETE');
      const txid = sign(dto.identifier);
      expectError(await complete(payer, dto.identifier, 'y'.repeat(64)), 'PAYMENT_MISMATCH');
      const completions = await Promise.all(
        [1, 2, 3, 4, 5].map(() => complete(payer, dto.identifier, txid)),
      );
      expect(completions.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      // A late approval replayed by Pi changes nothing either.
      expect((await approve(payer, dto.identifier)).json<PaymentRecord>().state).toBe('completed');
      expect((await balance(payer)).available).toBe(2 * PI);
    });

    it('approves only a payment that matches its order and its payer', async () => {
      const payer = await piPayer(t, sandbox);
      const other = await piPayer(t, sandbox);
      const { payment } = await order(payer, '1');
      // The browser was tampered with: 0.5 Pi for an order of 1.
      const cheap = piCreate(payer, { ...payment, amount: 0.5 });
      expectError(await approve(payer, cheap.identifier), 'PAYMENT_MISMATCH');
      const wrongMemo = piCreate(payer, { ...payment, memo: 'something else' });
      expectError(await approve(payer, wrongMemo.identifier), 'PAYMENT_MISMATCH');
      const right = piCreate(payer, payment);
      expectError(await approve(other, right.identifier), 'PI_PAYMENT_NOT_YOURS');
      expectError(await approve(payer, 'no-such-payment'), 'NOT_FOUND');
      expect((await approve(payer, right.identifier)).statusCode).toBe(200);
      // The order is that payment's now: a second payment for it is refused.
      const again = piCreate(payer, payment);
      expectError(await approve(payer, again.identifier), 'PAYMENT_MISMATCH');
      expect(await balance(payer)).toMatchObject({ available: 0, held: 0 });
    });

    it('is for Pi users with a wallet, within the largest recharge', async () => {
      const plain = await t.register();
      expectError(
        await t.call('POST', '/api/v1/wallet/recharge', {
          token: plain.token,
          body: { amount: '1' },
        }),
        'PI_ONLY',
      );
      const payer = await piPayer(t, sandbox);
      const refused = expectError(
        await api(payer, 'POST', '/wallet/recharge', { amount: '10000.1' }),
        'RECHARGE_ABOVE_MAX',
      );
      expect(refused.params).toEqual({ max: '10000' });
      for (const amount of ['0', '-1', '1.12345678', 'abc', '']) {
        expectError(await api(payer, 'POST', '/wallet/recharge', { amount }), 'VALIDATION_FAILED');
      }
    });

    it('leaves nothing behind when the person cancels', async () => {
      const payer = await piPayer(t, sandbox);
      const { payment } = await order(payer, '1');
      const dto = piCreate(payer, payment);
      await approve(payer, dto.identifier);
      sandbox.emulator.handle('POST', `/sandbox/payments/${dto.identifier}/reject`, undefined, {});
      const cancelled = await api(payer, 'POST', '/wallet/recharge/cancel', {
        paymentId: dto.identifier,
      });
      expect(cancelled.json<PaymentRecord>().state).toBe('cancelled');
      expect(await balance(payer)).toMatchObject({ available: 0, held: 0 });
      expect((await payments(payer, '?state=cancelled')).total).toBe(1);
    });

    it('settles a payment Pi reports unfinished: completed when paid, cancelled when not', async () => {
      const payer = await piPayer(t, sandbox);
      const report = (paymentId: string) =>
        api(payer, 'POST', '/pi/payments/incomplete', { paymentId });
      // Paid, then the browser closed before the completion callback.
      const paid = await order(payer, '1.25');
      const dto = piCreate(payer, paid.payment);
      await approve(payer, dto.identifier);
      sign(dto.identifier);
      expect((await report(dto.identifier)).statusCode).toBe(204);
      expect((await report(dto.identifier)).statusCode).toBe(204);
      expect((await balance(payer)).available).toBe(1.25 * PI);
      // Approved but never signed.
      const unpaid = piCreate(payer, (await order(payer, '2')).payment);
      await approve(payer, unpaid.identifier);
      expect((await report(unpaid.identifier)).statusCode).toBe(204);
      expect(sandbox.emulator.payments.get(unpaid.identifier)!.status.cancelled).toBe(true);
      expect((await balance(payer)).available).toBe(1.25 * PI);
      const other = await piPayer(t, sandbox);
      expectError(
        await api(other, 'POST', '/pi/payments/incomplete', { paymentId: dto.identifier }),
        'PI_PAYMENT_NOT_YOURS',
      );
    });

    it('credits, after a crash between completing at Pi and crediting, on the next sweep', async () => {
      const payer = await piPayer(t, sandbox);
      const { payment } = await order(payer, '4');
      const dto = piCreate(payer, payment);
      await approve(payer, dto.identifier);
      const txid = sign(dto.identifier);
      // Pi was told, then the process died before the ledger was written.
      sandbox.emulator.handle(
        'POST',
        `/v2/payments/${dto.identifier}/complete`,
        `Key ${piEnv(sandbox).PI_API_KEY}`,
        { txid },
      );
      await t.ctx.services.recharges.sweep();
      await t.ctx.services.recharges.sweep();
      expect((await balance(payer)).available).toBe(4 * PI);
      expect((await complete(payer, dto.identifier, txid)).statusCode).toBe(200);
      expect((await balance(payer)).available).toBe(4 * PI);
    });
  });

  describe('withdraw', () => {
    it('sends 1 Pi to the person’s Pi wallet, signed by the app wallet, with the fee kept', async () => {
      const payer = await piPayer(t, sandbox);
      await recharge(payer, '3.5');
      const before = chainBalance(payer.pi.user.walletAddress);
      const rules = (await api(payer, 'GET', '/wallet/rules')).json<WalletRules>();
      expect(rules).toMatchObject({ withdrawFee: 0.01 * PI, withdrawEnabled: true });
      const sent = await withdraw(payer, '1');
      expect(sent.statusCode, sent.body).toBe(200);
      const record = sent.json<PaymentRecord>();
      expect(record).toMatchObject({ kind: 'withdraw', state: 'completed', amount: PI });
      expect(await balance(payer)).toEqual({
        currency: 'PI',
        available: 3.5 * PI - PI - 0.01 * PI,
        held: 0,
      });
      expect(chainBalance(payer.pi.user.walletAddress) - before).toBe(BigInt(PI));
      const onChain = sandbox.emulator.horizon.transactions.get(record.txid!)!;
      const dto = [...sandbox.emulator.payments.values()].find(
        (p) => p.direction === 'app_to_user' && p.user_uid === payer.pi.user.uid,
      )!;
      expect(onChain).toMatchObject({
        memo: dto.identifier,
        from: sandbox.emulator.appWallet.publicKey(),
      });
      expect(dto.status.developer_completed).toBe(true);
      expect((await payments(payer, '?kind=withdraw')).total).toBe(1);
      expect((await api(payer, 'GET', '/wallet/rules')).json<WalletRules>().withdrawLeftToday).toBe(
        1000 * PI - PI,
      );
    });

    it('asks for the payment password and keeps to the balance, the minimum and the daily limit', async () => {
      const payer = await piPayer(t, sandbox);
      await recharge(payer, '5');
      expectError(await withdraw(payer, '1', '654321'), 'PAYMENT_PASSWORD_INCORRECT');
      expectError(await withdraw(payer, '0.5'), 'WITHDRAW_BELOW_MIN');
      expectError(await withdraw(payer, '5'), 'INSUFFICIENT_BALANCE');
      expect(await balance(payer)).toMatchObject({ available: 5 * PI, held: 0 });
      expect((await payments(payer, '?kind=withdraw')).total).toBe(0);
      const plain = await t.register();
      expectError(
        await t.call('POST', '/api/v1/wallet/withdraw', {
          token: plain.token,
          body: { amount: '1', password: '123456' },
        }),
        'PI_ONLY',
      );
    });

    it('keeps a withdrawal the chain refuses pending, and releases it only once the chain proves it can never land', async () => {
      const payer = await piPayer(t, sandbox);
      await recharge(payer, '3');
      const before = chainBalance(payer.pi.user.walletAddress);
      // The app wallet ran dry: refused, but funded again it could still land.
      const app = sandbox.emulator.horizon.accounts.get(sandbox.emulator.appWallet.publicKey())!;
      const kept = app.balance;
      app.balance = 0n;
      try {
        const sent = await withdraw(payer, '1');
        expect(sent.statusCode, sent.body).toBe(200);
        expect(sent.json<PaymentRecord>().state).toBe('pending');
        await retryNow();
        expect(await balance(payer)).toMatchObject({
          available: 3 * PI - 1.01 * PI,
          held: 1.01 * PI,
        });
        // Past its time bound it can no longer land, but its sequence number is unspent,
        // and the dry wallet cannot pay for spending it: still no proof.
        t.clock.advance(10 * MINUTE);
        await retryNow();
        expect(await balance(payer)).toMatchObject({ held: 1.01 * PI });
      } finally {
        app.balance = kept;
      }
      // Funded again: its number is spent by a bump that pays nobody, and then it is proven.
      await retryNow();
      expect(await balance(payer)).toMatchObject({ available: 3 * PI, held: 0 });
      expect((await payments(payer, '?state=failed')).total).toBe(1);
      expect(chainBalance(payer.pi.user.walletAddress)).toBe(before);
      // Nothing stays open at Pi, and the next withdrawal goes.
      expect((await withdraw(payer, '1')).json<PaymentRecord>().state).toBe('completed');
    });

    it('completes after a crash once the transaction was signed, and refunds one that expired, never both', async () => {
      const payer = await piPayer(t, sandbox);
      await recharge(payer, '5');
      const { horizon } = sandbox.emulator;
      const after = 5 * PI - 1.01 * PI;
      try {
        // Horizon is away when the signed transaction is submitted: it stays written down.
        horizon.submissions = 'down';
        expectError(await withdraw(payer, '1'), 'PI_UNREACHABLE');
        expect((await payments(payer, '?state=pending')).total).toBe(1);
        expect(await balance(payer)).toMatchObject({ held: 1.01 * PI });
        // A second one waits for the first: one open app-to-user payment at a time.
        expectError(await withdraw(payer, '1'), 'WITHDRAW_IN_PROGRESS');
        horizon.submissions = 'up';
        // Its retry sends it: the transaction is still within its time.
        await retryNow();
        expect(await balance(payer)).toMatchObject({ available: after, held: 0 });
        await retryNow();
        expect(await balance(payer)).toMatchObject({ available: after, held: 0 });

        // It lands, but the answer is lost: the retry finds it on the chain and settles.
        horizon.submissions = 'lost';
        expectError(await withdraw(payer, '1'), 'PI_UNREACHABLE');
        horizon.submissions = 'up';
        await retryNow();
        expect(await balance(payer)).toMatchObject({ available: after - 1.01 * PI, held: 0 });

        // Away until the transaction's time ran out: it can no longer land; once its
        // sequence number is spent it is proven never to, and refunded.
        horizon.submissions = 'down';
        expectError(await withdraw(payer, '1'), 'PI_UNREACHABLE');
        horizon.submissions = 'up';
        t.clock.advance(10 * MINUTE);
        await retryNow();
        expect(await balance(payer)).toMatchObject({ available: after - 1.01 * PI, held: 0 });
        expect((await payments(payer, '?state=failed')).total).toBe(1);
        expect((await payments(payer, '?state=completed&kind=withdraw')).total).toBe(2);
        // Nothing is left open at Pi.
        expect(
          [...sandbox.emulator.payments.values()].filter(
            (p) =>
              p.direction === 'app_to_user' && !p.status.developer_completed && !p.status.cancelled,
          ),
        ).toEqual([]);
      } finally {
        horizon.submissions = 'up';
      }
    });

    it('sends a person’s withdrawals one at a time, each held and settled once', async () => {
      const payer = await piPayer(t, sandbox);
      await recharge(payer, '10');
      const sent = await Promise.all([1, 2, 3].map(() => withdraw(payer, '1')));
      expect(sent.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect(await balance(payer)).toMatchObject({ available: 10 * PI - 3 * 1.01 * PI, held: 0 });
      expect((await payments(payer, '?kind=withdraw&state=completed')).total).toBe(3);
    });
  });
});
