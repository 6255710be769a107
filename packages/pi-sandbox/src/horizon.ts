import { createHash, randomBytes } from 'node:crypto';
import { Asset, Keypair, Transaction, TransactionBuilder } from '@stellar/stellar-sdk/minimal';

/**
 * Pi's blockchain, played locally through the part of Horizon's REST API an app uses:
 * accounts with their sequence numbers and balances, the latest ledger's base fee, and
 * transactions submitted as signed envelopes. A transaction is taken only when Stellar
 * would take it: it parses under the network's passphrase, its source account exists, its
 * sequence number is the next one, the source account's key signed it, its fee is enough,
 * it has not expired, and its one payment, in Pi, goes to an account that exists and is
 * covered by the source's balance. The signature is checked with the same SDK the server
 * signs with, so a wrongly signed or tampered envelope is refused as Horizon refuses it.
 */

/** Stroops: Pi's smallest unit, 1 Pi = 10,000,000. */
const STROOPS_PER_PI = 10_000_000n;
export const BASE_FEE_STROOPS = 100_000;

export interface HorizonAccount {
  id: string;
  sequence: bigint;
  /** In stroops. */
  balance: bigint;
}

export interface HorizonTransaction {
  hash: string;
  ledger: number;
  memo: string;
  from: string;
  to: string;
  /** Decimal Pi with seven places, as Horizon writes amounts. */
  amount: string;
  envelopeXdr: string | null;
  createdAt: string;
}

/** Horizon's failure document: status, title, and Stellar's result codes. */
export class HorizonError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly resultCode?: string,
    readonly operationCode?: string,
  ) {
    super(resultCode ? `${title}: ${resultCode}` : title);
  }

  toBody(): unknown {
    return {
      type: `https://stellar.org/horizon-errors/${this.status === 404 ? 'not_found' : 'transaction_failed'}`,
      title: this.title,
      status: this.status,
      ...(this.resultCode
        ? {
            extras: {
              result_codes: {
                transaction: this.resultCode,
                ...(this.operationCode ? { operations: [this.operationCode] } : {}),
              },
            },
          }
        : {}),
    };
  }
}

/** Decimal Pi text with seven places from stroops. */
export function piText(stroops: bigint): string {
  const whole = stroops / STROOPS_PER_PI;
  const fraction = (stroops % STROOPS_PER_PI).toString().padStart(7, '0');
  return `${whole}.${fraction}`;
}

/** Stroops of a decimal Pi amount (at most seven places). */
export function stroopsOf(amount: string | number): bigint {
  const text = typeof amount === 'number' ? amount.toFixed(7) : amount;
  const match = /^(\d+)(?:\.(\d{1,7}))?$/.exec(text);
  if (!match) throw new Error(`not an amount: ${text}`);
  return BigInt(match[1]!) * STROOPS_PER_PI + BigInt((match[2] ?? '').padEnd(7, '0'));
}

/** A deterministic key pair for a name (a sandbox person's wallet). */
export function sandboxKeypair(seed: string): Keypair {
  return Keypair.fromRawEd25519Seed(createHash('sha256').update(`wallet:${seed}`).digest());
}

export class HorizonStandIn {
  readonly accounts = new Map<string, HorizonAccount>();
  readonly transactions = new Map<string, HorizonTransaction>();
  /**
   * How submissions fare, for trying failures: `down` refuses them unapplied (503); `lost`
   * applies them and loses the answer (504), as a timeout does.
   */
  submissions: 'up' | 'down' | 'lost' = 'up';
  private ledger = 1;

  constructor(private readonly options: { networkPassphrase: string; now: () => number }) {}

  /** Opens an account with a starting balance in Pi (the sandbox's friendly faucet). */
  fund(id: string, pi: number): HorizonAccount {
    const existing = this.accounts.get(id);
    if (existing) return existing;
    // Stellar starts an account's sequence at its creating ledger shifted by 32 bits.
    const account = { id, sequence: BigInt(this.ledger) << 32n, balance: stroopsOf(pi) };
    this.accounts.set(id, account);
    return account;
  }

  /**
   * A payment the sandbox wallet makes for a person who signs a user-to-app payment in
   * the host page: recorded as a transaction on the chain, like one they submitted.
   */
  pay(from: string, to: string, amount: number, memo: string): HorizonTransaction {
    const stroops = stroopsOf(amount);
    const source = this.accounts.get(from);
    const destination = this.accounts.get(to);
    if (!source || !destination) throw new HorizonError(400, 'Transaction Failed', 'tx_failed');
    if (source.balance < stroops + BigInt(BASE_FEE_STROOPS)) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_underfunded');
    }
    source.sequence += 1n;
    source.balance -= stroops + BigInt(BASE_FEE_STROOPS);
    destination.balance += stroops;
    return this.record(
      { from, to, amount: piText(stroops), memo, envelopeXdr: null },
      randomHash(),
    );
  }

  /** Routes one Horizon request under its own paths (`/accounts/…`, `/transactions…`). */
  handle(
    method: string,
    path: string,
    form: URLSearchParams | null,
  ): { status: number; body: unknown } {
    try {
      return { status: 200, body: this.route(method, path, form) };
    } catch (error) {
      if (error instanceof HorizonError) return { status: error.status, body: error.toBody() };
      throw error;
    }
  }

  private route(method: string, path: string, form: URLSearchParams | null): unknown {
    const account = /^\/accounts\/([A-Z2-7]{56})$/.exec(path);
    if (method === 'GET' && account) return this.accountView(account[1]!);
    if (method === 'GET' && path === '/ledgers') {
      return {
        _embedded: {
          records: [{ sequence: this.ledger, base_fee_in_stroops: BASE_FEE_STROOPS }],
        },
      };
    }
    if (method === 'POST' && path === '/transactions') {
      if (this.submissions === 'down') throw new HorizonError(503, 'Service Unavailable');
      const submitted = this.submit(form?.get('tx') ?? '');
      if (this.submissions === 'lost') throw new HorizonError(504, 'Timeout');
      return submitted;
    }
    const transaction = /^\/transactions\/([0-9a-f]{64})(\/operations)?$/.exec(path);
    if (method === 'GET' && transaction) {
      const tx = this.transactions.get(transaction[1]!);
      if (!tx) throw new HorizonError(404, 'Resource Missing');
      return transaction[2] ? this.operationsView(tx) : this.transactionView(tx);
    }
    throw new HorizonError(404, 'Resource Missing');
  }

  private accountView(id: string) {
    const account = this.accounts.get(id);
    if (!account) throw new HorizonError(404, 'Resource Missing');
    return {
      id,
      account_id: id,
      sequence: account.sequence.toString(),
      balances: [{ asset_type: 'native', balance: piText(account.balance) }],
    };
  }

  private transactionView(tx: HorizonTransaction) {
    return {
      id: tx.hash,
      hash: tx.hash,
      ledger: tx.ledger,
      successful: true,
      source_account: tx.from,
      memo_type: 'text',
      memo: tx.memo,
      created_at: tx.createdAt,
      ...(tx.envelopeXdr ? { envelope_xdr: tx.envelopeXdr } : {}),
    };
  }

  private operationsView(tx: HorizonTransaction) {
    return {
      _embedded: {
        records: [
          {
            type: 'payment',
            transaction_hash: tx.hash,
            transaction_successful: true,
            asset_type: 'native',
            from: tx.from,
            to: tx.to,
            amount: tx.amount,
          },
        ],
      },
    };
  }

  private submit(envelope: string) {
    const now = this.options.now();
    let parsed: ReturnType<typeof TransactionBuilder.fromXDR>;
    try {
      parsed = TransactionBuilder.fromXDR(envelope, this.options.networkPassphrase);
    } catch {
      throw new HorizonError(400, 'Transaction Malformed');
    }
    if (!(parsed instanceof Transaction)) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_not_supported');
    }
    const tx = parsed;
    const source = this.accounts.get(tx.source);
    if (!source) throw new HorizonError(400, 'Transaction Failed', 'tx_no_source_account');
    if (BigInt(tx.sequence) !== source.sequence + 1n) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_bad_seq');
    }
    // Signed by the source account's key, over this network's hash of the transaction.
    const key = Keypair.fromPublicKey(tx.source);
    const hash = tx.hash();
    const signed = tx.signatures.some(
      (signature) =>
        signature.hint().equals(key.signatureHint()) && key.verify(hash, signature.signature()),
    );
    if (!signed) throw new HorizonError(400, 'Transaction Failed', 'tx_bad_auth');
    if (Number(tx.fee) < BASE_FEE_STROOPS * tx.operations.length) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_insufficient_fee');
    }
    const maxTime = Number(tx.timeBounds?.maxTime ?? 0);
    if (maxTime !== 0 && Math.floor(now / 1000) > maxTime) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_too_late');
    }
    const [operation] = tx.operations;
    if (tx.operations.length !== 1 || operation?.type !== 'payment') {
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_not_supported');
    }
    const payment = operation;
    if (!payment.asset.equals(Asset.native())) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_no_trust');
    }
    const destination = this.accounts.get(payment.destination);
    if (!destination)
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_no_destination');
    const amount = stroopsOf(payment.amount);
    const fee = BigInt(tx.fee);
    if (source.balance < amount + fee) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_underfunded');
    }
    if (tx.memo.type !== 'text') {
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_malformed');
    }
    source.sequence += 1n;
    source.balance -= amount + fee;
    destination.balance += amount;
    const memo = Buffer.isBuffer(tx.memo.value)
      ? tx.memo.value.toString('utf8')
      : String(tx.memo.value);
    const recorded = this.record(
      {
        from: tx.source,
        to: payment.destination,
        amount: piText(amount),
        memo,
        envelopeXdr: envelope,
      },
      hash.toString('hex'),
    );
    return {
      hash: recorded.hash,
      ledger: recorded.ledger,
      successful: true,
      envelope_xdr: envelope,
    };
  }

  private record(
    fields: Omit<HorizonTransaction, 'hash' | 'ledger' | 'createdAt'>,
    hash: string,
  ): HorizonTransaction {
    this.ledger += 1;
    const tx = {
      ...fields,
      hash,
      ledger: this.ledger,
      createdAt: new Date(this.options.now()).toISOString(),
    };
    this.transactions.set(hash, tx);
    return tx;
  }
}

function randomHash(): string {
  return randomBytes(32).toString('hex');
}
