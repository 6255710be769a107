import { z } from 'zod';

/**
 * Horizon, the Pi blockchain's REST API, as the server uses it: an account's sequence
 * number, the latest closed ledger (its close time and base fee), a signed transaction
 * submitted, a transaction and its payment looked up by hash. Every answer is checked
 * before it is believed. Reads say which ledger the answering Horizon had taken in
 * (its `Latest-Ledger` header): behind a load balancer one read may come from a Horizon
 * further along than the next.
 */

const HORIZON_TIMEOUT_MS = 20_000;

const accountAnswer = z.object({ sequence: z.string().regex(/^\d+$/) });
const ledgersAnswer = z.object({
  _embedded: z.object({
    records: z.array(
      z.object({
        sequence: z.coerce.number().int().positive(),
        closed_at: z.string(),
        base_fee_in_stroops: z.coerce.number().int().positive(),
      }),
    ),
  }),
});
const transactionAnswer = z.object({
  hash: z.string(),
  successful: z.boolean(),
  memo: z.string().optional(),
  memo_type: z.string(),
});
const operationsAnswer = z.object({
  _embedded: z.object({
    records: z.array(
      z.object({
        type: z.string(),
        from: z.string().optional(),
        to: z.string().optional(),
        amount: z.string().optional(),
        asset_type: z.string().optional(),
      }),
    ),
  }),
});
const failureAnswer = z.object({
  title: z.string().optional(),
  extras: z
    .object({
      result_codes: z
        .object({
          transaction: z.string().optional(),
          operations: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
});

/** A payment on the chain, as the server checks it against a Pi payment. */
export interface ChainPayment {
  hash: string;
  memo: string | null;
  from: string;
  to: string;
  /** Decimal Pi text. */
  amount: string;
}

/** An account as a Horizon showed it. */
export interface ChainAccount {
  /** The last sequence number the account used. */
  sequence: bigint;
  /** The newest ledger the answering Horizon had taken in; null when it did not say. */
  seenAt: number | null;
}

/** The latest closed ledger a Horizon knows of. */
export interface ChainLedger {
  sequence: number;
  /** Its close time, epoch milliseconds. */
  closedAt: number;
  /** The network's base fee per operation, in stroops. */
  baseFee: number;
}

/** A transaction looked up by hash: in a ledger (successful or failed there), or not found. */
export interface ChainLookup {
  state: 'successful' | 'failed' | 'absent';
  /** The newest ledger the answering Horizon had taken in; null when it did not say. */
  seenAt: number | null;
}

/** Horizon refused the transaction: it will not land as it is (Stellar's result codes). */
export class HorizonRefused extends Error {
  override name = 'HorizonRefused';
  constructor(readonly resultCode: string) {
    super(`Horizon refused the transaction: ${resultCode}`);
  }
}

/** Horizon could not be reached, timed out, or answered outside its contract. */
export class HorizonUnreachable extends Error {
  override name = 'HorizonUnreachable';
}

export class Horizon {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly options: { timeoutMs?: number; fetch?: typeof fetch } = {},
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** The account's current sequence number; its next transaction uses the one after. */
  async account(accountId: string): Promise<ChainAccount> {
    const { body, seenAt } = await this.read(`/accounts/${encodeURIComponent(accountId)}`);
    if (body === null) throw new HorizonUnreachable(`account ${accountId} does not exist`);
    return { sequence: BigInt(this.parse(accountAnswer, body).sequence), seenAt };
  }

  /** The latest closed ledger: its number, close time and base fee. */
  async latestLedger(): Promise<ChainLedger> {
    const { body } = await this.read('/ledgers?order=desc&limit=1');
    const record = this.parse(ledgersAnswer, body)._embedded.records[0];
    const closedAt = Date.parse(record?.closed_at ?? '');
    if (!record || Number.isNaN(closedAt)) throw new HorizonUnreachable('Horizon gave no ledger');
    return { sequence: record.sequence, closedAt, baseFee: record.base_fee_in_stroops };
  }

  /** Whether a transaction is in a ledger, and whether it succeeded there. */
  async lookup(hash: string): Promise<ChainLookup> {
    const { body, seenAt } = await this.read(`/transactions/${encodeURIComponent(hash)}`);
    if (body === null) return { state: 'absent', seenAt };
    return {
      state: this.parse(transactionAnswer, body).successful ? 'successful' : 'failed',
      seenAt,
    };
  }

  /** Submits a signed envelope (base64 XDR); resolves with its hash once it is in a ledger. */
  async submit(envelope: string): Promise<string> {
    const response = await this.call(`/transactions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tx: envelope }).toString(),
    });
    const body = await this.json(response);
    if (response.ok) return this.parse(z.object({ hash: z.string() }), body).hash;
    const failure = failureAnswer.safeParse(body);
    const codes = failure.success ? failure.data.extras?.result_codes : undefined;
    if (response.status === 400 && codes?.transaction) {
      throw new HorizonRefused([codes.transaction, ...(codes.operations ?? [])].join(' '));
    }
    if (response.status === 400) throw new HorizonRefused('tx_malformed');
    throw new HorizonUnreachable(`Horizon answered ${response.status}`);
  }

  /** A successful transaction's single payment, or null when the chain has no such transaction. */
  async payment(hash: string): Promise<ChainPayment | null> {
    const path = `/transactions/${encodeURIComponent(hash)}`;
    const found = await this.get(path);
    if (found === null) return null;
    const tx = this.parse(transactionAnswer, found);
    if (!tx.successful) return null;
    const operations = this.parse(operationsAnswer, await this.get(`${path}/operations`));
    const payments = operations._embedded.records.filter(
      (op) => op.type === 'payment' && op.asset_type === 'native',
    );
    const [payment] = payments;
    if (payments.length !== 1 || !payment?.from || !payment.to || !payment.amount) return null;
    return {
      hash: tx.hash,
      memo: tx.memo_type === 'text' ? (tx.memo ?? '') : null,
      from: payment.from,
      to: payment.to,
      amount: payment.amount,
    };
  }

  /** GET a document; null on 404. */
  private async get(path: string): Promise<unknown> {
    return (await this.read(path)).body;
  }

  /** GET a document (null on 404), with the ledger the answering Horizon had taken in. */
  private async read(path: string): Promise<{ body: unknown; seenAt: number | null }> {
    const response = await this.call(path, { method: 'GET' });
    const header = Number(response.headers.get('Latest-Ledger') ?? Number.NaN);
    const seenAt = Number.isSafeInteger(header) && header > 0 ? header : null;
    if (response.status === 404) {
      await response.body?.cancel();
      return { body: null, seenAt };
    }
    const body = await this.json(response);
    if (!response.ok) throw new HorizonUnreachable(`Horizon answered ${response.status}`);
    return { body, seenAt };
  }

  private async call(path: string, init: RequestInit): Promise<Response> {
    try {
      return await (this.options.fetch ?? globalThis.fetch)(`${this.baseUrl}${path}`, {
        ...init,
        headers: { Accept: 'application/json', ...init.headers },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? HORIZON_TIMEOUT_MS),
      });
    } catch (error) {
      throw new HorizonUnreachable(`Horizon ${init.method} ${path} failed`, { cause: error });
    }
  }

  private async json(response: Response): Promise<unknown> {
    try {
      return await response.json();
    } catch (error) {
      throw new HorizonUnreachable(`Horizon answered ${response.status} without JSON`, {
        cause: error,
      });
    }
  }

  private parse<T>(schema: z.ZodType<T>, body: unknown): T {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new HorizonUnreachable('Horizon answered outside its contract');
    return parsed.data;
  }
}
