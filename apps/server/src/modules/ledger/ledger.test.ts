import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperator } from '../../operator.js';
import { createTestApp, dialects, type TestApp } from '../../test/harness.js';
import type { AccountRef, Entry, Ledger, Posting } from './ledger.js';

const PI = 'PI' as const;
const available = (user: string): AccountRef => ({ user, purpose: 'available', currency: PI });
const held = (user: string): AccountRef => ({ user, purpose: 'held', currency: PI });
const outside: AccountRef = { app: 'outside', currency: PI };
const fees: AccountRef = { app: 'fees', currency: PI };

/** A movement from one account to another. */
const move = (from: AccountRef, to: AccountRef, amount: number): Entry[] => [
  { account: from, amount: -amount },
  { account: to, amount },
];

type Op =
  | { op: 'recharge' | 'hold' | 'release'; who: number; amount: number }
  | { op: 'transfer'; who: number; to: number; amount: number }
  | { op: 'withdraw'; who: number; amount: number; fee: number }
  | { op: 'replay'; pick: number }
  | { op: 'crash'; who: number; amount: number };

/** The entries of a step of the model, for person `me`; none when it moves nothing. */
function entriesOf(
  step: Exclude<Op, { op: 'replay' } | { op: 'crash' }>,
  me: string,
  names: string[],
): Entry[] {
  switch (step.op) {
    case 'recharge':
      return move(outside, available(me), step.amount);
    case 'hold':
      return move(available(me), held(me), step.amount);
    case 'release':
      return move(held(me), available(me), step.amount);
    case 'transfer':
      return step.to === step.who
        ? []
        : move(available(me), available(names[step.to]!), step.amount);
    case 'withdraw':
      // The hold leaves the app: the amount to the person's wallet, the fee to the app.
      return [
        { account: held(me), amount: -(step.amount + step.fee) },
        { account: outside, amount: step.amount },
        ...(step.fee > 0 ? [{ account: fees, amount: step.fee }] : []),
      ];
  }
}

describe.each(dialects)('the ledger on $dialect', ({ dialect }) => {
  let t: TestApp;
  let ledger: Ledger;
  let keys = 0;
  const key = (name: string) => `${name}-${dialect}-${(keys += 1)}`;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    ledger = t.ctx.services.ledger;
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (posting: Posting) =>
    t.ctx.db.transaction().execute((trx) => ledger.post(trx, posting));
  const balance = (ref: AccountRef) => ledger.balance(t.ctx.db, ref);

  it('moves money between accounts and keeps every balance the sum of its entries', async () => {
    const ada = `ada-${dialect}`;
    await post({
      key: key('recharge'),
      kind: 'recharge',
      entries: move(outside, available(ada), 35_000_000),
    });
    await post({
      key: key('hold'),
      kind: 'withdraw',
      entries: move(available(ada), held(ada), 10_000_000),
    });
    expect(await balance(available(ada))).toBe(25_000_000);
    expect(await balance(held(ada))).toBe(10_000_000);
    expect(await ledger.verify(t.ctx.db)).toEqual([]);
  });

  it('reads balances, holdings, holders and an account history, newest first and paged', async () => {
    const cid = `cid-${dialect}`;
    const other = `other-${dialect}`;
    const pts = (user: string): AccountRef => ({
      user,
      purpose: 'available',
      currency: 'pts:basic',
    });
    const item = (user: string, id: string): AccountRef => ({
      user,
      purpose: 'available',
      currency: `nft:${id}-${dialect}`,
    });
    const mint = (id: string): AccountRef => ({ app: 'minted', currency: `nft:${id}-${dialect}` });
    const first = await post({
      key: key('first'),
      kind: 'mining',
      reference: 'session-1',
      entries: move({ app: 'issued', currency: 'pts:basic' }, pts(cid), 3_000),
    });
    t.clock.advance(1);
    const second = await post({
      key: key('second'),
      kind: 'ranking',
      reference: 'place-1',
      entries: move({ app: 'issued', currency: 'pts:basic' }, pts(cid), 500),
    });
    await post({
      key: key('item-a'),
      kind: 'nft-mint',
      entries: move(mint('a'), item(cid, 'a'), 1),
    });
    await post({
      key: key('item-b'),
      kind: 'nft-mint',
      entries: move(mint('b'), item(cid, 'b'), 1),
    });
    await post({
      key: key('item-b-given'),
      kind: 'nft-send',
      entries: move(item(cid, 'b'), item(other, 'b'), 1),
    });

    const balances = await ledger.balances(t.ctx.db, [pts(cid), pts(other), item(cid, 'a')]);
    expect(Object.fromEntries(balances)).toEqual({
      [`u:${cid}:pts:basic:available`]: 3_500,
      [`u:${cid}:nft:a-${dialect}:available`]: 1,
    });
    expect(await ledger.holdings(t.ctx.db, cid, { prefix: 'nft:' })).toEqual([`nft:a-${dialect}`]);
    expect(await ledger.holdings(t.ctx.db, other, `nft:b-${dialect}`)).toEqual([
      `nft:b-${dialect}`,
    ]);
    expect(await ledger.holdings(t.ctx.db, cid, `nft:b-${dialect}`)).toEqual([]);
    const holders = await ledger.holders(t.ctx.db, 'nft:');
    expect(holders.get(`nft:a-${dialect}`)).toBe(cid);
    expect(holders.get(`nft:b-${dialect}`)).toBe(other);

    const newest = await ledger.entries(t.ctx.db, [pts(cid)], { limit: 1 });
    expect(newest).toEqual([
      {
        transactionId: second.transactionId,
        currency: 'pts:basic',
        amount: 500,
        createdAt: t.clock.now(),
      },
    ]);
    const cursor = `${newest[0]!.createdAt}:${newest[0]!.transactionId}`;
    const older = await ledger.entries(t.ctx.db, [pts(cid)], { limit: 5, cursor });
    expect(older.map((entry) => entry.transactionId)).toEqual([first.transactionId]);
    const transactions = await ledger.transactions(t.ctx.db, [
      first.transactionId,
      second.transactionId,
    ]);
    expect(transactions).toHaveLength(2);
    expect(transactions).toContainEqual({
      id: first.transactionId,
      kind: 'mining',
      reference: 'session-1',
    });
    expect(await ledger.transactions(t.ctx.db, [])).toEqual([]);
    expect(await ledger.verify(t.ctx.db)).toEqual([]);
  });

  it('posts a key once: a replay moves nothing, other money under it is refused', async () => {
    const bea = `bea-${dialect}`;
    const posting = {
      key: key('callback'),
      kind: 'recharge',
      reference: 'payment-1',
      entries: move(outside, available(bea), 5),
    };
    const first = await post(posting);
    const again = await post(posting);
    expect(again).toEqual({ transactionId: first.transactionId, replayed: true });
    expect(await balance(available(bea))).toBe(5);
    await expect(
      post({ ...posting, entries: move(outside, available(bea), 6) }),
    ).rejects.toMatchObject({
      code: 'LEDGER_KEY_REUSED',
    });
  });

  it('never takes a person below zero, and leaves nothing of a refused transaction', async () => {
    const cai = `cai-${dialect}`;
    const dan = `dan-${dialect}`;
    await post({ key: key('in'), kind: 'recharge', entries: move(outside, available(cai), 100) });
    const refused = key('too-much');
    await expect(
      post({ key: refused, kind: 'transfer', entries: move(available(cai), available(dan), 101) }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await balance(available(cai))).toBe(100);
    expect(await balance(available(dan))).toBe(0);
    // The key was not used up by the refusal.
    await post({
      key: refused,
      kind: 'transfer',
      entries: move(available(cai), available(dan), 100),
    });
    expect(await balance(available(dan))).toBe(100);
  });

  it('refuses postings that do not balance or move nothing', async () => {
    const eve = `eve-${dialect}`;
    const bad: Entry[][] = [
      [{ account: available(eve), amount: 5 }],
      [
        { account: outside, amount: -5 },
        { account: available(eve), amount: 4 },
      ],
      [
        { account: outside, amount: -0.5 },
        { account: available(eve), amount: 0.5 },
      ],
      [
        { account: available(eve), amount: 5 },
        { account: available(eve), amount: -5 },
      ],
    ];
    for (const entries of bad) {
      await expect(post({ key: key('bad'), kind: 'x', entries })).rejects.toThrow();
    }
    expect(await ledger.verify(t.ctx.db)).toEqual([]);
  });

  it('finds a balance that was changed without an entry', async () => {
    const fay = `fay-${dialect}`;
    await post({ key: key('in'), kind: 'recharge', entries: move(outside, available(fay), 7) });
    await t.ctx.db
      .updateTable('ledger_accounts')
      .set({ balance: 8 })
      .where('owner_id', '=', fay)
      .execute();
    const lines: string[] = [];
    // The test's own context, which the command must not close.
    const ctx = { ...t.ctx, close: () => Promise.resolve() };
    const code = await runOperator(['ledger:verify'], () => Promise.resolve(ctx), {
      log: (line) => lines.push(line),
      error: (line) => lines.push(line),
    });
    expect(code).toBe(1);
    expect(lines.join('\n')).toContain(`u:${fay}:PI:available: balance 8, entries sum to 7`);
    await t.ctx.db
      .updateTable('ledger_accounts')
      .set({ balance: 7 })
      .where('owner_id', '=', fay)
      .execute();
    lines.length = 0;
    expect(
      await runOperator(['ledger:verify'], () => Promise.resolve(ctx), {
        log: (line) => lines.push(line),
        error: (line) => lines.push(line),
      }),
    ).toBe(0);
    expect(lines).toEqual(['the ledger balances']);
  });

  it('balances under any sequence of recharges, transfers, holds, withdrawals, replays and crashes', async () => {
    const people = ['p0', 'p1', 'p2'].map((p) => `${p}-${dialect}-${Date.now().toString(36)}`);
    const who = fc.integer({ min: 0, max: people.length - 1 });
    const amount = fc.integer({ min: 1, max: 50_000_000 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constantFrom('recharge', 'hold', 'release'), who, amount }),
      fc.record({ op: fc.constant('transfer'), who, to: who, amount }),
      fc.record({
        op: fc.constant('withdraw'),
        who,
        amount,
        fee: fc.integer({ min: 0, max: 1000 }),
      }),
      fc.record({ op: fc.constant('replay'), pick: fc.nat() }),
      fc.record({ op: fc.constant('crash'), who, amount }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        run += 1;
        const names = people.map((p) => `${p}-${run}`);
        const model = new Map<string, number>();
        const get = (ref: AccountRef) => model.get(JSON.stringify(ref)) ?? 0;
        const done: Posting[] = [];
        for (const step of ops) {
          let posting: Posting | null = null;
          if (step.op === 'replay') {
            if (done.length === 0) continue;
            posting = done[step.pick % done.length]!;
            expect((await post(posting)).replayed).toBe(true);
            continue;
          }
          const me = names[step.who]!;
          if (step.op === 'crash') {
            // The business event fails after the money moved: nothing of it stays.
            await expect(
              t.ctx.db.transaction().execute(async (trx) => {
                await ledger.post(trx, {
                  key: key('crash'),
                  kind: 'recharge',
                  entries: move(outside, available(me), step.amount),
                });
                throw new Error('the process died');
              }),
            ).rejects.toThrow('the process died');
            continue;
          }
          const entries = entriesOf(step, me, names);
          if (entries.length === 0) continue;
          posting = { key: key(step.op), kind: step.op, entries };
          const affordable = entries.every(
            (entry) => 'app' in entry.account || get(entry.account) + entry.amount >= 0,
          );
          if (!affordable) {
            await expect(post(posting)).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
            continue;
          }
          await post(posting);
          done.push(posting);
          for (const entry of entries) {
            model.set(JSON.stringify(entry.account), get(entry.account) + entry.amount);
          }
        }
        for (const name of names) {
          expect(await balance(available(name))).toBe(get(available(name)));
          expect(await balance(held(name))).toBe(get(held(name)));
        }
        expect(await ledger.verify(t.ctx.db)).toEqual([]);
      }),
      { numRuns: 15 },
    );
  });
});
