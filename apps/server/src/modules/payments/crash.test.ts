import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PaymentDto, RunningPiSandbox } from '@teltlk/pi-sandbox';
import { startPiSandbox } from '@teltlk/pi-sandbox';
import type { PaymentListResult, RechargeOrder, WalletResult } from '@teltlk/protocol';
import {
  callApi,
  freePort,
  registerAccount,
  spawnServer,
  type Account,
  type SpawnedServer,
} from '@teltlk/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PI_TEST_KEY, piEnv } from '../../test/pi-sandbox.js';

/**
 * Payments against a real crash: the server process is killed (SIGKILL) while a payment
 * is in flight at Pi or on the chain, and started again on the same data. What was under
 * way is finished at start-up (the recharge sweep, the withdrawals' retry jobs): a
 * recharge credited once, a withdrawal settled once, never both settled and refunded.
 * The ledger balances afterwards.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const PI = 10_000_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (its last value is returned), or fails after `ms`. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > until) throw new Error(`still ${JSON.stringify(value)}`);
    await sleep(100);
    value = await read();
  }
  return value;
}

describe('payments across a kill -9', () => {
  let sandbox: RunningPiSandbox;
  let dataDir: string;
  let port: number;
  let server: SpawnedServer | null = null;

  const env = (): NodeJS.ProcessEnv => {
    const vars: NodeJS.ProcessEnv = {
      ...process.env,
      ...piEnv(sandbox),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      WEB_DIST_DIR: join(dataDir, 'no-web-build'),
      RATE_LIMIT_SCALE: '100',
    };
    // One SQLite node: the environment of the test run must not leak in.
    delete vars.DATABASE_URL;
    delete vars.REDIS_URL;
    return vars;
  };
  const start = async () => {
    server = await spawnServer({
      args: ['--import', 'tsx', '--conditions=source', 'apps/server/src/main.ts'],
      env: env(),
      cwd: REPO_ROOT,
      port,
    });
  };
  const kill = async () => {
    await server?.stop('SIGKILL');
    server = null;
  };
  const base = () => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    sandbox = await startPiSandbox({ apiKey: PI_TEST_KEY });
    dataDir = await mkdtemp(join(tmpdir(), 'teltlk-pay-crash-'));
    port = await freePort();
    await start();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await sandbox?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** The ledger checked by the operator command, on the same data, server stopped. */
  const ledgerVerify = () =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--conditions=source', 'apps/server/src/operator.ts', 'ledger:verify'],
        { cwd: REPO_ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code, output }));
    });

  it('credits a recharge once and settles withdrawals once when the server dies mid-payment', async () => {
    const { emulator } = sandbox;
    const account: Account = await registerAccount(base(), {
      nickname: 'Crash payer',
      password: 'Passw0rdCrash',
    });
    const as = { token: account.token };
    const piName = `crash_${Date.now().toString(36)}`;
    const pi = emulator.signIn(piName);
    await callApi(base(), 'POST', '/me/pi', { ...as, body: { accessToken: pi.accessToken } });
    await callApi(base(), 'POST', '/wallet', as);
    await callApi(base(), 'PUT', '/wallet/password', { ...as, body: { password: '123456' } });
    const wallet = () =>
      callApi<WalletResult>(base(), 'GET', '/wallet', as).then((w) => w.balances[0]!);

    // A recharge of 5 Pi: paid on the chain; the server tells Pi it is complete, Pi
    // records it and its answer never comes, and the server dies before crediting.
    const { payment } = await callApi<RechargeOrder>(base(), 'POST', '/wallet/recharge', {
      ...as,
      body: { amount: '5' },
    });
    const created = emulator.handle(
      'POST',
      '/v2/payments/user_to_app',
      `Bearer ${pi.accessToken}`,
      {
        payment,
      },
    );
    const paymentId = (created.body as PaymentDto).identifier;
    await callApi(base(), 'POST', '/wallet/recharge/approve', { ...as, body: { paymentId } });
    const signed = emulator.handle('POST', `/sandbox/payments/${paymentId}/sign`, undefined, {});
    const txid = (signed.body as PaymentDto).transaction!.txid;
    emulator.stall = { path: /^\/v2\/payments\/[^/]+\/complete$/, apply: true };
    const completing = callApi(base(), 'POST', '/wallet/recharge/complete', {
      ...as,
      body: { paymentId, txid },
    }).catch(() => 'cut off');
    await eventually(
      () => Promise.resolve(emulator.payments.get(paymentId)!.status.developer_completed),
      (done) => done,
    );
    await kill();
    expect(await completing).toBe('cut off');
    emulator.stall = null;
    await start();
    // The start-up sweep finds the order completed at Pi and credits it, once.
    await eventually(wallet, (b) => b.available === 5 * PI);
    // The browser's completion callback, replayed after the restart, credits nothing more.
    await callApi(base(), 'POST', '/wallet/recharge/complete', {
      ...as,
      body: { paymentId, txid },
    });
    expect(await wallet()).toMatchObject({ available: 5 * PI, held: 0 });

    // A withdrawal of 1 Pi whose transaction lands while the server waits for Horizon's
    // answer, and dies waiting: after the restart it is settled, not refunded.
    const address = pi.user.walletAddress;
    const { horizon } = emulator;
    const landedTo = () =>
      [...horizon.transactions.values()].filter(
        (tx) => tx.to === address && tx.amount === '1.0000000',
      );
    emulator.stall = { path: /^\/horizon\/transactions$/, apply: true };
    const first = callApi(base(), 'POST', '/wallet/withdraw', {
      ...as,
      body: { amount: '1', password: '123456' },
    }).catch(() => 'cut off');
    await eventually(
      () => Promise.resolve(landedTo().length),
      (n) => n === 1,
    );
    expect(await wallet()).toMatchObject({ held: 1.01 * PI });
    await kill();
    expect(await first).toBe('cut off');
    emulator.stall = null;
    await start();
    await eventually(wallet, (b) => b.held === 0);
    expect(await wallet()).toMatchObject({ available: 5 * PI - 1.01 * PI, held: 0 });
    expect(landedTo()).toHaveLength(1);

    // Another whose transaction never reached the chain: the server dies while Horizon
    // holds the request unapplied. After the restart its retry submits the signed
    // transaction again (still within its time): it lands once and is settled once.
    emulator.stall = { path: /^\/horizon\/transactions$/, apply: false };
    const stalledBefore = emulator.stalled;
    const second = callApi(base(), 'POST', '/wallet/withdraw', {
      ...as,
      body: { amount: '1', password: '123456' },
    }).catch(() => 'cut off');
    await eventually(wallet, (b) => b.held === 1.01 * PI);
    // The server dies once Horizon holds its submission.
    await eventually(
      () => Promise.resolve(emulator.stalled),
      (stalled) => stalled > stalledBefore,
    );
    await kill();
    expect(await second).toBe('cut off');
    expect(landedTo()).toHaveLength(1);
    emulator.stall = null;
    await start();
    await eventually(wallet, (b) => b.held === 0);
    expect(await wallet()).toMatchObject({ available: 5 * PI - 2 * 1.01 * PI, held: 0 });
    expect(landedTo()).toHaveLength(2);

    // Both withdrawals completed at Pi, nothing open there, records say so.
    const records = await callApi<PaymentListResult>(
      base(),
      'GET',
      '/wallet/payments?kind=withdraw&state=completed',
      as,
    );
    expect(records.total).toBe(2);
    const open = [...emulator.payments.values()].filter(
      (p) => !p.status.developer_completed && !p.status.cancelled && !p.status.user_cancelled,
    );
    expect(open.map((p) => p.identifier)).toEqual([]);

    await server!.stop();
    server = null;
    const verified = await ledgerVerify();
    expect(verified.output).toContain('the ledger balances');
    expect(verified.code).toBe(0);
  }, 120_000);
});
