import type { PaymentDto, RunningPiSandbox } from '@teltlk/pi-sandbox';
import {
  groupConversationId,
  singleConversationId,
  type EnvelopeView,
  type Message,
  type MyGroup,
  type RechargeOrder,
  type WalletResult,
} from '@teltlk/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../lib/clock.js';
import { createTestApp, dialects, expectError, type TestApp } from '../../test/harness.js';
import { piEnv, piPayer, startClockedSandbox, type PiPayer } from '../../test/pi-sandbox.js';
import type { AccountRef } from '../ledger/ledger.js';

/**
 * Whole money flows in random order: recharges through Pi (replayed callbacks, a cancel,
 * a crash between Pi and the ledger, a payment reported unfinished), withdrawals to the
 * chain (Horizon up, down, answering nothing, away until the transaction expired),
 * transfers and red envelopes (resent requests, concurrent grabs, expiry). After every
 * sequence the ledger balances, every person holds exactly what a plain model of the
 * same steps says, nothing stays held, and the app's fees, the outside world's mirror
 * and the unopened envelopes moved by exactly the model's amounts: nothing was created
 * or lost.
 */

const PI = 10_000_000;
/** Amounts are tenths of a Pi: `n` of them. */
const TENTH = PI / 10;
const FEE = PI / 100;
const PEOPLE = 3;

type RechargeMode = 'normal' | 'replayed' | 'cancelled' | 'crashed' | 'reported';
type ChainMode = 'up' | 'down' | 'lost' | 'expired';
type Step =
  | { op: 'recharge'; who: number; n: number; mode: RechargeMode }
  | { op: 'withdraw'; who: number; n: number; chain: ChainMode }
  | { op: 'transfer'; from: number; to: number; n: number; resend: boolean }
  | {
      op: 'envelope';
      from: number;
      n: number;
      count: number;
      split: 'equal' | 'random';
      grabbers: number[];
    }
  | { op: 'expire' };

const who = fc.integer({ min: 0, max: PEOPLE - 1 });
const tenths = fc.integer({ min: 1, max: 40 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('recharge' as const),
      who,
      n: tenths,
      mode: fc.constantFrom<RechargeMode>('normal', 'replayed', 'cancelled', 'crashed', 'reported'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('withdraw' as const),
      who,
      n: tenths,
      chain: fc.constantFrom<ChainMode>('up', 'down', 'lost', 'expired'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({ from: who, offset: fc.integer({ min: 1, max: PEOPLE - 1 }), n: tenths })
      .chain(({ from, offset, n }) =>
        fc.record({
          op: fc.constant('transfer' as const),
          from: fc.constant(from),
          to: fc.constant((from + offset) % PEOPLE),
          n: fc.constant(n),
          resend: fc.boolean(),
        }),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('envelope' as const),
      from: who,
      n: tenths,
      count: fc.integer({ min: 1, max: PEOPLE }),
      split: fc.constantFrom('equal' as const, 'random' as const),
      grabbers: fc.uniqueArray(who, { maxLength: PEOPLE }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'expire' as const }) },
);

describe.each(dialects)('money flows in random order on $dialect', ({ dialect }) => {
  let sandbox: RunningPiSandbox;
  let t: TestApp;
  beforeAll(async () => {
    const started = await startClockedSandbox();
    sandbox = started.sandbox;
    t = await createTestApp({
      dialect,
      env: {
        ...piEnv(sandbox),
        WALLET_WITHDRAW_MIN: '0.1',
        WALLET_WITHDRAW_DAILY_LIMIT: '100000',
        // Dozens of payments a minute by the same few people: limits are not the subject.
        RATE_LIMIT_SCALE: '10000',
      },
    });
    started.clock.use(t.clock);
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  const api = (payer: PiPayer, method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.call(method, `/api/v1${url}`, { token: payer.user.token, body });
  const appBalance = (ref: AccountRef) => t.ctx.services.ledger.balance(t.ctx.db, ref);
  const appAccounts = async () => ({
    fees: await appBalance({ app: 'fees', currency: 'PI' }),
    outside: await appBalance({ app: 'outside', currency: 'PI' }),
    envelopes: await appBalance({ app: 'envelopes', currency: 'PI' }),
  });
  const pi = (payment: string, action: string, body: unknown = {}) =>
    sandbox.emulator.handle('POST', `/sandbox/payments/${payment}/${action}`, undefined, body);

  /** Three Pi people, friends with each other, in one group. */
  async function cast() {
    const people = await Promise.all(Array.from({ length: PEOPLE }, () => piPayer(t, sandbox)));
    for (let i = 0; i < PEOPLE; i += 1) {
      for (let j = i + 1; j < PEOPLE; j += 1) {
        const asked = await api(people[i]!, 'POST', '/friend-requests', {
          userId: people[j]!.user.user.id,
        });
        expect(asked.statusCode, asked.body).toBe(200);
        const { id } = asked.json<{ id: string }>();
        expect((await api(people[j]!, 'POST', `/friend-requests/${id}/accept`)).statusCode).toBe(
          200,
        );
      }
    }
    const created = await api(people[0]!, 'POST', '/groups', {
      memberIds: people.slice(1).map((p) => p.user.user.id),
    });
    expect(created.statusCode, created.body).toBe(200);
    return { people, group: groupConversationId(created.json<MyGroup>().id) };
  }

  it('balances, and moves exactly what the model says, whatever the order', async () => {
    let sent = 0;
    const clientMsgId = () => `flow-${(sent += 1)}-${Date.now().toString(36)}`;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const { people, group } = await cast();
        const model = people.map(() => 0);
        const start = await appAccounts();
        const moved = { fees: 0, outside: 0, envelopes: 0 };
        /** Envelopes of this sequence not yet expired: sender and what is left in each. */
        let open: { from: number; left: number }[] = [];

        const recharge = async (i: number, units: number, mode: RechargeMode) => {
          const payer = people[i]!;
          const ordered = await api(payer, 'POST', '/wallet/recharge', {
            amount: String(units / PI),
          });
          expect(ordered.statusCode, ordered.body).toBe(200);
          const { payment } = ordered.json<RechargeOrder>();
          const created = sandbox.emulator.handle(
            'POST',
            '/v2/payments/user_to_app',
            // Signed in to Pi afresh: a day may have passed since the last time.
            `Bearer ${sandbox.emulator.signIn(payer.pi.user.username).accessToken}`,
            { payment },
          );
          expect(created.status, JSON.stringify(created.body)).toBe(200);
          const id = (created.body as PaymentDto).identifier;
          const approve = () => api(payer, 'POST', '/wallet/recharge/approve', { paymentId: id });
          const approved = await approve();
          expect(approved.statusCode, approved.body).toBe(200);
          if (mode === 'cancelled') {
            pi(id, 'reject');
            const cancelled = await api(payer, 'POST', '/wallet/recharge/cancel', {
              paymentId: id,
            });
            expect(cancelled.statusCode, cancelled.body).toBe(200);
            return;
          }
          const txid = (pi(id, 'sign').body as PaymentDto).transaction!.txid;
          const complete = () =>
            api(payer, 'POST', '/wallet/recharge/complete', { paymentId: id, txid });
          if (mode === 'crashed') {
            // Pi was told, then the process died before the ledger was written.
            sandbox.emulator.handle(
              'POST',
              `/v2/payments/${id}/complete`,
              `Key ${piEnv(sandbox).PI_API_KEY}`,
              {
                txid,
              },
            );
            await t.ctx.services.recharges.sweep();
          } else if (mode === 'reported') {
            // The browser closed after paying; Pi reports it unfinished at the next sign-in.
            const report = await api(payer, 'POST', '/pi/payments/incomplete', { paymentId: id });
            expect(report.statusCode, report.body).toBe(204);
          } else if (mode === 'replayed') {
            const answers = await Promise.all([complete(), approve(), complete()]);
            for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
          } else {
            const done = await complete();
            expect(done.statusCode, done.body).toBe(200);
          }
          model[i]! += units;
          moved.outside -= units;
        };

        const withdraw = async (i: number, units: number, chain: ChainMode) => {
          const { horizon } = sandbox.emulator;
          const ask = () =>
            api(people[i]!, 'POST', '/wallet/withdraw', {
              amount: String(units / PI),
              password: '123456',
            });
          if (units + FEE > model[i]!) {
            expectError(await ask(), 'INSUFFICIENT_BALANCE');
            return;
          }
          try {
            if (chain === 'up') {
              const done = await ask();
              expect(done.statusCode, done.body).toBe(200);
            } else {
              horizon.submissions = chain === 'lost' ? 'lost' : 'down';
              expectError(await ask(), 'PI_UNREACHABLE');
              horizon.submissions = 'up';
              // What the retry finds, run now as by a restart: sent later, found landed, or
              // expired (then its sequence number is spent and it is refunded).
              if (chain === 'expired') t.clock.advance(10 * MINUTE);
              await t.ctx.services.withdrawals.resume();
              await t.ctx.jobs.runDue();
            }
          } finally {
            horizon.submissions = 'up';
          }
          if (chain === 'expired') return;
          model[i]! -= units + FEE;
          moved.fees += FEE;
          moved.outside += units;
        };

        const transfer = async (from: number, to: number, units: number, resend: boolean) => {
          const body = {
            conversationId: singleConversationId(
              people[from]!.user.user.id,
              people[to]!.user.user.id,
            ),
            clientMsgId: clientMsgId(),
            amount: String(units / PI),
            password: '123456',
          };
          const send = () => api(people[from]!, 'POST', '/wallet/transfers', body);
          if (units > model[from]!) {
            expectError(await send(), 'INSUFFICIENT_BALANCE');
            return;
          }
          const first = await send();
          expect(first.statusCode, first.body).toBe(200);
          if (resend) {
            const again = await send();
            expect(again.json<Message>().seq).toBe(first.json<Message>().seq);
          }
          model[from]! -= units;
          model[to]! += units;
        };

        const envelope = async (s: Extract<Step, { op: 'envelope' }>, units: number) => {
          const sent = await api(people[s.from]!, 'POST', '/wallet/envelopes', {
            conversationId: group,
            clientMsgId: clientMsgId(),
            total: String(units / PI),
            count: s.count,
            split: s.split,
            password: '123456',
          });
          if (units > model[s.from]!) {
            expectError(sent, 'INSUFFICIENT_BALANCE');
            return;
          }
          expect(sent.statusCode, sent.body).toBe(200);
          model[s.from]! -= units;
          moved.envelopes += units;
          const { envelopeId } = sent.json<Message>().content as { envelopeId: string };
          const grab = (i: number) =>
            api(people[i]!, 'POST', `/wallet/envelopes/${envelopeId}/open`);
          // Everyone at once; the first grabber tries again after.
          const answers = await Promise.all(s.grabbers.map(grab));
          let left = units;
          answers.forEach((answer, k) => {
            // More grabbers than shares: the late ones find it empty, and that is all.
            if (answer.statusCode !== 200) {
              expectError(answer, 'ENVELOPE_EMPTY');
              return;
            }
            const mine = answer.json<EnvelopeView>().mine!;
            model[s.grabbers[k]!]! += mine;
            left -= mine;
          });
          const opened = answers.filter((a) => a.statusCode === 200).length;
          expect(opened).toBe(Math.min(s.count, s.grabbers.length));
          if (s.grabbers.length > 0) {
            const again = await grab(s.grabbers[0]!);
            if (again.statusCode === 200) {
              const view = again.json<EnvelopeView>();
              expect(view.opened.length).toBe(opened);
            }
          }
          moved.envelopes -= units - left;
          open.push({ from: s.from, left });
        };

        const expire = async () => {
          t.clock.advance(25 * HOUR);
          await t.ctx.services.money.refundExpired();
          for (const { from, left } of open) {
            model[from]! += left;
            moved.envelopes -= left;
          }
          open = [];
        };

        // Every sequence ends with its envelopes expired: the next starts from none.
        for (const s of [...steps, { op: 'expire' } as const]) {
          if (s.op === 'recharge') await recharge(s.who, s.n * TENTH, s.mode);
          else if (s.op === 'withdraw') await withdraw(s.who, s.n * TENTH, s.chain);
          else if (s.op === 'transfer') await transfer(s.from, s.to, s.n * TENTH, s.resend);
          else if (s.op === 'envelope') await envelope(s, s.n * TENTH);
          else await expire();
        }

        expect(await t.ctx.services.ledger.verify(t.ctx.db)).toEqual([]);
        const held = await Promise.all(
          people.map(
            async (p) => (await api(p, 'GET', '/wallet')).json<WalletResult>().balances[0]!,
          ),
        );
        expect(held.map((b) => b.available)).toEqual(model);
        expect(held.map((b) => b.held)).toEqual(people.map(() => 0));
        const end = await appAccounts();
        expect({
          fees: end.fees - start.fees,
          outside: end.outside - start.outside,
          envelopes: end.envelopes - start.envelopes,
        }).toEqual(moved);
        // Nothing is left open at Pi.
        const unfinished = [...sandbox.emulator.payments.values()].filter(
          (p) =>
            p.status.developer_approved &&
            !p.status.developer_completed &&
            !p.status.cancelled &&
            !p.status.user_cancelled,
        );
        expect(unfinished.map((p) => p.identifier)).toEqual([]);
      }),
      { numRuns: 12, endOnFailure: true },
    );
  }, 240_000);
});
