import {
  Account,
  Asset,
  Memo,
  Operation,
  TransactionBuilder,
  type xdr,
} from '@stellar/stellar-sdk/minimal';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPiSandbox, type RunningPiSandbox } from './server.js';

/**
 * The Horizon stand-in over HTTP, as an app reaches it: the ledgers closing on the clock,
 * the `Latest-Ledger` header, and each way it can be told to let an app down.
 */

const START = Date.UTC(2025, 0, 15, 12, 0, 0);

describe('Horizon stand-in', () => {
  let time = START;
  let sandbox: RunningPiSandbox;
  let person: string;
  beforeEach(async () => {
    time = START;
    sandbox = await startPiSandbox({ apiKey: 'horizon-standin-key', now: () => time });
    person = sandbox.emulator.signIn('standin_person').user.walletAddress;
  });
  afterEach(async () => {
    sandbox.emulator.horizon.letGo();
    await sandbox.close();
  });

  const horizon = () => sandbox.emulator.horizon;
  const app = () => sandbox.emulator.appWallet;
  const get = async (path: string) => {
    const response = await fetch(`${sandbox.url}/horizon${path}`);
    return {
      status: response.status,
      ledger: response.headers.get('Latest-Ledger'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  const submit = async (envelope: string) => {
    const response = await fetch(`${sandbox.url}/horizon/transactions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tx: envelope }).toString(),
    });
    const body = (await response.json()) as {
      hash?: string;
      extras?: { result_codes?: { transaction?: string } };
    };
    return {
      status: response.status,
      hash: body.hash,
      code: body.extras?.result_codes?.transaction,
    };
  };
  /** A transaction of the app wallet's with the next sequence number (or `sequence`). */
  const signed = (
    operation: xdr.Operation = Operation.payment({
      destination: person,
      asset: Asset.native(),
      amount: '1',
    }),
    sequence = horizon().accounts.get(app().publicKey())!.sequence + 1n,
  ) => {
    const tx = new TransactionBuilder(new Account(app().publicKey(), String(sequence - 1n)), {
      fee: '100000',
      networkPassphrase: sandbox.emulator.network,
      timebounds: { minTime: 0, maxTime: Math.floor(time / 1000) + 60 },
    })
      .addOperation(operation)
      .addMemo(Memo.text('m'))
      .build();
    tx.sign(app());
    return { envelope: tx.toEnvelope().toXDR('base64'), hash: tx.hash().toString('hex') };
  };
  const sequenceRead = async () =>
    BigInt((await get(`/accounts/${app().publicKey()}`)).body.sequence as string);
  const latestLedger = async () => {
    const answer = await get('/ledgers?order=desc&limit=1');
    const [record] = (answer.body._embedded as { records: Record<string, unknown>[] }).records;
    return { header: answer.ledger, ...record } as {
      header: string | null;
      sequence: number;
      closed_at: string;
    };
  };

  it('closes a ledger every five seconds and one per transaction, and names it in Latest-Ledger', async () => {
    const first = await latestLedger();
    expect(first.closed_at).toBe('2025-01-15T12:00:00Z');
    expect(first.header).toBe(String(first.sequence));
    time += 12_000;
    const later = await latestLedger();
    expect(later).toMatchObject({
      sequence: first.sequence + 2,
      closed_at: '2025-01-15T12:00:10Z',
    });
    const { envelope, hash } = signed();
    expect(await submit(envelope)).toMatchObject({ status: 200, hash });
    const found = await get(`/transactions/${hash}`);
    expect(found.body).toMatchObject({ ledger: later.sequence + 1, successful: true });
    expect(found.ledger).toBe(String(later.sequence + 1));
    expect((await get(`/transactions/${'0'.repeat(64)}`)).ledger).toBe(found.ledger);
  });

  it('lags behind the chain while submissions still land, then catches up', async () => {
    const before = await sequenceRead();
    const ledger = await latestLedger();
    horizon().lag();
    const { envelope, hash } = signed();
    expect((await submit(envelope)).status).toBe(200);
    time += 60_000;
    expect(await sequenceRead()).toBe(before);
    expect(await latestLedger()).toMatchObject({
      sequence: ledger.sequence,
      header: ledger.header,
    });
    const lookup = await get(`/transactions/${hash}`);
    expect(lookup).toMatchObject({ status: 404, ledger: ledger.header });
    // Not having taken it in, Horizon passes it on: the network refuses the spent number.
    expect(await submit(envelope)).toMatchObject({ status: 400, code: 'tx_bad_seq' });
    horizon().catchUp();
    expect(await sequenceRead()).toBe(before + 1n);
    expect((await get(`/transactions/${hash}`)).status).toBe(200);
  });

  it('lags in one part of its view only: a lookup behind the account it answered with', async () => {
    const before = await sequenceRead();
    horizon().lag(['transactions']);
    const { envelope, hash } = signed();
    expect((await submit(envelope)).status).toBe(200);
    const account = await get(`/accounts/${app().publicKey()}`);
    expect(BigInt(account.body.sequence as string)).toBe(before + 1n);
    const lookup = await get(`/transactions/${hash}`);
    expect(lookup.status).toBe(404);
    expect(Number(lookup.ledger)).toBeLessThan(Number(account.ledger));
  });

  it('keeps the view where it stopped while fewer of its parts lag', async () => {
    const before = await sequenceRead();
    horizon().lag();
    const { envelope, hash } = signed();
    expect((await submit(envelope)).status).toBe(200);
    horizon().lag(['transactions']);
    expect(await sequenceRead()).toBe(before + 1n);
    expect((await get(`/transactions/${hash}`)).status).toBe(404);
    horizon().catchUp();
    expect((await get(`/transactions/${hash}`)).status).toBe(200);
  });

  it('answers a landed transaction submitted again as it landed, or refuses it when told to', async () => {
    const { envelope, hash } = signed();
    expect(await submit(envelope)).toMatchObject({ status: 200, hash });
    expect(await submit(envelope)).toMatchObject({ status: 200, hash });
    horizon().resubmissions = 'refused';
    expect(await submit(envelope)).toMatchObject({ status: 400, code: 'tx_bad_seq' });
    expect([...horizon().transactions.values()].filter((tx) => tx.hash === hash)).toHaveLength(1);
  });

  it('fails every read with 503 when its reads are down, and still takes submissions', async () => {
    horizon().reads = 'down';
    expect((await get(`/accounts/${app().publicKey()}`)).status).toBe(503);
    expect((await get('/ledgers?order=desc&limit=1')).status).toBe(503);
    const { envelope, hash } = signed();
    expect(await submit(envelope)).toMatchObject({ status: 200, hash });
    expect((await get(`/transactions/${hash}`)).status).toBe(503);
    horizon().reads = 'up';
    expect((await get(`/transactions/${hash}`)).status).toBe(200);
  });

  it('holds submissions until let go: applied on arrival, or only then', async () => {
    const before = horizon().accounts.get(app().publicKey())!.sequence;
    horizon().hold({ apply: true });
    const applied = signed();
    const first = submit(applied.envelope);
    await vi.waitFor(() => expect(horizon().held).toBe(1));
    expect(horizon().transactions.has(applied.hash)).toBe(true);
    horizon().letGo();
    expect(await first).toMatchObject({ status: 200, hash: applied.hash });

    horizon().hold({ apply: false });
    const later = signed();
    const second = submit(later.envelope);
    await vi.waitFor(() => expect(horizon().held).toBe(1));
    expect(horizon().transactions.has(later.hash)).toBe(false);
    expect(horizon().accounts.get(app().publicKey())!.sequence).toBe(before + 1n);
    horizon().letGo();
    expect(await second).toMatchObject({ status: 200, hash: later.hash });
    expect(horizon().accounts.get(app().publicKey())!.sequence).toBe(before + 2n);
  });

  it('holds only the next submissions it is told to', async () => {
    horizon().hold({ apply: true, count: 1 });
    const first = signed();
    const held = submit(first.envelope);
    await vi.waitFor(() => expect(horizon().held).toBe(1));
    const second = signed();
    expect(await submit(second.envelope)).toMatchObject({ status: 200, hash: second.hash });
    horizon().letGo();
    expect(await held).toMatchObject({ status: 200, hash: first.hash });
  });

  it('takes a sequence bump, which spends the number and pays nobody', async () => {
    const before = await sequenceRead();
    const balance = horizon().accounts.get(person)!.balance;
    const bump = signed(Operation.bumpSequence({ bumpTo: String(before + 1n) }));
    expect(await submit(bump.envelope)).toMatchObject({ status: 200, hash: bump.hash });
    expect(await sequenceRead()).toBe(before + 1n);
    expect(horizon().accounts.get(person)!.balance).toBe(balance);
    const operations = await get(`/transactions/${bump.hash}/operations`);
    expect(operations.body._embedded).toMatchObject({ records: [{ type: 'bump_sequence' }] });
    // A payment signed for the number the bump spent can never land.
    const late = signed(undefined, before + 1n);
    expect(await submit(late.envelope)).toMatchObject({ status: 400, code: 'tx_bad_seq' });
  });
});
