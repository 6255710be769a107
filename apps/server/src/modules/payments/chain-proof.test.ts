import { describe, expect, it } from 'vitest';
import { judge, type SignedTransaction } from './chain-proof.js';
import type { ChainAccount, ChainLedger, ChainLookup } from './horizon.js';

const tx: SignedTransaction = { txid: 'a'.repeat(64), sequence: 101n, validUntil: 1_000 };

/** Horizon seen whole at ledger 50: the number spent, a ledger closed after the bound. */
const whole: { account: ChainAccount; ledger: ChainLedger; lookup: ChainLookup } = {
  account: { sequence: 101n, seenAt: 50 },
  ledger: { sequence: 50, closedAt: 1_001_000, baseFee: 100_000 },
  lookup: { state: 'absent', seenAt: 50 },
};
const seen = (change: Partial<typeof whole>) => judge(tx, { ...whole, ...change });

describe('whether a signed withdrawal can still land', () => {
  it('is proven never to land when its number is spent, a ledger closed after its bound, and a Horizon far enough along does not have it', () => {
    expect(seen({})).toEqual({ kind: 'never', proof: { txid: tx.txid } });
    expect(seen({ account: { sequence: 140n, seenAt: 48 } }).kind).toBe('never');
    // In a ledger but failed there: it spent its number and paid nothing.
    expect(seen({ lookup: { state: 'failed', seenAt: 50 } }).kind).toBe('never');
  });

  it('has landed when a Horizon finds it successful, however far along', () => {
    expect(seen({ lookup: { state: 'successful', seenAt: 3 } })).toEqual({ kind: 'landed' });
  });

  it('is not proven while the wallet’s number is not spent yet (an account read that lags)', () => {
    expect(seen({ account: { sequence: 100n, seenAt: 50 } })).toEqual({
      kind: 'open',
      spendable: true,
    });
    // An earlier number is still open: spending ours now would not land either.
    expect(seen({ account: { sequence: 99n, seenAt: 50 } })).toEqual({
      kind: 'open',
      spendable: false,
    });
  });

  it('is not proven while no ledger closed after its time bound (a ledger read that lags)', () => {
    for (const closedAt of [1_000_999, 1_000_000, 900_000]) {
      expect(seen({ ledger: { ...whole.ledger, closedAt } })).toEqual({
        kind: 'open',
        spendable: false,
      });
    }
  });

  it('takes no absence as proof from a Horizon behind the one that read the account, or one that does not say', () => {
    const stale = { account: { sequence: 101n, seenAt: 51 } };
    expect(seen(stale)).toEqual({ kind: 'open', spendable: false });
    expect(seen({ lookup: { state: 'absent', seenAt: null } })).toEqual({
      kind: 'open',
      spendable: false,
    });
    expect(seen({ account: { sequence: 101n, seenAt: null } }).kind).toBe('open');
    expect(
      seen({ account: { sequence: 100n, seenAt: 51 }, lookup: { state: 'absent', seenAt: 50 } }),
    ).toEqual({ kind: 'open', spendable: false });
  });
});
