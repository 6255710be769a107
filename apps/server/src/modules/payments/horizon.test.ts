import { startPiSandbox, type RunningPiSandbox } from '@teltlk/pi-sandbox';
import { Keypair, TransactionBuilder } from '@stellar/stellar-sdk/minimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedPayment } from '../../test/pi-sandbox.js';
import { Horizon, HorizonRefused, HorizonUnreachable } from './horizon.js';

/**
 * The Horizon adapter against the sandbox's Horizon stand-in over HTTP: a transaction
 * signed by its source account's key lands; anything Stellar would refuse is refused with
 * Stellar's result code, and moves nothing.
 */
describe('Horizon adapter against the sandbox chain', () => {
  let sandbox: RunningPiSandbox;
  let horizon: Horizon;
  let person: string;
  beforeAll(async () => {
    sandbox = await startPiSandbox({ apiKey: 'horizon-test-key' });
    horizon = new Horizon(`${sandbox.url}/horizon`);
    person = sandbox.emulator.signIn('chain_person').user.walletAddress;
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'landed',
      (error: unknown) => (error instanceof HorizonRefused ? error.resultCode : String(error)),
    );
  const balanceOf = (id: string) => sandbox.emulator.horizon.accounts.get(id)!.balance;

  it('lands a payment signed by the app wallet, findable by its hash', async () => {
    const app = sandbox.emulator.appWallet.publicKey();
    const { sequence } = await horizon.account(app);
    expect((await horizon.latestLedger()).baseFee).toBe(100_000);
    const before = balanceOf(person);
    const { envelope, hash } = signedPayment(sandbox, { to: person, amount: '2.5', memo: 'p-1' });
    expect(await horizon.submit(envelope)).toBe(hash);
    expect(balanceOf(person) - before).toBe(25_000_000n);
    expect((await horizon.account(app)).sequence).toBe(sequence + 1n);
    expect(await horizon.lookup(hash)).toEqual({
      state: 'successful',
      seenAt: (await horizon.latestLedger()).sequence,
    });
    expect(await horizon.payment(hash)).toEqual({
      hash,
      memo: 'p-1',
      from: app,
      to: person,
      amount: '2.5000000',
    });
    // The same envelope again: Horizon answers it as it landed, or the network refuses
    // its spent sequence number.
    expect(await horizon.submit(envelope)).toBe(hash);
    sandbox.emulator.horizon.resubmissions = 'refused';
    expect(await refusal(horizon.submit(envelope))).toBe('tx_bad_seq');
    sandbox.emulator.horizon.resubmissions = 'answered';
    expect(await horizon.payment('0'.repeat(64))).toBeNull();
    expect((await horizon.lookup('0'.repeat(64))).state).toBe('absent');
  });

  it('reads the latest ledger’s close time, and which ledger each answer had taken in', async () => {
    const app = sandbox.emulator.appWallet.publicKey();
    const ledger = await horizon.latestLedger();
    expect(ledger.closedAt).toBe(sandbox.emulator.horizon.ledger.closedAt);
    expect(ledger.closedAt % 1000).toBe(0);
    const account = await horizon.account(app);
    expect(account.seenAt).toBe(ledger.sequence);
    // A Horizon whose transactions lag: it finds nothing, and says how far it had come.
    sandbox.emulator.horizon.lag(['transactions']);
    try {
      const { envelope, hash } = signedPayment(sandbox, { to: person, amount: '1', memo: 'p-2' });
      await horizon.submit(envelope);
      const after = await horizon.account(app);
      expect(after.sequence).toBe(account.sequence + 1n);
      const lookup = await horizon.lookup(hash);
      expect(lookup).toEqual({ state: 'absent', seenAt: ledger.sequence });
      expect(lookup.seenAt).toBeLessThan(after.seenAt!);
    } finally {
      sandbox.emulator.horizon.catchUp();
    }
  });

  it('counts a 5xx answer as unreachable, never as an answer', async () => {
    sandbox.emulator.horizon.reads = 'down';
    try {
      const app = sandbox.emulator.appWallet.publicKey();
      await expect(horizon.account(app)).rejects.toBeInstanceOf(HorizonUnreachable);
      await expect(horizon.latestLedger()).rejects.toBeInstanceOf(HorizonUnreachable);
      await expect(horizon.lookup('0'.repeat(64))).rejects.toBeInstanceOf(HorizonUnreachable);
    } finally {
      sandbox.emulator.horizon.reads = 'up';
    }
  });

  it('refuses what Stellar refuses, moving nothing', async () => {
    const before = balanceOf(person);
    const pay = (extra: Partial<Parameters<typeof signedPayment>[1]>) =>
      horizon.submit(
        signedPayment(sandbox, { to: person, amount: '1', memo: 'x', ...extra }).envelope,
      );
    expect(await refusal(pay({ signer: Keypair.random() }))).toBe('tx_bad_auth');
    expect(await refusal(pay({ sequenceSkew: 2 }))).toBe('tx_bad_seq');
    expect(await refusal(pay({ maxTime: 1 }))).toBe('tx_too_late');
    expect(await refusal(pay({ amount: '99999999' }))).toBe('tx_failed op_underfunded');
    expect(await refusal(pay({ to: Keypair.random().publicKey() }))).toBe(
      'tx_failed op_no_destination',
    );
    expect(await refusal(pay({ from: Keypair.random() }))).toMatch(
      /HorizonUnreachable|tx_no_source/,
    );
    // Signed, then the amount changed: the signature no longer covers it.
    const signed = TransactionBuilder.fromXDR(
      signedPayment(sandbox, { to: person, amount: '1', memo: 'x' }).envelope,
      sandbox.emulator.network,
    );
    const changed = TransactionBuilder.fromXDR(
      signedPayment(sandbox, { to: person, amount: '100', memo: 'x', signer: Keypair.random() })
        .envelope,
      sandbox.emulator.network,
    );
    changed.signatures.splice(0, 1, ...signed.signatures);
    expect(await refusal(horizon.submit(changed.toEnvelope().toXDR('base64')))).toBe('tx_bad_auth');
    expect(await refusal(horizon.submit('not a transaction'))).toBe('tx_malformed');
    expect(balanceOf(person)).toBe(before);
  });

  it('counts a Horizon that does not answer as unreachable', async () => {
    const away = new Horizon('http://127.0.0.1:9/horizon');
    await expect(away.account(person)).rejects.toBeInstanceOf(HorizonUnreachable);
  });
});
