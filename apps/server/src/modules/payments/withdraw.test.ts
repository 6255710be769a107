import type { RunningPiSandbox } from '@teltlk/pi-sandbox';
import type { PaymentListResult, PaymentRecord, WalletResult } from '@teltlk/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MINUTE, SECOND } from '../../lib/clock.js';
import { runOperator } from '../../operator.js';
import { createTestApp, dialects, expectError, type TestApp } from '../../test/harness.js';
import {
  piEnv,
  piPayer,
  piRecharge,
  startClockedSandbox,
  type PiPayer,
} from '../../test/pi-sandbox.js';
import { withdrawRetryDelay } from './withdraw.js';

/**
 * Withdrawals against a Horizon that lets them down: behind the chain, answering 5xx,
 * refusing a resubmission of a transaction that landed, holding a submission. Whatever it
 * does, a withdrawal is paid once or released once, never both and never twice: each
 * scenario ends with the person's money conserved (available + held + paid out as before),
 * one payout on the chain per completed withdrawal, and `ledger:verify` clean.
 */

const PI = 10_000_000;

describe.each(dialects)(
  'withdrawals against a Horizon that lets them down, on $dialect',
  ({ dialect }) => {
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
      const { horizon } = sandbox.emulator;
      horizon.letGo();
      horizon.catchUp();
      horizon.reads = 'up';
      horizon.submissions = 'up';
      horizon.resubmissions = 'answered';
      await t.close();
    });

    const horizon = () => sandbox.emulator.horizon;
    const api = (payer: PiPayer, method: 'GET' | 'POST', url: string, body?: unknown) =>
      t.call(method, `/api/v1${url}`, { token: payer.user.token, body });
    const withdraw = (payer: PiPayer, amount: string) =>
      api(payer, 'POST', '/wallet/withdraw', { amount, password: '123456' });
    const balance = async (payer: PiPayer) =>
      (await api(payer, 'GET', '/wallet')).json<WalletResult>().balances[0]!;
    const withdrawals = async (payer: PiPayer, state: PaymentRecord['state']) =>
      (
        await api(payer, 'GET', `/wallet/payments?kind=withdraw&state=${state}`)
      ).json<PaymentListResult>().payments;
    /** A Pi person with `pi` in their balance. */
    const funded = async (pi: string) => {
      const payer = await piPayer(t, sandbox);
      await piRecharge(t, sandbox, payer, pi);
      return payer;
    };
    /** Payments from the app wallet to the person's Pi wallet on the chain. */
    const payouts = (payer: PiPayer) =>
      [...horizon().transactions.values()].filter(
        (tx) =>
          tx.operation === 'payment' &&
          tx.from === sandbox.emulator.appWallet.publicKey() &&
          tx.to === payer.pi.user.walletAddress,
      );
    /** Pending withdrawals' retry jobs, run now, as a starting node runs them. */
    const retryNow = async () => {
      await t.ctx.services.withdrawals.resume();
      await t.ctx.jobs.runDue();
    };
    const retryJob = async (payer: PiPayer) => {
      const [pending] = await withdrawals(payer, 'pending');
      return t.ctx.db
        .selectFrom('jobs')
        .selectAll()
        .where('key', '=', `withdraw:${pending!.id}`)
        .executeTakeFirstOrThrow();
    };

    /** Nothing made or lost: what the person had is in their balance, held, or paid out once. */
    const expectConserved = async (payer: PiPayer, before: number) => {
      const { available, held } = await balance(payer);
      const completed = await withdrawals(payer, 'completed');
      const paidOut = completed.reduce((sum, w) => sum + w.amount + w.fee, 0);
      expect(available + held + paidOut).toBe(before);
      expect(payouts(payer).map((tx) => tx.hash)).toEqual(completed.map((w) => w.txid).reverse());
    };
    const expectLedgerVerified = async () => {
      const lines: string[] = [];
      const out = {
        log: (line: string) => lines.push(line),
        error: (line: string) => lines.push(line),
      };
      // The test's own context, which the command must not close.
      const ctx = { ...t.ctx, close: () => Promise.resolve() };
      expect(await runOperator(['ledger:verify'], () => Promise.resolve(ctx), out)).toBe(0);
      expect(lines).toEqual(['the ledger balances']);
    };

    it('settles, never releases, a withdrawal that landed while Horizon lagged behind the chain', async () => {
      const payer = await funded('5');
      horizon().lag();
      // It lands, the answer is lost, and Horizon shows neither the wallet's number spent,
      // nor a ledger past the transaction's time bound, nor the transaction.
      horizon().submissions = 'lost';
      expectError(await withdraw(payer, '1'), 'PI_UNREACHABLE');
      horizon().submissions = 'up';
      expect(payouts(payer)).toHaveLength(1);
      t.clock.advance(10 * MINUTE);
      // Looked at again (sent again too: refused, its number spent): pending each time.
      await retryNow();
      await retryNow();
      expect(await balance(payer)).toMatchObject({
        available: 5 * PI - 1.01 * PI,
        held: 1.01 * PI,
      });
      // The account and the ledgers caught up, transactions answered by a Horizon still
      // behind: the number spent, the time past, and yet its absence there proves nothing.
      horizon().lag(['transactions']);
      await retryNow();
      expect(await balance(payer)).toMatchObject({ held: 1.01 * PI });
      expect(await withdrawals(payer, 'pending')).toHaveLength(1);
      horizon().catchUp();
      await retryNow();
      expect(await balance(payer)).toEqual({
        currency: 'PI',
        available: 5 * PI - 1.01 * PI,
        held: 0,
      });
      expect(await withdrawals(payer, 'failed')).toEqual([]);
      await expectConserved(payer, 5 * PI);
      await expectLedgerVerified();
    });

    it('keeps retrying, backing off, while Horizon answers 5xx, and settles once it answers', async () => {
      const payer = await funded('5');
      horizon().submissions = 'lost';
      expectError(await withdraw(payer, '1'), 'PI_UNREACHABLE');
      horizon().submissions = 'up';
      horizon().reads = 'down';
      t.clock.advance(10 * MINUTE);
      await retryNow();
      let job = await retryJob(payer);
      expect(job).toMatchObject({ attempts: 1, done_at: null });
      expect(Number(job.run_at)).toBe(t.clock.now() + withdrawRetryDelay(1));
      // Not due again before its wait is over; then waiting twice as long.
      await t.ctx.jobs.runDue();
      expect((await retryJob(payer)).attempts).toBe(1);
      t.clock.advance(withdrawRetryDelay(1));
      await t.ctx.jobs.runDue();
      job = await retryJob(payer);
      expect(job.attempts).toBe(2);
      expect(Number(job.run_at)).toBe(t.clock.now() + withdrawRetryDelay(2));
      expect(withdrawRetryDelay(2)).toBe(2 * withdrawRetryDelay(1));
      expect(await balance(payer)).toMatchObject({ held: 1.01 * PI });
      horizon().reads = 'up';
      t.clock.advance(withdrawRetryDelay(2));
      await t.ctx.jobs.runDue();
      expect(await balance(payer)).toMatchObject({ available: 5 * PI - 1.01 * PI, held: 0 });
      expect((await withdrawals(payer, 'completed'))[0]?.txid).toBe(payouts(payer)[0]?.hash);
      await expectConserved(payer, 5 * PI);
      await expectLedgerVerified();
    });

    it('settles a withdrawal whose resubmission is refused tx_bad_seq after the first one landed', async () => {
      const payer = await funded('5');
      // Horizon's transactions lag: it cannot tell the resubmission landed, the network
      // refuses its spent number.
      horizon().lag(['transactions']);
      horizon().resubmissions = 'refused';
      horizon().submissions = 'lost';
      expectError(await withdraw(payer, '1'), 'PI_UNREACHABLE');
      horizon().submissions = 'up';
      await retryNow();
      expect(await balance(payer)).toMatchObject({ held: 1.01 * PI });
      expect(await withdrawals(payer, 'pending')).toHaveLength(1);
      horizon().catchUp();
      await retryNow();
      expect(await balance(payer)).toMatchObject({ available: 5 * PI - 1.01 * PI, held: 0 });
      expect(await withdrawals(payer, 'completed')).toHaveLength(1);
      await expectConserved(payer, 5 * PI);
      await expectLedgerVerified();
    });

    it('completes another person’s withdrawal while one’s submission hangs', async () => {
      const [ann, bob] = [await funded('5'), await funded('5')];
      horizon().hold({ apply: true, count: 1 });
      const annSent = withdraw(ann, '1');
      await vi.waitFor(() => expect(horizon().held).toBe(1));
      let bobSent: PaymentRecord | null = null;
      void withdraw(bob, '2').then((answer) => (bobSent = answer.json<PaymentRecord>()));
      // Before Ann's call to Horizon gives up (20 s), which would free a turn shared by all.
      await vi.waitFor(() => expect(bobSent).toMatchObject({ state: 'completed' }), {
        timeout: 15 * SECOND,
      });
      expect(horizon().held).toBe(1);
      horizon().letGo();
      expect((await annSent).json<PaymentRecord>().state).toBe('completed');
      await expectConserved(ann, 5 * PI);
      await expectConserved(bob, 5 * PI);
      expect(payouts(ann)).toHaveLength(1);
      expect(payouts(bob)).toHaveLength(1);
      await expectLedgerVerified();
    });

    it('gives a transaction signed beside one still in flight the next sequence number, never the same', async () => {
      const [ann, bob] = [await funded('5'), await funded('5')];
      // Ann's transaction is held before it reaches the chain: it may still land.
      horizon().hold({ apply: false, count: 1 });
      const annSent = withdraw(ann, '1');
      await vi.waitFor(() => expect(horizon().held).toBe(1));
      // Bob's takes the number after hers, and waits for hers (refused meanwhile, not released).
      const bobSent = await withdraw(bob, '2');
      expect(bobSent.json<PaymentRecord>().state).toBe('pending');
      expect(await balance(bob)).toMatchObject({ held: 2 * PI + PI / 100 });
      horizon().letGo();
      expect((await annSent).json<PaymentRecord>().state).toBe('completed');
      await retryNow();
      expect((await withdrawals(bob, 'completed')).length).toBe(1);
      const [annTx] = payouts(ann);
      const [bobTx] = payouts(bob);
      expect(bobTx!.sequence).toBe(annTx!.sequence + 1n);
      await expectConserved(ann, 5 * PI);
      await expectConserved(bob, 5 * PI);
      await expectLedgerVerified();
    });

    it.skipIf(dialect !== 'postgres')(
      'retries a pending withdrawal on one node at a time',
      async () => {
        const payer = await funded('5');
        const other = await createTestApp({
          env: { ...piEnv(sandbox), DATABASE_URL: t.ctx.config.databaseUrl ?? '' },
        });
        try {
          horizon().submissions = 'down';
          expectError(await withdraw(payer, '1'), 'PI_UNREACHABLE');
          horizon().submissions = 'up';
          await t.ctx.services.withdrawals.resume();
          // This node's retry sends it again, and the submission hangs: the job is its.
          horizon().hold({ apply: false });
          const first = t.ctx.jobs.runDue();
          await vi.waitFor(() => expect(horizon().held).toBe(1));
          await other.ctx.services.withdrawals.resume();
          await other.ctx.jobs.runDue();
          expect(horizon().held).toBe(1);
          horizon().letGo();
          await first;
          expect(await balance(payer)).toMatchObject({ held: 0 });
          await expectConserved(payer, 5 * PI);
          await expectLedgerVerified();
        } finally {
          await other.close();
        }
      },
    );
  },
);
