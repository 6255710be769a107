import { Asset, Keypair, Transaction, TransactionBuilder } from '@stellar/stellar-sdk/minimal';
import { createHash } from 'node:crypto';
import {
  BASE_FEE_STROOPS,
  type HorizonAccount,
  type HorizonAnswer,
  HorizonError,
  type HorizonPart,
  type HorizonTransaction,
  type Ledger,
  LEDGER_CLOSE_MS,
  partOf,
  piText,
  randomHash,
  type Snapshot,
  stroopsOf,
  wholeSecond,
} from './horizon-parts.js';

export {
  BASE_FEE_STROOPS,
  HorizonError,
  piText,
  sandboxKeypair,
  stroopsOf,
  type HorizonAccount,
  type HorizonAnswer,
  type HorizonPart,
  type HorizonTransaction,
} from './horizon-parts.js';

/**
 * Pi's blockchain, played locally through the part of Horizon's REST API an app uses:
 * accounts with their sequence numbers and balances, the latest closed ledger (its close
 * time and base fee), and transactions submitted as signed envelopes and looked up by hash.
 * A transaction is taken only when Stellar would take it: it parses under the network's
 * passphrase, its source account exists, its sequence number is the next one, the source
 * account's key signed it, its fee is enough, it has not expired, and its one operation is
 * a payment in Pi to an account that exists and is covered by the source's balance, or a
 * bump of the source's sequence number. The signature is checked with the same SDK the
 * server signs with, so a wrongly signed or tampered envelope is refused as Horizon
 * refuses it.
 *
 * Ledgers close every five seconds of the sandbox's clock, and once more for each
 * transaction taken (each lands in a ledger of its own). Every answer carries Horizon's
 * `Latest-Ledger` header: the newest ledger the answering view has taken in.
 *
 * Besides the happy path it plays the ways a real Horizon lets an app down, each a switch:
 * submissions refused unapplied (`down`), applied with the answer lost (`lost`) or held
 * until let go (`hold`); reads failing with 503 (`reads`); a view that lags behind the
 * chain (`lag`), as a Horizon still ingesting or one of several behind a load balancer
 * does; and a transaction submitted again after it landed, answered as it landed or
 * refused for its spent sequence number (`resubmissions`).
 */

export class HorizonStandIn {
  readonly accounts = new Map<string, HorizonAccount>();
  readonly transactions = new Map<string, HorizonTransaction>();
  /**
   * How submissions fare, for trying failures: `down` refuses them unapplied (503); `lost`
   * applies them and loses the answer (504), as a timeout does.
   */
  submissions: 'up' | 'down' | 'lost' = 'up';
  /** `down`: every read (an account, the ledgers, a transaction) answers 503. */
  reads: 'up' | 'down' = 'up';
  /**
   * A transaction submitted again after it landed: `answered` as it landed, as Horizon
   * answers one it has taken in; `refused` with tx_bad_seq, its sequence number being
   * spent, as the network refuses it when Horizon has not taken it in (a lagging view
   * always refuses so).
   */
  resubmissions: 'answered' | 'refused' = 'answered';
  private latest: Ledger;
  private snapshot: Snapshot | null = null;
  private holding: { apply: boolean; count: number } | null = null;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: { networkPassphrase: string; now: () => number }) {
    this.latest = { sequence: 1, closedAt: wholeSecond(options.now()) };
  }

  /** The chain's latest closed ledger (whatever a lagging view shows). */
  get ledger(): Ledger {
    this.closeLedgers();
    return { ...this.latest };
  }

  /** Opens an account with a starting balance in Pi (the sandbox's friendly faucet). */
  fund(id: string, pi: number): HorizonAccount {
    const existing = this.accounts.get(id);
    if (existing) return existing;
    // Stellar starts an account's sequence at its creating ledger shifted by 32 bits.
    const account = {
      id,
      sequence: BigInt(this.ledger.sequence) << 32n,
      balance: stroopsOf(pi),
    };
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
      {
        operation: 'payment',
        sequence: source.sequence,
        from,
        to,
        amount: piText(stroops),
        memo,
        envelopeXdr: null,
      },
      randomHash(),
    );
  }

  /**
   * Horizon's view stops at the chain as it is now, until `catchUp`: the account sequence
   * numbers, the latest ledger and the transactions it can find stay as they are (`parts`:
   * which of them; all by default), while submissions still reach the chain. Lagging
   * already, the view stays where it stopped and only `parts` still lag: the others catch
   * up, as when the reads of one Horizon behind a load balancer go to another further on.
   */
  lag(parts: readonly HorizonPart[] = ['accounts', 'ledgers', 'transactions']): void {
    if (this.snapshot) {
      this.snapshot = { ...this.snapshot, parts: new Set(parts) };
      return;
    }
    this.closeLedgers();
    this.snapshot = {
      parts: new Set(parts),
      ledger: { ...this.latest },
      accounts: new Map(
        [...this.accounts].map(([id, { sequence, balance }]) => [id, { sequence, balance }]),
      ),
      transactions: new Set(this.transactions.keys()),
    };
  }

  catchUp(): void {
    this.snapshot = null;
  }

  /**
   * Submissions from now on (the next `count` of them; all by default) wait for `letGo`.
   * With `apply` each is taken onto the chain as it arrives and only its answer waits, as
   * when Horizon's synchronous submission outlasts its caller; without, it reaches the
   * chain when let go.
   */
  hold(options: { apply: boolean; count?: number }): void {
    this.holding = { apply: options.apply, count: options.count ?? Infinity };
  }

  /** Submissions waiting for `letGo`. */
  get held(): number {
    return this.waiting.length;
  }

  /** Ends the hold: the held submissions go on, in the order they came. */
  letGo(): void {
    this.holding = null;
    for (const go of this.waiting.splice(0)) go();
  }

  /** Answers one request as `handle` does, a held submission once it is let go. */
  async serve(method: string, path: string, form: URLSearchParams | null): Promise<HorizonAnswer> {
    const hold = this.holding;
    if (!hold || hold.count === 0 || method !== 'POST' || path !== '/transactions') {
      return this.handle(method, path, form);
    }
    hold.count -= 1;
    const early = hold.apply ? this.handle(method, path, form) : null;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return early ?? this.handle(method, path, form);
  }

  /** Routes one Horizon request under its own paths (`/accounts/…`, `/transactions…`). */
  handle(method: string, path: string, form: URLSearchParams | null): HorizonAnswer {
    this.closeLedgers();
    const seen = this.view(partOf(path)).ledger;
    const headers = { 'Latest-Ledger': String(seen.sequence) };
    try {
      return { status: 200, headers, body: this.route(method, path, form) };
    } catch (error) {
      if (!(error instanceof HorizonError)) throw error;
      return {
        status: error.status,
        headers: error.status >= 500 ? {} : headers,
        body: error.toBody(),
      };
    }
  }

  private route(method: string, path: string, form: URLSearchParams | null): unknown {
    if (method === 'GET' && this.reads === 'down') {
      throw new HorizonError(503, 'Service Unavailable');
    }
    const account = /^\/accounts\/([A-Z2-7]{56})$/.exec(path);
    if (method === 'GET' && account) return this.accountView(account[1]!);
    if (method === 'GET' && path === '/ledgers') return this.ledgersView();
    if (method === 'POST' && path === '/transactions') {
      if (this.submissions === 'down') throw new HorizonError(503, 'Service Unavailable');
      const submitted = this.submit(form?.get('tx') ?? '');
      if (this.submissions === 'lost') throw new HorizonError(504, 'Timeout');
      return submitted;
    }
    const transaction = /^\/transactions\/([0-9a-f]{64})(\/operations)?$/.exec(path);
    if (method === 'GET' && transaction) {
      const tx = this.found(transaction[1]!);
      if (!tx) throw new HorizonError(404, 'Resource Missing');
      return transaction[2] ? this.operationsView(tx) : this.transactionView(tx);
    }
    throw new HorizonError(404, 'Resource Missing');
  }

  /** What the view of one part of Horizon shows: lagging, or the chain itself. */
  private view(part: HorizonPart | null): { ledger: Ledger; lagging: Snapshot | null } {
    const lagging = part && this.snapshot?.parts.has(part) ? this.snapshot : null;
    return { ledger: lagging?.ledger ?? this.latest, lagging };
  }

  /** A transaction Horizon can find: on the chain, and taken in by its view. */
  private found(hash: string): HorizonTransaction | undefined {
    const tx = this.transactions.get(hash);
    const { lagging } = this.view('transactions');
    return tx && (!lagging || lagging.transactions.has(hash)) ? tx : undefined;
  }

  private accountView(id: string) {
    const { lagging } = this.view('accounts');
    const account = lagging ? lagging.accounts.get(id) : this.accounts.get(id);
    if (!account) throw new HorizonError(404, 'Resource Missing');
    return {
      id,
      account_id: id,
      sequence: account.sequence.toString(),
      balances: [{ asset_type: 'native', balance: piText(account.balance) }],
    };
  }

  private ledgersView() {
    const { ledger } = this.view('ledgers');
    return {
      _embedded: {
        records: [
          {
            id: createHash('sha256').update(`ledger:${ledger.sequence}`).digest('hex'),
            sequence: ledger.sequence,
            closed_at: new Date(ledger.closedAt).toISOString().replace('.000Z', 'Z'),
            base_fee_in_stroops: BASE_FEE_STROOPS,
          },
        ],
      },
    };
  }

  private transactionView(tx: HorizonTransaction) {
    return {
      id: tx.hash,
      hash: tx.hash,
      ledger: tx.ledger,
      successful: true,
      source_account: tx.from,
      source_account_sequence: tx.sequence.toString(),
      ...(tx.operation === 'payment'
        ? { memo_type: 'text', memo: tx.memo }
        : { memo_type: 'none' }),
      created_at: tx.createdAt,
      ...(tx.envelopeXdr ? { envelope_xdr: tx.envelopeXdr } : {}),
    };
  }

  private operationsView(tx: HorizonTransaction) {
    const common = {
      transaction_hash: tx.hash,
      transaction_successful: true,
      source_account: tx.from,
    };
    return {
      _embedded: {
        records: [
          tx.operation === 'payment'
            ? {
                ...common,
                type: 'payment',
                asset_type: 'native',
                from: tx.from,
                to: tx.to,
                amount: tx.amount,
              }
            : { ...common, type: 'bump_sequence', bump_to: tx.sequence.toString() },
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
    const hash = tx.hash();
    const landed = this.found(hash.toString('hex'));
    if (landed && this.resubmissions === 'answered') return this.transactionView(landed);
    const source = this.accounts.get(tx.source);
    if (!source) throw new HorizonError(400, 'Transaction Failed', 'tx_no_source_account');
    if (BigInt(tx.sequence) !== source.sequence + 1n) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_bad_seq');
    }
    // Signed by the source account's key, over this network's hash of the transaction.
    const key = Keypair.fromPublicKey(tx.source);
    const signed = tx.signatures.some(
      (signature) =>
        signature.hint().equals(key.signatureHint()) && key.verify(hash, signature.signature()),
    );
    if (!signed) throw new HorizonError(400, 'Transaction Failed', 'tx_bad_auth');
    if (Number(tx.fee) < BASE_FEE_STROOPS * tx.operations.length) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_insufficient_fee');
    }
    // Checked against the close time of the ledger it would land in.
    const maxTime = Number(tx.timeBounds?.maxTime ?? 0);
    if (maxTime !== 0 && Math.floor(Math.max(now, this.latest.closedAt) / 1000) > maxTime) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_too_late');
    }
    const [operation] = tx.operations;
    if (tx.operations.length !== 1 || !operation) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_not_supported');
    }
    const fee = BigInt(tx.fee);
    const sequence = BigInt(tx.sequence);
    if (operation.type === 'bumpSequence') {
      if (source.balance < fee) {
        throw new HorizonError(400, 'Transaction Failed', 'tx_insufficient_balance');
      }
      const bumpTo = BigInt(operation.bumpTo);
      source.sequence = bumpTo > sequence ? bumpTo : sequence;
      source.balance -= fee;
      const recorded = this.record(
        {
          operation: 'bump_sequence',
          sequence,
          from: tx.source,
          to: tx.source,
          amount: piText(0n),
          memo: '',
          envelopeXdr: envelope,
        },
        hash.toString('hex'),
      );
      return this.transactionView(recorded);
    }
    if (operation.type !== 'payment') {
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_not_supported');
    }
    if (!operation.asset.equals(Asset.native())) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_no_trust');
    }
    const destination = this.accounts.get(operation.destination);
    if (!destination)
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_no_destination');
    const amount = stroopsOf(operation.amount);
    if (source.balance < amount + fee) {
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_underfunded');
    }
    if (tx.memo.type !== 'text') {
      throw new HorizonError(400, 'Transaction Failed', 'tx_failed', 'op_malformed');
    }
    source.sequence = sequence;
    source.balance -= amount + fee;
    destination.balance += amount;
    const memo = Buffer.isBuffer(tx.memo.value)
      ? tx.memo.value.toString('utf8')
      : String(tx.memo.value);
    const recorded = this.record(
      {
        operation: 'payment',
        sequence,
        from: tx.source,
        to: operation.destination,
        amount: piText(amount),
        memo,
        envelopeXdr: envelope,
      },
      hash.toString('hex'),
    );
    return this.transactionView(recorded);
  }

  /** A transaction taken: it lands in a ledger of its own, closing now. */
  private record(
    fields: Omit<HorizonTransaction, 'hash' | 'ledger' | 'createdAt'>,
    hash: string,
  ): HorizonTransaction {
    this.closeLedgers();
    this.latest = {
      sequence: this.latest.sequence + 1,
      closedAt: Math.max(this.latest.closedAt, wholeSecond(this.options.now())),
    };
    const tx = {
      ...fields,
      hash,
      ledger: this.latest.sequence,
      createdAt: new Date(this.latest.closedAt).toISOString(),
    };
    this.transactions.set(hash, tx);
    return tx;
  }

  /**
   * The ledgers that closed on the clock since the last one. A clock moved back (a new
   * test's, on a sandbox kept between tests) takes the chain's time back with it.
   */
  private closeLedgers(): void {
    const now = wholeSecond(this.options.now());
    if (now < this.latest.closedAt) {
      this.latest = { ...this.latest, closedAt: now };
      return;
    }
    const closed = Math.floor((now - this.latest.closedAt) / LEDGER_CLOSE_MS);
    if (closed > 0) {
      this.latest = {
        sequence: this.latest.sequence + closed,
        closedAt: this.latest.closedAt + closed * LEDGER_CLOSE_MS,
      };
    }
  }
}
