import { createHash, randomBytes } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk/minimal';
import type { PiPayment } from '@teltlk/pi-sdk/contract';
import { HorizonError, HorizonStandIn, sandboxKeypair, stroopsOf } from './horizon.js';
import { type Answer, PiError } from './pi-error.js';

export { type Answer, PiError } from './pi-error.js';

/**
 * Pi's Platform API, played locally: the contract of Pi's docs (`/v2/me`, payments with
 * their status flags and error codes, app-to-user payments, incomplete server payments),
 * with the state changes Pi makes and the checks it runs. A test or a person trying the
 * app talks to it over HTTP exactly as the server talks to Pi.
 *
 * Besides Pi's own calls it has the sandbox's: signing a person in (the Pi Browser's part),
 * the wallet signing or refusing a payment (under `/sandbox`), and the blockchain's part, a
 * Horizon stand-in under `/horizon` (see horizon.ts). Every sandbox person has a funded
 * wallet on it, and so has the app: its key pair is given, or made at start.
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

const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

const random = (bytes: number) => randomBytes(bytes).toString('hex');

/** What a sandbox person's wallet holds when they first sign in, and the app's. */
const PERSON_FUNDS_PI = 1_000;
const APP_FUNDS_PI = 1_000_000;

export interface PlatformOptions {
  /** The app's server key: `Authorization: Key <apiKey>`. */
  apiKey: string;
  network?: 'Pi Network' | 'Pi Testnet';
  /** Where this emulator is reached, for transactions' `_link`. */
  baseUrl?: string;
  /** The app wallet's secret seed (`S…`); without it one is made at start. */
  appWalletSecret?: string;
  now?: () => number;
}

export class PiPlatformEmulator {
  readonly users = new Map<string, SandboxUser>();
  readonly payments = new Map<string, PaymentDto>();
  readonly horizon: HorizonStandIn;
  readonly errorReports: unknown[] = [];
  /**
   * A failure switch for crash tests: requests whose path matches are never answered, the
   * caller waits until it gives up or dies. With `apply` the request takes effect first
   * (a payment completed, a transaction landed), as when only the answer is lost.
   */
  stall: { path: RegExp; apply: boolean } | null = null;
  /** How many requests the stall switch has held unanswered, so a test can wait for one. */
  stalled = 0;
  usageReports = 0;
  /** The app wallet's key pair: its secret goes to the app as PI_WALLET_SECRET. */
  readonly appWallet: Keypair;
  private readonly tokens = new Map<string, Token>();
  /** Ads shown, as the Platform API's RewardedAdStatusDTO. */
  readonly ads = new Map<
    string,
    {
      identifier: string;
      mediator_ack_status: 'granted' | 'revoked' | 'failed' | null;
      mediator_granted_at: string | null;
      mediator_revoked_at: string | null;
    }
  >();
  baseUrl: string;

  constructor(private readonly options: PlatformOptions) {
    this.baseUrl = options.baseUrl ?? 'http://127.0.0.1';
    this.appWallet = options.appWalletSecret
      ? Keypair.fromSecret(options.appWalletSecret)
      : Keypair.random();
    this.horizon = new HorizonStandIn({
      networkPassphrase: this.network,
      now: () => this.now(),
    });
    this.horizon.fund(this.appWallet.publicKey(), APP_FUNDS_PI);
  }

  get network(): 'Pi Network' | 'Pi Testnet' {
    return this.options.network ?? 'Pi Testnet';
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
    const user = this.users.get(uid) ?? {
      uid,
      username: name,
      walletAddress: sandboxKeypair(uid).publicKey(),
    };
    this.users.set(uid, user);
    this.horizon.fund(user.walletAddress, PERSON_FUNDS_PI);
    const accessToken = random(24);
    this.tokens.set(accessToken, { uid, scopes, validUntil: this.now() + TOKEN_LIFETIME_MS });
    return { accessToken, user };
  }

  /**
   * The Pi Browser's part: an ad shown, watched to the end or closed. A rewarded ad watched
   * to the end is `granted` for the Platform API's status call; any other is not.
   */
  showAd(
    format: 'interstitial' | 'rewarded',
    watched: boolean,
  ): { type: string; result: string; adId: string } {
    const adId = random(16);
    const rewarded = format === 'rewarded' && watched;
    this.ads.set(adId, {
      identifier: adId,
      mediator_ack_status: format === 'rewarded' ? (watched ? 'granted' : 'failed') : null,
      mediator_granted_at: rewarded ? new Date(this.now()).toISOString() : null,
      mediator_revoked_at: null,
    });
    return { type: format, result: rewarded ? 'AD_REWARDED' : 'AD_CLOSED', adId };
  }

  /** Ends every token (Pi signing the person out, or a token revoked). */
  revokeTokens(uid: string): void {
    for (const [token, value] of this.tokens) if (value.uid === uid) this.tokens.delete(token);
  }

  /**
   * Routes one request. `auth` is the Authorization header; `body` the parsed JSON, or the
   * form fields of a Horizon submission.
   */
  handle(method: string, path: string, auth: string | undefined, body: unknown): Answer {
    if (path.startsWith('/horizon/')) {
      return this.horizon.handle(method, path.slice('/horizon'.length), formOf(body));
    }
    try {
      return this.route(method, path, auth, body);
    } catch (error) {
      if (error instanceof PiError) return error.toAnswer();
      throw error;
    }
  }

  /** Answers one request over HTTP as `handle` does, a held Horizon submission once let go. */
  serve(method: string, path: string, auth: string | undefined, body: unknown): Promise<Answer> {
    if (path.startsWith('/horizon/')) {
      return this.horizon.serve(method, path.slice('/horizon'.length), formOf(body));
    }
    return Promise.resolve(this.handle(method, path, auth, body));
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

    const ad = /^\/v2\/ads_network\/status\/([^/]+)$/.exec(path);
    if (method === 'GET' && ad) {
      this.key(auth);
      const found = this.ads.get(decodeURIComponent(ad[1]!));
      if (!found) throw new PiError(404, 'ad_not_found', 'No ad with this id');
      return ok(found);
    }
    if (method === 'POST' && path === '/sandbox/ads') {
      const { format, watched } = (body ?? {}) as { format?: unknown; watched?: unknown };
      return ok(this.showAd(format === 'rewarded' ? 'rewarded' : 'interstitial', watched === true));
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
      from_address: direction === 'user_to_app' ? user.walletAddress : this.appWallet.publicKey(),
      to_address: direction === 'user_to_app' ? this.appWallet.publicKey() : user.walletAddress,
      direction,
      created_at: new Date(this.now()).toISOString(),
      network: this.network,
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
      // The app sent it: the chain must hold it, to the person, for the amount, with the
      // payment as memo.
      const sent = this.horizon.transactions.get(txid);
      if (
        !sent ||
        sent.memo !== dto.identifier ||
        sent.to !== dto.to_address ||
        sent.from !== dto.from_address ||
        stroopsOf(sent.amount) !== stroopsOf(dto.amount)
      ) {
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

  /** The wallet's part: the person signs an approved payment; it goes on the chain. */
  private sign(id: string): PaymentDto {
    const dto = this.find(id);
    if (dto.status.cancelled || dto.status.user_cancelled) {
      throw new PiError(400, 'cancelled_payment', 'The payment was cancelled', dto);
    }
    if (!dto.status.developer_approved) {
      throw new PiError(400, 'not_approved', 'The app has not approved the payment yet', dto);
    }
    if (!dto.transaction) {
      let txid: string;
      try {
        txid = this.horizon.pay(
          dto.from_address ?? '',
          dto.to_address ?? '',
          dto.amount,
          dto.identifier,
        ).hash;
      } catch (error) {
        if (!(error instanceof HorizonError)) throw error;
        throw new PiError(400, 'transaction_failed', error.message, dto);
      }
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
}

function formOf(body: unknown): URLSearchParams | null {
  return body instanceof URLSearchParams ? body : null;
}

function isOpen(p: PaymentDto): boolean {
  return !p.status.developer_completed && !p.status.cancelled && !p.status.user_cancelled;
}
