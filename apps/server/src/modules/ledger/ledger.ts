import { createHash } from 'node:crypto';
import type { Currency, PointsKind } from '@teltlk/protocol';
import { sql } from 'kysely';
import { after } from '../../db/keyset.js';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';

/**
 * The double-entry ledger. Money moves only as a transaction whose entries sum to zero
 * in each currency, written inside the caller's database transaction together with the
 * business event it belongs to, under an idempotency key: a replayed callback or a double
 * click finds the transaction it made the first time and moves nothing again.
 *
 * Each account's balance is kept beside its entries and changed in the same transaction;
 * `verify` proves the two agree. Accounts of people never go below zero; the outside
 * world's mirror account (Pi entering and leaving the app) does.
 */

/** A person's money: what they may spend, and what is held for a payment under way. */
export type UserPurpose = 'available' | 'held';
/**
 * The app's own: Pi outside the app (the mirror of every recharge and withdrawal), fees,
 * red envelopes not yet opened; NFTs brought into being (the mirror of every item minted)
 * and those minted but not yet given to anyone; points issued (the mirror of every point
 * earned by mining or given as a reward).
 */
export type AppPurpose = 'outside' | 'fees' | 'envelopes' | 'minted' | 'vault' | 'issued';

/**
 * A currency of the product, one NFT item (a currency of which one unit exists), or one
 * kind of growth points.
 */
export type LedgerCurrency = Currency | `nft:${string}` | `pts:${PointsKind}`;

export function pointsCurrency(kind: PointsKind): LedgerCurrency {
  return `pts:${kind}`;
}

export function nftCurrency(itemId: string): LedgerCurrency {
  return `nft:${itemId}`;
}

export type AccountRef =
  | { user: string; purpose: UserPurpose; currency: LedgerCurrency }
  | { app: AppPurpose; currency: LedgerCurrency };

/** Mirrors of the world outside the ledger, the only accounts that may go below zero. */
function mayGoNegative(ref: AccountRef): boolean {
  return 'app' in ref && (ref.app === 'outside' || ref.app === 'minted' || ref.app === 'issued');
}

export interface Entry {
  account: AccountRef;
  /** Units gained by the account (below zero: given). */
  amount: number;
}

export interface Posting {
  /** Unique per movement of money: the same key posts once. */
  key: string;
  kind: string;
  /** The business record it belongs to (a payment id, a message), if any. */
  reference?: string;
  entries: Entry[];
}

export interface Posted {
  transactionId: string;
  /** True when the key had been posted before: nothing moved this time. */
  replayed: boolean;
}

/** An entry as an account's history shows it. */
export interface AccountEntry {
  transactionId: string;
  currency: string;
  /** Units gained by the account (below zero: given). */
  amount: number;
  createdAt: number;
}

export interface LedgerTransaction {
  id: string;
  kind: string;
  reference: string | null;
}

export function accountId(ref: AccountRef): string {
  return 'user' in ref
    ? `u:${ref.user}:${ref.currency}:${ref.purpose}`
    : `app:${ref.app}:${ref.currency}`;
}

export class Ledger {
  constructor(private readonly deps: { clock: Clock }) {}

  /** Posts one transaction inside `trx`, the caller's database transaction. */
  async post(trx: Db, posting: Posting): Promise<Posted> {
    const totals = this.checked(posting);
    const digest = digestOf(posting.kind, posting.reference ?? null, totals);
    const now = this.deps.clock.now();
    const transactionId = newId();
    // Concurrent posts of one key: the second waits for the first and inserts nothing.
    const inserted = await trx
      .insertInto('ledger_transactions')
      .values({
        id: transactionId,
        idempotency_key: posting.key,
        kind: posting.kind,
        reference: posting.reference ?? null,
        digest,
        created_at: now,
      })
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      const earlier = await trx
        .selectFrom('ledger_transactions')
        .select(['id', 'digest'])
        .where('idempotency_key', '=', posting.key)
        .executeTakeFirstOrThrow();
      if (earlier.digest !== digest) throw new AppError('LEDGER_KEY_REUSED');
      return { transactionId: earlier.id, replayed: true };
    }
    // Accounts in one order, so two transactions never wait for each other's rows. An
    // account that gains is created on its first gain (one upsert); one that gives must
    // exist and keep enough (one conditional update): a person's account never goes
    // below zero, and a missing one has nothing to give.
    const moves = [...totals].sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [id, { ref, amount }] of moves) {
      if (amount > 0 || mayGoNegative(ref)) {
        await this.upsert(trx, id, ref, amount, now);
        continue;
      }
      const given = await trx
        .updateTable('ledger_accounts')
        .set({ balance: sql`balance + ${amount}` })
        .where('id', '=', id)
        .where(sql<boolean>`balance + ${amount} >= 0`)
        .executeTakeFirst();
      if (given.numUpdatedRows === 0n) throw new AppError('INSUFFICIENT_BALANCE');
    }
    await trx
      .insertInto('ledger_entries')
      .values(
        moves.map(([id, { ref, amount }]) => ({
          id: newId(),
          transaction_id: transactionId,
          account_id: id,
          currency: ref.currency,
          amount,
          created_at: now,
        })),
      )
      .execute();
    return { transactionId, replayed: false };
  }

  /** An account's balance; an account with no money yet has none. */
  async balance(db: Db, ref: AccountRef): Promise<number> {
    const row = await db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('id', '=', accountId(ref))
      .executeTakeFirst();
    return row ? Number(row.balance) : 0;
  }

  /** The balances of these accounts by account id; an account with no money yet is left out. */
  async balances(db: Db, refs: readonly AccountRef[]): Promise<Map<string, number>> {
    if (refs.length === 0) return new Map();
    const rows = await db
      .selectFrom('ledger_accounts')
      .select(['id', 'balance'])
      .where('id', 'in', refs.map(accountId))
      .execute();
    return new Map(rows.map((row) => [row.id, Number(row.balance)]));
  }

  /**
   * The currencies a person holds some of, in any of their accounts: among every currency
   * starting with a prefix (`nft:`, their NFT items), or only the one given.
   */
  async holdings(
    db: Db,
    userId: string,
    currencies: { prefix: string } | LedgerCurrency,
  ): Promise<string[]> {
    const rows = await db
      .selectFrom('ledger_accounts')
      .select('currency')
      .where('owner_id', '=', userId)
      .where(
        'currency',
        typeof currencies === 'string' ? '=' : 'like',
        typeof currencies === 'string' ? currencies : `${currencies.prefix}%`,
      )
      .where('balance', '>', 0)
      .execute();
    return rows.map((row) => row.currency);
  }

  /**
   * Who holds the currencies starting with `prefix`, people only (not the app's vault): the
   * holder of each by currency. For currencies of one unit (NFT items), each has one.
   */
  async holders(db: Db, prefix: string): Promise<Map<string, string>> {
    const rows = await db
      .selectFrom('ledger_accounts')
      .select(['currency', 'owner_id'])
      .where('currency', 'like', `${prefix}%`)
      .where('owner_kind', '=', 'user')
      .where('balance', '>', 0)
      .execute();
    const holders = new Map<string, string>();
    for (const row of rows) if (row.owner_id !== null) holders.set(row.currency, row.owner_id);
    return holders;
  }

  /**
   * The entries of these accounts, newest first (by time, then transaction id), at most
   * `limit` of them, after `cursor` (`<time>:<transaction id>`) when there is one.
   */
  async entries(
    db: Db,
    refs: readonly AccountRef[],
    page: { limit: number; cursor?: string | undefined },
  ): Promise<AccountEntry[]> {
    const { cursor } = page;
    let query = db
      .selectFrom('ledger_entries')
      .select(['transaction_id', 'currency', 'amount', 'created_at'])
      .where('account_id', 'in', refs.map(accountId))
      .orderBy('created_at', 'desc')
      .orderBy('transaction_id', 'desc')
      .limit(page.limit);
    if (cursor) query = query.where((eb) => after(eb, cursor, 'created_at', 'transaction_id'));
    const rows = await query.execute();
    return rows.map((row) => ({
      transactionId: row.transaction_id,
      currency: row.currency,
      amount: Number(row.amount),
      createdAt: Number(row.created_at),
    }));
  }

  /** These transactions' kinds and the records they belong to. */
  async transactions(db: Db, ids: readonly string[]): Promise<LedgerTransaction[]> {
    if (ids.length === 0) return [];
    return db
      .selectFrom('ledger_transactions')
      .select(['id', 'kind', 'reference'])
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * Everything that does not add up, in words; empty when the ledger balances: every
   * account's balance is the sum of its entries, every transaction sums to zero in each
   * currency, no entry is in another currency than its account, no person's account is
   * below zero.
   */
  async verify(db: Db): Promise<string[]> {
    const problems: string[] = [];
    const balances = await db
      .selectFrom('ledger_accounts as a')
      .leftJoin('ledger_entries as e', 'e.account_id', 'a.id')
      .select(['a.id', 'a.balance', 'a.may_go_negative', 'a.currency'])
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('e.amount'), sql<number>`0`).as('total'))
      .groupBy(['a.id', 'a.balance', 'a.may_go_negative', 'a.currency'])
      .execute();
    for (const account of balances) {
      if (Number(account.balance) !== Number(account.total)) {
        problems.push(
          `account ${account.id}: balance ${account.balance}, entries sum to ${account.total}`,
        );
      }
      if (account.may_go_negative === 0 && Number(account.balance) < 0) {
        problems.push(`account ${account.id} is below zero: ${account.balance}`);
      }
    }
    const unbalanced = await db
      .selectFrom('ledger_entries')
      .select(['transaction_id', 'currency'])
      .select((eb) => eb.fn.sum<number>('amount').as('total'))
      .groupBy(['transaction_id', 'currency'])
      .having((eb) => eb.fn.sum('amount'), '!=', 0)
      .execute();
    for (const row of unbalanced) {
      problems.push(`transaction ${row.transaction_id} sums to ${row.total} ${row.currency}`);
    }
    const foreign = await db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
      .select(['e.id', 'e.currency', 'a.id as account'])
      .whereRef('e.currency', '!=', 'a.currency')
      .execute();
    for (const row of foreign) {
      problems.push(`entry ${row.id} in ${row.currency} on account ${row.account}`);
    }
    const orphans = await db
      .selectFrom('ledger_entries as e')
      .leftJoin('ledger_accounts as a', 'a.id', 'e.account_id')
      .select('e.id')
      .where('a.id', 'is', null)
      .execute();
    for (const row of orphans) problems.push(`entry ${row.id} has no account`);
    // One unit of each NFT exists: nobody but its mint holds more, and only one holds it.
    const doubled = await db
      .selectFrom('ledger_accounts')
      .select('currency')
      .select((eb) => eb.fn.sum<number>('balance').as('held'))
      .where('currency', 'like', 'nft:%')
      .where('balance', '>', 0)
      .groupBy('currency')
      .having((eb) => eb.fn.sum('balance'), '!=', 1)
      .execute();
    for (const row of doubled) problems.push(`${row.currency} is held ${row.held} times`);
    return problems;
  }

  /** The posting's entries merged per account, checked to sum to zero per currency. */
  private checked(posting: Posting): Map<string, { ref: AccountRef; amount: number }> {
    if (posting.key.length === 0 || posting.key.length > 200) {
      throw new Error('a ledger posting needs a key of 1 to 200 characters');
    }
    const totals = new Map<string, { ref: AccountRef; amount: number }>();
    const sums = new Map<LedgerCurrency, number>();
    for (const { account, amount } of posting.entries) {
      if (!Number.isSafeInteger(amount) || amount === 0) {
        throw new Error(`a ledger entry moves a whole, non-zero number of units, not ${amount}`);
      }
      const id = accountId(account);
      const total = (totals.get(id)?.amount ?? 0) + amount;
      totals.set(id, { ref: account, amount: total });
      sums.set(account.currency, (sums.get(account.currency) ?? 0) + amount);
    }
    for (const [currency, sum] of sums) {
      if (sum !== 0) throw new Error(`a ledger transaction sums to ${sum} ${currency}, not zero`);
    }
    for (const [id, { amount }] of totals) {
      if (!Number.isSafeInteger(amount)) throw new Error(`too large a movement on ${id}`);
      if (amount === 0) totals.delete(id);
    }
    if (totals.size < 2) throw new Error('a ledger transaction moves money between accounts');
    return totals;
  }

  /** Adds `amount` to an account, creating it with that balance if it is new. */
  private async upsert(
    trx: Db,
    id: string,
    ref: AccountRef,
    amount: number,
    now: number,
  ): Promise<void> {
    await trx
      .insertInto('ledger_accounts')
      .values({
        id,
        owner_kind: 'user' in ref ? 'user' : 'app',
        owner_id: 'user' in ref ? ref.user : null,
        currency: ref.currency,
        purpose: 'user' in ref ? ref.purpose : ref.app,
        may_go_negative: mayGoNegative(ref) ? 1 : 0,
        balance: amount,
        created_at: now,
      })
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet({ balance: sql`ledger_accounts.balance + ${amount}` }),
      )
      .execute();
  }
}

function digestOf(
  kind: string,
  reference: string | null,
  totals: Map<string, { amount: number }>,
): string {
  const entries = [...totals].map(([id, { amount }]) => [id, amount]).sort();
  return createHash('sha256').update(JSON.stringify({ kind, reference, entries })).digest('hex');
}
