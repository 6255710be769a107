import {
  Account,
  Asset,
  Keypair,
  Memo,
  Operation,
  TransactionBuilder,
} from '@stellar/stellar-sdk/minimal';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueViolationColumn } from '../database.js';
import type { PaymentsTable } from '../schema.js';
import { createTestApp, dialects, type TestApp } from '../../test/harness.js';
import * as withdrawalSequences from './0025-withdrawal-sequences.js';

describe.each(dialects)('migration 0025-withdrawal-sequences on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const wallet = Keypair.random();
  const envelope = (sequence: bigint) => {
    const tx = new TransactionBuilder(new Account(wallet.publicKey(), String(sequence - 1n)), {
      fee: '100000',
      networkPassphrase: 'Pi Testnet',
      timebounds: { minTime: 0, maxTime: 1 },
    })
      .addOperation(
        Operation.payment({ destination: wallet.publicKey(), asset: Asset.native(), amount: '1' }),
      )
      .addMemo(Memo.text('m'))
      .build();
    tx.sign(wallet);
    return tx.toEnvelope().toXDR('base64');
  };
  const row = (id: string, user: string, state: PaymentsTable['state']) => ({
    id,
    user_id: user,
    kind: 'withdraw' as const,
    currency: 'PI',
    amount: 1,
    fee: 0,
    memo: 'm',
    pi_uid: user,
    pi_payment_id: null,
    state,
    txid: null,
    envelope: null,
    valid_until: null,
    reason: null,
    created_at: 1,
    updated_at: 1,
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => uniqueViolationColumn(error),
    );

  it('reads the sequence numbers of signed withdrawals, and keeps one open withdrawal per person', async () => {
    const { db } = t.ctx;
    const untyped = db as unknown as Kysely<unknown>;
    await withdrawalSequences.down(untyped);
    const big = 87_000_000n << 32n;
    await db
      .insertInto('payments')
      .values([
        { ...row('w1', 'ann', 'completed'), envelope: envelope(big + 1n) },
        { ...row('w2', 'ann', 'signed'), envelope: envelope(big + 2n) },
      ])
      .execute();
    await withdrawalSequences.up(untyped);
    const sequences = await db
      .selectFrom('payments')
      .select(['id', 'tx_sequence'])
      .where('id', 'in', ['w1', 'w2'])
      .orderBy('id')
      .execute();
    expect(sequences).toEqual([
      { id: 'w1', tx_sequence: (big + 1n).toString().padStart(19, '0') },
      { id: 'w2', tx_sequence: (big + 2n).toString().padStart(19, '0') },
    ]);
    // Another person's withdrawal may be open beside Ann's; a second of Ann's may not.
    await db
      .insertInto('payments')
      .values(row('w3', 'bob', 'held'))
      .execute();
    expect(
      await refusal(
        db
          .insertInto('payments')
          .values(row('w4', 'ann', 'held'))
          .execute(),
      ),
    ).toBe('user_id');
    // Bob's transaction may not take the number Ann's still holds.
    expect(
      await refusal(
        db
          .updateTable('payments')
          .set({ state: 'signed', tx_sequence: (big + 2n).toString().padStart(19, '0') })
          .where('id', '=', 'w3')
          .execute(),
      ),
    ).toBe('tx_sequence');
  });
});
