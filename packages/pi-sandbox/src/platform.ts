import { createHash, randomBytes } from 'node:crypto';
import type { PiPayment } from '@teltlk/pi-sdk/contract';

/**
 * Pi's Platform API, played locally: the contract of Pi's docs (`/v2/me`, payments with
 * their status flags and error codes, app-to-user payments, incomplete server payments),
 * with the state changes Pi makes and the checks it runs. A test or a person trying the
 * app talks to it over HTTP exactly as the server talks to Pi.
 *
 * Besides Pi's own calls it has the sandbox's: signing a person in (the Pi Browser's part),
 * the wallet signing or refusing a payment, and a ledger of submitted transactions (the
 * blockchain's part), each under `/sandbox` or `/horizon`.
 */

export type PaymentDto = PiPayment;

export interface SandboxUser {
  uid: string;
  username: string;
  walletAddress: string;
}

interface Token {
  uid: string;
  scopes: string[];
  validUntil: number;
}

interface LedgerTransaction {
  hash: string;
  memo: string;
  amount: number;
  from: string;
  to: string;
}

/** An answer of the emulator: status and JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}

export class PiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly payment?: PaymentDto,
  ) {
    super(message);
  }

  toAnswer(): Answer {
    return {
      status: this.status,
      body: {
        error: this.code,
        error_message: this.message,
        ...(this.payment ? { payment: this.payment } : {}),
      },
    };
  }
}

const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

const random = (bytes: number) => randomBytes(bytes).toString('hex');

/** A Stellar-looking public key, stable per seed. */
function walletAddress(seed: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const digest = createHash('sha256').update(seed).digest();
  let text = 'G';
  for (let i = 0; text.length < 56; i += 1) text += alphabet[digest[i % digest.length]! % 32];
  return text;
}

export interface PlatformOptions {
  /** The app's server key: `Authorization: Key <apiKey>`. */
  apiKey: string;
  network?: 'Pi Network' | 'Pi Testnet';
  /** Where this emulator is reached, for transactions' `_link`. */
  baseUrl?: string;
  now?: () => number;
}

export class PiPlatformEmulator {
  readonly users = new Map<string, SandboxUser>();
  readonly payments = new Map<string, PaymentDto>();
  readonly ledger = new Map<string, LedgerTransaction>();
  readonly errorReports: unknown[] = [];
  usageReports = 0;
  private readonly tokens = new Map<string, Token>();
  private readonly appWallet = walletAddress('app');
  baseUrl: string;

  constructor(private readonly options: PlatformOptions) {
    this.baseUrl = options.baseUrl ?? 'http://127.0.0.1';
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The Pi Browser's part: a person signed in, consenting to `scopes` for this app. */
  signIn(
    username: string,
    scopes: string[] = ['username', 'payments'],
  ): {
    accessToken: string;
    user: SandboxUser;
  } {
    const name = username.trim();
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
      throw new PiError(
        400,
        'invalid_username',
        'A sandbox username is 1-64 letters, digits, _ . -',
      );
    }
    const uid = createHash('sha256').update(`uid:${name.toLowerCase()}`).digest('hex').slice(0, 32);
    const user = this.users.get(uid) ?? { uid, username: name, walletAddress: walletAddress(uid) };
    this.users.set(uid, user);
    const accessToken = random(24);
    this.tokens.set(accessToken, { uid, scopes, validUntil: this.now() + TOKEN_LIFETIME_MS });
    return { accessToken, user };
  }

  /** Ends every token (Pi signing the person out, or a token revoked). */
  revokeTokens(uid: string): void {
    for (const [token, value] of this.tokens) if (value.uid === uid) this.tokens.delete(token);
  }

  /** Routes one request. `auth` is the Authorization header. */
  handle(method: string, path: string, auth: string | undefined, body: unknown): Answer {
    try {
      return this.route(method, path, auth, body);
    } catch (error) {
      if (error instanceof PiError) return error.toAnswer();
      throw error;
    }
  }

  private route(method: string, path: string, auth: string | undefined, body: unknown): Answer {
    const ok = (value: unknown): Answer => ({ status: 200, body: value });
    const payment = /^\/v2\/payments\/([^/]+)(?:\/(approve|complete|cancel))?$/.exec(path);

    if (method === 'GET' && path === '/v2/me') return ok(this.me(this.bearer(auth)));
    if (method === 'POST' && path === '/v2/payments/user_to_app') {
      return ok(this.createUserToApp(this.bearer(auth), body));
    }
    if (method === 'GET' && path === '/v2/payments/incomplete') {
      const found = this.incompleteOf(this.bearer(auth).uid);
      return ok({ exists: found !== undefined, payment: found ?? null });
    }
    if (method === 'POST' && path === '/v2/usage/track') {
      this.usageReports += 1;
      return ok({});
    }
    if (method === 'POST' && (path === '/network/error' || path === '/v2/network/error')) {
      this.errorReports.push((body as { error?: unknown } | null)?.error ?? body);
      return ok({});
    }

    if (method === 'GET' && path === '/v2/payments/incomplete_server_payments') {
      this.key(auth);
      return ok({
        incomplete_server_payments: [...this.payments.values()].filter(
          (p) => p.direction === 'app_to_user' && isOpen(p),
        ),
      });
    }
    if (method === 'POST' && path === '/v2/payments') {
      this.key(auth);
      return ok(this.createAppToUser(body));
    }
    if (payment && payment[1] !== 'incomplete') {
      this.key(auth);
      const id = decodeURIComponent(payment[1]!);
      const action = payment[2];
      if (method === 'GET' && !action) return ok(this.find(id));
      if (method === 'POST' && action === 'approve') return ok(this.approve(id));
      if (method === 'POST' && action === 'complete') return ok(this.complete(id, body));
      if (method === 'POST' && action === 'cancel') return ok(this.cancel(id));
    }

    const sandbox = /^\/sandbox\/payments\/([^/]+)(?:\/(sign|reject))?$/.exec(path);
    if (method === 'POST' && path === '/sandbox/sign-in') {
      const { username, scopes } = (body ?? {}) as { username?: unknown; scopes?: unknown };
      const wanted = Array.isArray(scopes)
        ? scopes.filter((s) => typeof s === 'string')
        : undefined;
      const signed = this.signIn(typeof username === 'string' ? username : '', wanted);
      return ok({ accessToken: signed.accessToken, user: signed.user });
    }
    if (sandbox) {
      const id = decodeURIComponent(sandbox[1]!);
      if (method === 'GET' && !sandbox[2]) return ok(this.find(id));
      if (method === 'POST' && sandbox[2] === 'sign') return ok(this.sign(id));
      if (method === 'POST' && sandbox[2] === 'reject') return ok(this.reject(id));
    }
    const transaction = /^\/horizon\/transactions(?:\/([^/]+))?$/.exec(path);
    if (transaction) {
      if (method === 'GET' && transaction[1]) return ok(this.transaction(transaction[1]));
      if (method === 'POST' && !transaction[1]) return ok(this.submit(body));
    }
    throw new PiError(404, 'not_found', `No such endpoint: ${method} ${path}`);
  }

  private bearer(auth: string | undefined): Token {
    const token = /^Bearer (.+)$/.exec(auth ?? '')?.[1];
    const found = token ? this.tokens.get(token) : undefined;
    if (!found || found.validUntil <= this.now()) {
      throw new PiError(401, 'unauthorized', 'The access token is not valid');
    }
    return found;
  }

  private key(auth: string | undefined): void {
    if (auth !== `Key ${this.options.apiKey}`) {
      throw new PiError(401, 'unauthorized', 'The server API key is not valid');
    }
  }

  private me(token: Token) {
    const user = this.users.get(token.uid)!;
    return {
      uid: user.uid,
      ...(token.scopes.includes('username') ? { username: user.username } : {}),
      ...(token.scopes.includes('wallet_address') ? { wallet_address: user.walletAddress } : {}),
      credentials: {
        scopes: token.scopes,
        valid_until: {
          timestamp: Math.floor(token.validUntil / 1000),
          iso8601: new Date(token.validUntil).toISOString(),
        },
      },
    };
  }

  private find(id: string): PaymentDto {
    const found = this.payments.get(id);
    if (!found) throw new PiError(404, 'payment_not_found', 'Payment not found');
    return found;
  }

  private incompleteOf(uid: string): PaymentDto | undefined {
    return [...this.payments.values()].find(
      (p) => p.user_uid === uid && p.direction === 'user_to_app' && isOpen(p) && p.transaction,
    );
  }

  private paymentFields(body: unknown): { amount: number; memo: string; metadata: unknown } {
    const payment = (body as { payment?: Record<string, unknown> } | null)?.payment;
    const amount = payment?.amount;
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) {
      throw new PiError(400, 'invalid_amount', 'The amount must be a positive number');
    }
    if (typeof payment?.memo !== 'string') {
      throw new PiError(400, 'invalid_memo', 'The memo must be a string');
    }
    return { amount, memo: payment.memo, metadata: payment.metadata ?? {} };
  }

  private newPayment(
    user: SandboxUser,
    direction: PaymentDto['direction'],
    fields: { amount: number; memo: string; metadata: unknown },
  ): PaymentDto {
    const dto: PaymentDto = {
      identifier: random(12),
      user_uid: user.uid,
      ...fields,
      from_address: direction === 'user_to_app' ? user.walletAddress : this.appWallet,
      to_address: direction === 'user_to_app' ? this.appWallet : user.walletAddress,
      direction,
      created_at: new Date(this.now()).toISOString(),
      network: this.options.network ?? 'Pi Testnet',
      status: {
        developer_approved: false,
        transaction_verified: false,
        developer_completed: false,
        cancelled: false,
        user_cancelled: false,
      },
      transaction: null,
    };
    this.payments.set(dto.identifier, dto);
    return dto;
  }

  private createUserToApp(token: Token, body: unknown): PaymentDto {
    if (!token.scopes.includes('payments')) {
      throw new PiError(403, 'missing_scope', 'The payments scope was not granted');
    }
    const fields = this.paymentFields(body);
    const pending = this.incompleteOf(token.uid);
    if (pending) {
      throw new PiError(
        409,
        'ongoing_payment_found',
        'A pending payment needs to be handled.',
        pending,
      );
    }
    // One the person walked away from before signing: abandoned, as Pi does.
    for (const open of this.payments.values()) {
      if (open.user_uid === token.uid && open.direction === 'user_to_app' && isOpen(open)) {
        open.status.user_cancelled = true;
        open.status.cancelled = true;
      }
    }
    return this.newPayment(this.users.get(token.uid)!, 'user_to_app', fields);
  }

  private createAppToUser(body: unknown): PaymentDto {
    const fields = this.paymentFields(body);
    const uid = (body as { payment?: { uid?: unknown } } | null)?.payment?.uid;
    const user = typeof uid === 'string' ? this.users.get(uid) : undefined;
    if (!user) throw new PiError(404, 'user_not_found', 'No Pi user has this uid');
    const open = [...this.payments.values()].find(
      (p) => p.user_uid === uid && p.direction === 'app_to_user' && isOpen(p),
    );
    if (open) {
      throw new PiError(409, 'ongoing_payment_found', 'An app-to-user payment is still open', open);
    }
    return this.newPayment(user, 'app_to_user', fields);
  }

  /** Idempotent: approving an approved payment answers it as it is. */
  private approve(id: string): PaymentDto {
    const dto = this.find(id);
    if (dto.status.cancelled || dto.status.user_cancelled) {
      throw new PiError(400, 'cancelled_payment', 'The payment was cancelled', dto);
    }
    dto.status.developer_approved = true;
    return dto;
  }

  private complete(id: string, body: unknown): PaymentDto {
    const dto = this.find(id);
    const txid = (body as { txid?: unknown } | null)?.txid;
    if (typeof txid !== 'string' || txid.length === 0) {
      throw new PiError(400, 'invalid_txid', 'A txid is needed');
    }
    if (dto.status.cancelled || dto.status.user_cancelled) {
      throw new PiError(400, 'cancelled_payment', 'The payment was cancelled', dto);
    }
    if (dto.direction === 'app_to_user' && !dto.transaction) {
      // The app sent it: the ledger must hold it, to the person, with the payment as memo.
      const sent = this.ledger.get(txid);
      if (!sent || sent.memo !== dto.identifier || sent.to !== dto.to_address) {
        throw new PiError(400, 'txid_mismatch', 'No such transaction for this payment', dto);
      }
      dto.transaction = { txid, verified: true, _link: this.link(txid) };
      dto.status.transaction_verified = true;
    }
    if (!dto.transaction) {
      throw new PiError(400, 'verification_failed', 'The payment has no transaction yet', dto);
    }
    if (dto.transaction.txid !== txid) {
      throw new PiError(400, 'txid_mismatch', 'The txid is not the payment’s', dto);
    }
    dto.status.developer_completed = true;
    return dto;
  }

  private cancel(id: string): PaymentDto {
    const dto = this.find(id);
    if (dto.status.developer_completed) {
      throw new PiError(400, 'already_completed', 'The payment is already completed', dto);
    }
    dto.status.cancelled = true;
    return dto;
  }

  /** The wallet's part: the person signs an approved payment; it goes on the ledger. */
  private sign(id: string): PaymentDto {
    const dto = this.find(id);
    if (dto.status.cancelled || dto.status.user_cancelled) {
      throw new PiError(400, 'cancelled_payment', 'The payment was cancelled', dto);
    }
    if (!dto.status.developer_approved) {
      throw new PiError(400, 'not_approved', 'The app has not approved the payment yet', dto);
    }
    if (!dto.transaction) {
      const txid = this.record({
        memo: dto.identifier,
        amount: dto.amount,
        from: dto.from_address ?? '',
        to: dto.to_address ?? '',
      });
      dto.transaction = { txid, verified: true, _link: this.link(txid) };
      dto.status.transaction_verified = true;
    }
    return dto;
  }

  private reject(id: string): PaymentDto {
    const dto = this.find(id);
    if (dto.transaction) {
      throw new PiError(400, 'already_signed', 'The payment was already signed', dto);
    }
    dto.status.user_cancelled = true;
    dto.status.cancelled = true;
    return dto;
  }

  private link(txid: string): string {
    return `${this.baseUrl}/horizon/transactions/${txid}`;
  }

  private record(tx: Omit<LedgerTransaction, 'hash'>): string {
    const hash = random(32);
    this.ledger.set(hash, { ...tx, hash });
    return hash;
  }

  private transaction(hash: string) {
    const tx = this.ledger.get(hash);
    if (!tx) throw new PiError(404, 'not_found', 'No such transaction');
    return {
      hash: tx.hash,
      memo: tx.memo,
      memo_type: 'text',
      successful: true,
      amount: tx.amount,
      from: tx.from,
      to: tx.to,
    };
  }

  /** The blockchain's part: the app submits a payment from its wallet. */
  private submit(body: unknown) {
    const { memo, amount, to } = (body ?? {}) as { memo?: unknown; amount?: unknown; to?: unknown };
    if (typeof memo !== 'string' || typeof amount !== 'number' || typeof to !== 'string') {
      throw new PiError(400, 'invalid_transaction', 'memo, amount and to are needed');
    }
    return { hash: this.record({ memo, amount, from: this.appWallet, to }) };
  }
}

function isOpen(p: PaymentDto): boolean {
  return !p.status.developer_completed && !p.status.cancelled && !p.status.user_cancelled;
}
