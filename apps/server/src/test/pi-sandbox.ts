import {
  Account,
  Asset,
  Memo,
  Operation,
  TransactionBuilder,
  type Keypair,
} from '@stellar/stellar-sdk/minimal';
import { expect } from 'vitest';
import {
  startPiSandbox,
  type PaymentDto,
  type RunningPiSandbox,
  type SandboxUser,
} from '@teltlk/pi-sandbox';
import type { RechargeOrder } from '@teltlk/protocol';
import type { RegisteredUser, TestApp } from './harness.js';

export const PI_TEST_KEY = 'sandbox-key-for-tests';

/** The app wired to a local Pi sandbox, as `npm run pi:sandbox` wires it. */
export function piEnv(sandbox: RunningPiSandbox): Record<string, string> {
  return {
    PI_API_URL: `${sandbox.url}/v2`,
    PI_API_KEY: PI_TEST_KEY,
    PI_SDK_URL: `${sandbox.url}/pi-sdk.js`,
    PI_SANDBOX: 'true',
    PI_SANDBOX_HOST_URL: `${sandbox.url}/`,
    PI_HORIZON_URL: `${sandbox.url}/horizon`,
    PI_WALLET_SECRET: sandbox.emulator.appWallet.secret(),
  };
}

/**
 * A sandbox whose clock is the test app's (a signed transaction's time bounds are read
 * on the server's clock and checked on the chain's): `clock.use(t.clock)` per app.
 */
export async function startClockedSandbox(): Promise<{
  sandbox: RunningPiSandbox;
  clock: { use: (source: { now(): number }) => void };
}> {
  let source: { now(): number } = { now: () => Date.now() };
  const sandbox = await startPiSandbox({ apiKey: PI_TEST_KEY, now: () => source.now() });
  return { sandbox, clock: { use: (next) => (source = next) } };
}

export interface PiPayer {
  user: RegisteredUser;
  pi: { accessToken: string; user: SandboxUser };
}

let people = 0;

/** A registered person bound to a new sandbox Pi account, with a wallet and password 123456. */
export async function piPayer(t: TestApp, sandbox: RunningPiSandbox): Promise<PiPayer> {
  people += 1;
  const pi = sandbox.emulator.signIn(`payer_${Date.now().toString(36)}_${people}`);
  const user = await t.register();
  const call = (method: 'POST' | 'PUT', url: string, body?: unknown) =>
    t.call(method, `/api/v1${url}`, { token: user.token, body });
  const bound = await call('POST', '/me/pi', { accessToken: pi.accessToken });
  expect(bound.statusCode, bound.body).toBe(200);
  expect((await call('POST', '/wallet')).statusCode).toBe(200);
  expect((await call('PUT', '/wallet/password', { password: '123456' })).statusCode).toBe(200);
  return { user, pi };
}

/** A whole recharge through Pi, as the Pi SDK and the person's wallet drive it. */
export async function piRecharge(
  t: TestApp,
  sandbox: RunningPiSandbox,
  payer: PiPayer,
  amount: string,
): Promise<void> {
  const call = (url: string, body: unknown) =>
    t.call('POST', `/api/v1${url}`, { token: payer.user.token, body });
  const ordered = await call('/wallet/recharge', { amount });
  expect(ordered.statusCode, ordered.body).toBe(200);
  const { payment } = ordered.json<RechargeOrder>();
  const auth = `Bearer ${payer.pi.accessToken}`;
  const created = sandbox.emulator.handle('POST', '/v2/payments/user_to_app', auth, { payment });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const paymentId = (created.body as PaymentDto).identifier;
  expect((await call('/wallet/recharge/approve', { paymentId })).statusCode).toBe(200);
  const signed = sandbox.emulator.handle(
    'POST',
    `/sandbox/payments/${paymentId}/sign`,
    undefined,
    {},
  );
  const txid = (signed.body as PaymentDto).transaction!.txid;
  const completed = await call('/wallet/recharge/complete', { paymentId, txid });
  expect(completed.statusCode, completed.body).toBe(200);
}

/** A payment from an account of the sandbox chain, built and signed as a wallet would. */
export function signedPayment(
  sandbox: RunningPiSandbox,
  payment: {
    to: string;
    amount: string;
    memo: string;
    /** Signs with this key instead of the source account's. */
    signer?: Keypair;
    from?: Keypair;
    /** Added to the next sequence number (1: one too far). */
    sequenceSkew?: number;
    maxTime?: number;
  },
): { envelope: string; hash: string } {
  const from = payment.from ?? sandbox.emulator.appWallet;
  const account = sandbox.emulator.horizon.accounts.get(from.publicKey());
  const sequence = ((account?.sequence ?? 0n) + BigInt(payment.sequenceSkew ?? 0)).toString();
  const tx = new TransactionBuilder(new Account(from.publicKey(), sequence), {
    fee: '100000',
    networkPassphrase: sandbox.emulator.network,
    timebounds: { minTime: 0, maxTime: payment.maxTime ?? 0 },
  })
    .addOperation(
      Operation.payment({ destination: payment.to, asset: Asset.native(), amount: payment.amount }),
    )
    .addMemo(Memo.text(payment.memo))
    .build();
  tx.sign(payment.signer ?? from);
  return { envelope: tx.toEnvelope().toXDR('base64'), hash: tx.hash().toString('hex') };
}
