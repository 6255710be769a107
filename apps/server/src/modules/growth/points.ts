import {
  POINTS_KINDS,
  type CoinHistoryResult,
  type CoinRecord,
  type CoinResult,
  type PageQuery,
  type PointsByKind,
  type PointsKind,
} from '@teltlk/protocol';
import { cursorOf } from '../../db/keyset.js';
import type { Db } from '../../db/schema.js';
import type { AuthInfo } from '../auth/sessions.js';
import {
  accountId,
  pointsCurrency,
  type AccountRef,
  type Entry,
  type Ledger,
} from '../ledger/ledger.js';
import { ALL_TIME } from './periods.js';
import type { RankUpdate, Rankings } from './rankings.js';

const held = (user: string, kind: PointsKind): AccountRef => ({
  user,
  purpose: 'available',
  currency: pointsCurrency(kind),
});
/** Every point earned is -1 here: the mirror of points brought into being. */
const issued = (kind: PointsKind): AccountRef => ({
  app: 'issued',
  currency: pointsCurrency(kind),
});

/** The person's accounts of every kind of points. */
const pointAccounts = (user: string) => POINTS_KINDS.map((kind) => held(user, kind));
/** The kind of a points currency (`pts:<kind>`). */
const kindOf = (currency: string) => currency.slice('pts:'.length) as PointsKind;

const noPoints = (): PointsByKind => ({ basic: 0, local: 0, other: 0, ranking: 0, ecological: 0 });
const sum = (points: PointsByKind) => POINTS_KINDS.reduce((total, kind) => total + points[kind], 0);

function entriesFor(userId: string, points: Partial<PointsByKind>): Entry[] {
  const entries: Entry[] = [];
  for (const kind of POINTS_KINDS) {
    const amount = points[kind] ?? 0;
    if (amount <= 0) continue;
    entries.push(
      { account: issued(kind), amount: -amount },
      { account: held(userId, kind), amount },
    );
  }
  return entries;
}

/**
 * Points (spec §2): they live in the ledger, one currency per kind (`pts:<kind>`), so the
 * same double entry, idempotency keys and `ledger:verify` hold for them as for money.
 * Every point earned also counts on the points ranking.
 */
export class Points {
  constructor(
    private readonly deps: {
      db: Db;
      ledger: Ledger;
      rankings: Rankings;
    },
  ) {}

  async coin(auth: AuthInfo): Promise<CoinResult> {
    const accounts = pointAccounts(auth.userId);
    const balances = await this.deps.ledger.balances(this.deps.db, accounts);
    const points = noPoints();
    for (const account of accounts) {
      points[kindOf(account.currency)] = balances.get(accountId(account)) ?? 0;
    }
    return { balances: points, total: sum(points) };
  }

  /** Settlements and rewards, newest first, a page of transactions at a time. */
  async history(auth: AuthInfo, query: PageQuery): Promise<CoinHistoryResult> {
    const { db, ledger } = this.deps;
    // A transaction moves at most three kinds for one person.
    const rows = query.limit * 3 + 3;
    const entries = await ledger.entries(db, pointAccounts(auth.userId), {
      limit: rows,
      cursor: query.cursor,
    });
    const order: string[] = [];
    const amounts = new Map<string, { at: number; points: PointsByKind }>();
    for (const entry of entries) {
      let record = amounts.get(entry.transactionId);
      if (!record) {
        record = { at: entry.createdAt, points: noPoints() };
        amounts.set(entry.transactionId, record);
        order.push(entry.transactionId);
      }
      record.points[kindOf(entry.currency)] += entry.amount;
    }
    // The last transaction may be cut short by the row limit: it starts the next page.
    const complete = entries.length < rows ? order : order.slice(0, -1);
    const page = complete.slice(0, query.limit);
    const transactions = await ledger.transactions(db, page);
    const byId = new Map(transactions.map((t) => [t.id, t]));
    const items: CoinRecord[] = page.map((id) => {
      const record = amounts.get(id)!;
      const transaction = byId.get(id);
      const kind =
        transaction?.kind === 'mining' || transaction?.kind === 'ranking'
          ? transaction.kind
          : 'ecological';
      return {
        id,
        kind,
        amounts: record.points,
        total: sum(record.points),
        at: record.at,
        note: kind === 'mining' ? '' : (transaction?.reference ?? ''),
      };
    });
    const last = items[items.length - 1];
    const more = complete.length > page.length || complete.length < order.length;
    return { items, next: more && last ? cursorOf(last.at, last.id) : null };
  }

  /** Points the operator gives for the ecosystem (events, contributions), once per key. */
  async ecologicalReward(input: {
    userId: string;
    amount: number;
    note: string;
    key: string;
  }): Promise<'given' | 'already'> {
    const { db, rankings } = this.deps;
    const credited = await db
      .transaction()
      .execute((trx) =>
        this.credit(
          trx,
          input.userId,
          { ecological: input.amount },
          { key: `ecological:${input.key}`, kind: 'ecological', reference: input.note },
        ),
      );
    if (credited) rankings.publish([credited]);
    return credited ? 'given' : 'already';
  }

  /**
   * Points into a person's accounts under the ledger key, and onto the points ranking, in
   * the caller's transaction; null when the key was posted before (nothing moved). Publish
   * the update once the transaction has committed.
   */
  async credit(
    trx: Db,
    userId: string,
    points: Partial<PointsByKind>,
    posting: { key: string; kind: string; reference: string },
  ): Promise<RankUpdate | null> {
    const posted = await this.deps.ledger.post(trx, {
      ...posting,
      entries: entriesFor(userId, points),
    });
    if (posted.replayed) return null;
    const total = POINTS_KINDS.reduce((all, kind) => all + (points[kind] ?? 0), 0);
    return this.deps.rankings.add(trx, 'points', ALL_TIME, userId, total);
  }
}
