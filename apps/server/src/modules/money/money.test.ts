import {
  groupConversationId,
  singleConversationId,
  type EnvelopeView,
  type MyGroup,
  type Message,
  type WalletResult,
} from '@teltlk/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import { userApi } from '../../test/fixtures.js';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { equalShares, randomShares } from './service.js';

const PI = 10_000_000;

describe('cutting a red envelope', () => {
  it('cuts equal shares within one unit of each other, random ones of at least one unit', () => {
    expect(equalShares(10, 3)).toEqual([4, 3, 3]);
    expect(equalShares(5 * PI, 5)).toEqual([PI, PI, PI, PI, PI]);
    for (let run = 0; run < 200; run += 1) {
      const count = 1 + (run % 100);
      const total = count + run * 997;
      const shares = randomShares(total, count);
      expect(shares).toHaveLength(count);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.min(...shares)).toBeGreaterThanOrEqual(1);
    }
  });
});

describe.each(dialects)('money in chats on $dialect', ({ dialect }) => {
  let t: TestApp;
  const { call, ok, pair, friends } = userApi(() => t);
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(async () => {
    expect(await t.ctx.services.ledger.verify(t.ctx.db)).toEqual([]);
  });

  /** Pi in a person's wallet as a recharge would put it there. */
  const fund = (user: RegisteredUser, units: number) =>
    t.ctx.db.transaction().execute((trx) =>
      t.ctx.services.ledger.post(trx, {
        key: `test-fund:${newId()}`,
        kind: 'recharge',
        entries: [
          { account: { app: 'outside', currency: 'PI' }, amount: -units },
          { account: { user: user.user.id, purpose: 'available', currency: 'PI' }, amount: units },
        ],
      }),
    );
  const walletOf = async (user: RegisteredUser, password = '123456') => {
    await call(user, 'POST', '/wallet');
    await call(user, 'PUT', '/wallet/password', { password });
  };
  const available = async (user: RegisteredUser) =>
    ok<WalletResult>(await call(user, 'GET', '/wallet')).balances[0]!.available;
  let sent = 0;
  const clientMsgId = () => `money-${(sent += 1)}-${Date.now().toString(36)}`;

  it('moves a transfer with its message, once, and only within a one-to-one chat', async () => {
    const [a, b, chat] = await pair();
    await walletOf(a);
    await fund(a, 3 * PI);
    const body = { conversationId: chat, clientMsgId: clientMsgId(), amount: '1', note: 'Lunch' };
    expectError(
      await call(a, 'POST', '/wallet/transfers', { ...body, password: '000000' }),
      'PAYMENT_PASSWORD_INCORRECT',
    );
    const message = ok<Message>(
      await call(a, 'POST', '/wallet/transfers', { ...body, password: '123456' }),
    );
    expect(message.content).toMatchObject({
      kind: 'transfer',
      amount: PI,
      note: 'Lunch',
      toId: b.user.id,
    });
    // The same request again answers the same message, and moves nothing.
    const again = ok<Message>(
      await call(a, 'POST', '/wallet/transfers', { ...body, password: '123456' }),
    );
    expect(again.seq).toBe(message.seq);
    expect(await available(a)).toBe(2 * PI);
    expect(await available(b)).toBe(PI);
    // The recipient reads it in the chat like any message.
    const page = ok<{ messages: Message[] }>(
      await call(b, 'GET', `/conversations/${encodeURIComponent(chat)}/messages`),
    );
    expect(page.messages.map((m) => m.content.kind)).toContain('transfer');

    // More than the balance: neither the money nor the message.
    expectError(
      await call(a, 'POST', '/wallet/transfers', {
        ...body,
        clientMsgId: clientMsgId(),
        amount: '5',
        password: '123456',
      }),
      'INSUFFICIENT_BALANCE',
    );
    const after = ok<{ messages: Message[] }>(
      await call(b, 'GET', `/conversations/${encodeURIComponent(chat)}/messages`),
    );
    expect(after.messages.filter((m) => m.content.kind === 'transfer')).toHaveLength(1);

    // Not a friend: refused as any message would be.
    const stranger = await t.register();
    await walletOf(stranger);
    await fund(stranger, PI);
    const refused = await call(stranger, 'POST', '/wallet/transfers', {
      ...body,
      conversationId: singleConversationId(stranger.user.id, a.user.id),
      clientMsgId: clientMsgId(),
      password: '123456',
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(await available(stranger)).toBe(PI);
  });

  it('opens each share of a red envelope once per member, never more than its count, under concurrency', async () => {
    const owner = await t.register();
    const members = await Promise.all(Array.from({ length: 7 }, () => t.register()));
    for (const member of members) await friends(owner, member);
    const group = ok<MyGroup>(
      await call(owner, 'POST', '/groups', { memberIds: members.map((m) => m.user.id) }),
    );
    const conversationId = groupConversationId(group.id);
    await walletOf(owner);
    await fund(owner, 10 * PI);
    const message = ok<Message>(
      await call(owner, 'POST', '/wallet/envelopes', {
        conversationId,
        clientMsgId: clientMsgId(),
        total: '5',
        count: 5,
        split: 'random',
        greeting: 'Happy new year',
        password: '123456',
      }),
    );
    expect(message.content).toMatchObject({ kind: 'envelope', total: 5 * PI, count: 5 });
    const envelopeId = (message.content as { envelopeId: string }).envelopeId;
    expect(await available(owner)).toBe(5 * PI);

    // Everyone at once, each twice: five shares go, to five people, once each.
    const tries = await Promise.all(
      [...members, ...members].map((m) => call(m, 'POST', `/wallet/envelopes/${envelopeId}/open`)),
    );
    const codes = tries.map((r) =>
      r.statusCode === 200 ? 'ok' : r.json<{ error: { code: string } }>().error.code,
    );
    expect(codes.filter((c) => c !== 'ok' && c !== 'ENVELOPE_EMPTY')).toEqual([]);
    const view = ok<EnvelopeView>(await call(owner, 'GET', `/wallet/envelopes/${envelopeId}`));
    expect(view.opened).toHaveLength(5);
    expect(new Set(view.opened.map((o) => o.userId)).size).toBe(5);
    expect(view.opened.reduce((sum, o) => sum + o.amount, 0)).toBe(5 * PI);
    let received = 0;
    for (const member of members) received += await available(member);
    expect(received).toBe(5 * PI);
    const late = members.find((m) => !view.opened.some((o) => o.userId === m.user.id))!;
    expectError(await call(late, 'POST', `/wallet/envelopes/${envelopeId}/open`), 'ENVELOPE_EMPTY');
    // Outsiders see no envelope.
    const outsider = await t.register();
    expectError(await call(outsider, 'GET', `/wallet/envelopes/${envelopeId}`), 'NOT_FOUND');
    // More shares than members: refused.
    expectError(
      await call(owner, 'POST', '/wallet/envelopes', {
        conversationId,
        clientMsgId: clientMsgId(),
        total: '1',
        count: 9,
        split: 'equal',
        password: '123456',
      }),
      'VALIDATION_FAILED',
    );
  });

  it('gives an envelope only to members whose history holds its message', async () => {
    const owner = await t.register();
    const [early, clearer, hider, late] = await Promise.all([
      t.register(),
      t.register(),
      t.register(),
      t.register(),
    ]);
    for (const member of [early, clearer, hider, late]) await friends(owner, member);
    const group = ok<MyGroup>(
      await call(owner, 'POST', '/groups', {
        memberIds: [early, clearer, hider].map((m) => m.user.id),
      }),
    );
    const conversationId = groupConversationId(group.id);
    const chat = encodeURIComponent(conversationId);
    await walletOf(owner);
    await fund(owner, 5 * PI);
    const message = ok<Message>(
      await call(owner, 'POST', '/wallet/envelopes', {
        conversationId,
        clientMsgId: clientMsgId(),
        total: '4',
        count: 4,
        split: 'equal',
        password: '123456',
      }),
    );
    const envelopeId = (message.content as { envelopeId: string }).envelopeId;
    // One joins after it was sent, one clears the history past it, one deletes it for
    // themselves: to them there is no envelope, as the chat shows them none.
    ok(await call(owner, 'POST', `/groups/${group.id}/members`, { userIds: [late.user.id] }));
    ok(await call(clearer, 'POST', `/conversations/${chat}/clear`));
    expect(
      (await call(hider, 'POST', `/conversations/${chat}/messages/${message.seq}/hide`)).statusCode,
    ).toBeLessThan(300);
    for (const member of [late, clearer, hider]) {
      expectError(await call(member, 'POST', `/wallet/envelopes/${envelopeId}/open`), 'NOT_FOUND');
      expectError(await call(member, 'GET', `/wallet/envelopes/${envelopeId}`), 'NOT_FOUND');
      expect(await available(member)).toBe(0);
    }
    // Whoever still has the message opens a share.
    expect(
      ok<EnvelopeView>(await call(early, 'POST', `/wallet/envelopes/${envelopeId}/open`)).mine,
    ).toBe(PI);
  });

  it('returns what nobody opened to the sender after 24 hours, once', async () => {
    const [a, b, chat] = await pair();
    await walletOf(a);
    await fund(a, 2 * PI);
    const message = ok<Message>(
      await call(a, 'POST', '/wallet/envelopes', {
        conversationId: chat,
        clientMsgId: clientMsgId(),
        total: '1.5',
        count: 1,
        split: 'equal',
        password: '123456',
      }),
    );
    const envelopeId = (message.content as { envelopeId: string }).envelopeId;
    // The sender of a one-to-one envelope does not open it; the other person may, in time.
    expectError(
      await call(a, 'POST', `/wallet/envelopes/${envelopeId}/open`),
      'ENVELOPE_NOT_FOR_YOU',
    );
    t.clock.advance(24 * HOUR);
    await t.ctx.services.money.refundExpired();
    await t.ctx.services.money.refundExpired();
    expect(await available(a)).toBe(2 * PI);
    expectError(await call(b, 'POST', `/wallet/envelopes/${envelopeId}/open`), 'ENVELOPE_EXPIRED');
    expect(ok<EnvelopeView>(await call(b, 'GET', `/wallet/envelopes/${envelopeId}`)).refunded).toBe(
      1.5 * PI,
    );
  });
});
