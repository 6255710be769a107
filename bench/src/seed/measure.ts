import { ENVELOPE_SHARES_MAX, groupConversationId, singleConversationId } from '@teltlk/protocol';
import {
  AppError,
  newId,
  parseOptions,
  UsageError,
  type AppContext,
  type OperatorCommand,
} from '@teltlk/server/tools';
import { median, PERSISTENCE_LINES, rawInsertRate, refuseInProduction } from './rows.js';

/*
 * Measurements that must run inside the server's own context, against single-row inserts
 * of the same database: messages through the send path, and money through the ledger.
 */

/** Messages per second through the send path, `senders` of them sending one after another. */
async function persistedRate(
  ctx: AppContext,
  conversationId: string,
  senders: readonly string[],
  count: number,
  round: number,
): Promise<number> {
  const perSender = Math.ceil(count / senders.length);
  const started = performance.now();
  await Promise.all(
    senders.map(async (userId, s) => {
      for (let i = 0; i < perSender; i += 1) {
        const n = s * perSender + i;
        await ctx.services.messages.send(userId, {
          conversationId,
          clientMsgId: `bench-${round < 0 ? 'warm' : round}-${n}`,
          content: { kind: 'text', text: `${PERSISTENCE_LINES[n % 6]} (${round}.${n})` },
        });
      }
    }),
  );
  return (perSender * senders.length) / ((performance.now() - started) / 1000);
}

const persistence: OperatorCommand = {
  usage: 'persistence --group <groupId> [--messages <n>] [--senders <n>] [--rounds <n>]',
  summary:
    'Messages persisted per second by members of a group through the send path, against single-row inserts of message rows into a scratch conversation of the same database; prints one JSON line',
  async run(args, open) {
    const options = parseOptions(args, ['group', 'messages', 'senders', 'rounds'], ['group']);
    const whole = (name: string, fallback: number, max: number) => {
      const value = Number(options.get(name) ?? fallback);
      if (!Number.isInteger(value) || value < 1 || value > max) {
        throw new UsageError(`--${name} must be a whole number from 1 to ${max}`);
      }
      return value;
    };
    const messages = whole('messages', 5000, 1_000_000);
    const senders = whole('senders', 64, 10_000);
    const rounds = whole('rounds', 3, 20);
    const ctx = await open();
    refuseInProduction(ctx, 'persistence');
    const conversationId = groupConversationId(options.get('group')!.trim());
    const members = await ctx.db
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', conversationId)
      .where('role', '=', 'member')
      .orderBy('user_id')
      .limit(senders)
      .execute();
    if (members.length < senders) {
      throw new UsageError(`the group has ${members.length} members who may send, not ${senders}`);
    }
    const senderIds = members.map((member) => member.user_id);
    // Warm, as a running server is: the Chinese tables built (the server does it before it
    // listens), the detector's thread started, the code compiled; then interleaved, so drift
    // on a shared machine touches both alike.
    await ctx.services.scripts.preload();
    await persistedRate(ctx, conversationId, senderIds, senderIds.length * 8, -1);
    await rawInsertRate(ctx, senderIds[0]!, Math.min(messages, 1000));
    const raw: number[] = [];
    const persisted: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      raw.push(await rawInsertRate(ctx, senderIds[0]!, messages));
      persisted.push(await persistedRate(ctx, conversationId, senderIds, messages, round));
    }
    await ctx.services.messages.drain();
    const rawPerS = median(raw);
    const persistedPerS = median(persisted);
    return [
      JSON.stringify({
        dialect: ctx.dialect,
        rawPerS,
        persistedPerS,
        ratio: persistedPerS / rawPerS,
        senders,
        messages,
        rounds,
      }),
    ];
  },
};

/** The payment password the ledger benchmark gives the sender's wallet. */
const BENCH_PAYMENT_PASSWORD = '246802';

const ledger: OperatorCommand = {
  usage:
    'ledger --group <groupId> --peer <userId> [--grabbers <n>] [--shares <n>] [--transfers <n>] [--rounds <n>]',
  summary:
    'A red envelope of n shares opened by as many group members at once (how many got a share, and whether the ledger balances after), and transfers per second between 16 pairs of members made friends, through the transfer path, against single-row inserts of the same database; prints one JSON line',
  async run(args, open) {
    const options = parseOptions(
      args,
      ['group', 'peer', 'grabbers', 'shares', 'transfers', 'rounds'],
      ['group', 'peer'],
    );
    const whole = (name: string, fallback: number, max: number) => {
      const value = Number(options.get(name) ?? fallback);
      if (!Number.isInteger(value) || value < 1 || value > max) {
        throw new UsageError(`--${name} must be a whole number from 1 to ${max}`);
      }
      return value;
    };
    const grabbers = whole('grabbers', 1000, 100_000);
    if (grabbers < 32)
      throw new UsageError('--grabbers must be at least 32 (the transfers pair them up)');
    const shares = whole('shares', 100, ENVELOPE_SHARES_MAX);
    const transfers = whole('transfers', 2000, 100_000);
    const rounds = whole('rounds', 3, 20);
    const ctx = await open();
    refuseInProduction(ctx, 'ledger');
    const { db, services } = ctx;
    const conversationId = groupConversationId(options.get('group')!.trim());
    const owner = await db
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', conversationId)
      .where('role', '=', 'owner')
      .executeTakeFirst();
    if (!owner) throw new UsageError('no such group');
    const members = await db
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', conversationId)
      .where('role', '=', 'member')
      .where('user_id', '!=', options.get('peer')!.trim())
      .orderBy('user_id')
      .limit(grabbers)
      .execute();
    if (members.length < grabbers) {
      throw new UsageError(`the group has ${members.length} members to open it, not ${grabbers}`);
    }
    // A session of the sender's own, as the app has: money actions look at the caller's.
    const { id: sessionId } = await services.sessions.create(
      owner.user_id,
      { ip: '127.0.0.1', userAgent: 'teltlk-bench' },
      'password',
    );
    const sender = { userId: owner.user_id, sessionId };
    await services.wallets.create(sender);
    const wallet = await services.wallets.wallet(sender);
    if (!wallet.hasPassword) {
      await services.wallets.setPassword(sender, BENCH_PAYMENT_PASSWORD, {
        ip: null,
        userAgent: 'teltlk-bench',
      });
    }
    // Pi for the envelope and every transfer, as a recharge would bring it.
    const funds = 1_100_000_000;
    await db.transaction().execute((trx) =>
      services.ledger.post(trx, {
        key: `bench-fund:${newId()}`,
        kind: 'recharge',
        entries: [
          { account: { app: 'outside', currency: 'PI' }, amount: -funds },
          { account: { user: owner.user_id, purpose: 'available', currency: 'PI' }, amount: funds },
        ],
      }),
    );

    // Everyone at once on one envelope: exactly `shares` of them may get a share.
    const sent = await services.money.sendEnvelope(sender, {
      conversationId,
      clientMsgId: `bench-envelope-${newId()}`,
      total: '100',
      count: shares,
      split: 'random',
      greeting: 'bench',
      password: BENCH_PAYMENT_PASSWORD,
    });
    const envelopeId = (sent.content as { envelopeId: string }).envelopeId;
    const outcomes = await Promise.all(
      members.map(({ user_id }) =>
        services.money.open({ userId: user_id, sessionId: 'bench' }, envelopeId).then(
          (view) => (view.mine === null ? 'none' : 'share'),
          (error: unknown) => {
            if (error instanceof AppError && error.code === 'ENVELOPE_EMPTY') return 'empty';
            throw error;
          },
        ),
      ),
    );
    const grabsOk = outcomes.filter((outcome) => outcome === 'share').length;
    const problems = await services.ledger.verify(db);

    // Transfers between 16 pairs of friends at once (as many people pay at the same time),
    // one after another within each pair, against single-row inserts.
    const chains = 16;
    const pairs = Array.from({ length: chains }, (_, i) => ({
      from: members[2 * i]!.user_id,
      to: members[2 * i + 1]!.user_id,
    }));
    const now = Date.now();
    await db
      .insertInto('friendships')
      .values(
        pairs.flatMap(({ from, to }) => [
          { user_id: from, friend_id: to, remark: null, created_at: now },
          { user_id: to, friend_id: from, remark: null, created_at: now },
        ]),
      )
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    await db.transaction().execute(async (trx) => {
      for (const { from } of pairs) {
        await services.ledger.post(trx, {
          key: `bench-fund:${newId()}`,
          kind: 'recharge',
          entries: [
            { account: { app: 'outside', currency: 'PI' }, amount: -funds },
            { account: { user: from, purpose: 'available', currency: 'PI' }, amount: funds },
          ],
        });
      }
    });
    const transferRate = async (count: number, round: number) => {
      const perChain = Math.ceil(count / chains);
      const started = performance.now();
      await Promise.all(
        pairs.map(async ({ from, to }, chain) => {
          for (let i = 0; i < perChain; i += 1) {
            await services.money.transferChecked(
              { userId: from, sessionId: 'bench' },
              {
                conversationId: singleConversationId(from, to),
                clientMsgId: `bench-transfer-${round}-${chain}-${i}-${newId()}`,
                amount: '0.0001',
                note: PERSISTENCE_LINES[i % 6]!.slice(0, 40),
                password: BENCH_PAYMENT_PASSWORD,
              },
              to,
            );
          }
        }),
      );
      return (perChain * chains) / ((performance.now() - started) / 1000);
    };
    // Warm, then interleaved, so drift on a shared machine touches both alike.
    await transferRate(Math.min(200, transfers), -1);
    await rawInsertRate(ctx, owner.user_id, Math.min(transfers, 1000));
    const raw: number[] = [];
    const moved: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      raw.push(await rawInsertRate(ctx, owner.user_id, transfers));
      moved.push(await transferRate(transfers, round));
    }
    const rawPerS = median(raw);
    const transfersPerS = median(moved);
    const afterTransfers = await services.ledger.verify(db);
    return [
      JSON.stringify({
        dialect: ctx.dialect,
        grabbers,
        shares,
        grabsOk,
        ledgerProblems: [...problems, ...afterTransfers].slice(0, 5),
        transfersPerS,
        rawPerS,
        ratio: transfersPerS / rawPerS,
      }),
    ];
  },
};

export const measureCommands: Record<string, OperatorCommand> = {
  persistence,
  ledger,
};
