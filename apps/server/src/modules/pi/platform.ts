import { z } from 'zod';

/**
 * Pi's Platform API (`https://api.minepi.com/v2`), as this server uses it: `/me` with the
 * person's access token, payments with the app's server key. Every answer is checked
 * against the contract before it is believed; the key never leaves this file.
 */

/** The spec's timeout for calls to the network API. */
export const PI_API_TIMEOUT_MS = 20_000;

const meAnswer = z.object({
  uid: z.string().min(1).max(128),
  username: z.string().max(128).nullish(),
  credentials: z
    .object({
      scopes: z.array(z.string()),
      valid_until: z.object({ timestamp: z.number(), iso8601: z.string() }).partial().optional(),
    })
    .optional(),
});

export interface PiMe {
  uid: string;
  /** Present when the token was granted the username scope. */
  username: string | null;
  scopes: string[];
}

export const paymentDto = z.object({
  identifier: z.string().min(1).max(128),
  user_uid: z.string(),
  amount: z.number(),
  memo: z.string(),
  metadata: z.unknown(),
  from_address: z.string().nullish(),
  to_address: z.string().nullish(),
  direction: z.enum(['user_to_app', 'app_to_user']),
  created_at: z.string(),
  network: z.string(),
  status: z.object({
    developer_approved: z.boolean(),
    transaction_verified: z.boolean(),
    developer_completed: z.boolean(),
    cancelled: z.boolean(),
    user_cancelled: z.boolean(),
  }),
  transaction: z.object({ txid: z.string(), verified: z.boolean(), _link: z.string() }).nullable(),
});
export type PaymentDto = z.infer<typeof paymentDto>;

const errorAnswer = z.object({
  error: z.string(),
  error_message: z.string().optional(),
});

/** Pi answered with an error of its contract (`payment_not_found`, `already_completed`…). */
export class PiApiError extends Error {
  override name = 'PiApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Pi could not be reached, did not answer in time, or answered outside its contract. */
export class PiUnreachable extends Error {
  override name = 'PiUnreachable';
}

export interface PiPlatformOptions {
  /** Base URL with the version path, e.g. `https://api.minepi.com/v2`. */
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** RewardedAdStatusDTO: a reward is due only when the mediator's status is `granted`. */
const rewardedAdStatus = z.object({
  identifier: z.string(),
  mediator_ack_status: z.enum(['granted', 'revoked', 'failed']).nullable(),
  mediator_granted_at: z.string().nullable().optional(),
  mediator_revoked_at: z.string().nullable().optional(),
});
export type RewardedAdStatus = z.infer<typeof rewardedAdStatus>;

export class PiPlatform {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: PiPlatformOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? PI_API_TIMEOUT_MS;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** The person an access token belongs to, or null when Pi refuses the token. */
  async me(accessToken: string): Promise<PiMe | null> {
    const response = await this.call('GET', '/me', { Authorization: `Bearer ${accessToken}` });
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      return null;
    }
    const body = await this.json(response);
    if (!response.ok) throw this.failure(response.status, body);
    const parsed = meAnswer.safeParse(body);
    // 'Authentication failed.' when /v2/me gives no user.
    if (!parsed.success) return null;
    return {
      uid: parsed.data.uid,
      username: parsed.data.username ?? null,
      scopes: parsed.data.credentials?.scopes ?? [],
    };
  }

  getPayment(id: string): Promise<PaymentDto> {
    return this.payment('GET', `/payments/${encodeURIComponent(id)}`);
  }

  approvePayment(id: string): Promise<PaymentDto> {
    return this.payment('POST', `/payments/${encodeURIComponent(id)}/approve`);
  }

  completePayment(id: string, txid: string): Promise<PaymentDto> {
    return this.payment('POST', `/payments/${encodeURIComponent(id)}/complete`, { txid });
  }

  cancelPayment(id: string): Promise<PaymentDto> {
    return this.payment('POST', `/payments/${encodeURIComponent(id)}/cancel`);
  }

  /** An app-to-user payment (a withdrawal). */
  createPayment(payment: {
    amount: number;
    memo: string;
    metadata: unknown;
    uid: string;
  }): Promise<PaymentDto> {
    return this.payment('POST', '/payments', { payment });
  }

  async incompleteServerPayments(): Promise<PaymentDto[]> {
    const response = await this.call('GET', '/payments/incomplete_server_payments', this.keyed());
    const body = await this.json(response);
    if (!response.ok) throw this.failure(response.status, body);
    const parsed = z.object({ incomplete_server_payments: z.array(paymentDto) }).safeParse(body);
    if (!parsed.success) throw new PiUnreachable('Pi answered outside its contract');
    return parsed.data.incomplete_server_payments;
  }

  /**
   * Whether a rewarded ad was watched, by the `adId` the SDK's showAd gave the app: Pi's
   * word, since the SDK in a person's browser may be tampered with. null for an id Pi does
   * not know.
   */
  async adStatus(adId: string): Promise<RewardedAdStatus | null> {
    const response = await this.call(
      'GET',
      `/ads_network/status/${encodeURIComponent(adId)}`,
      this.keyed(),
    );
    const body = await this.json(response);
    if (response.status === 404) return null;
    if (!response.ok) throw this.failure(response.status, body);
    const parsed = rewardedAdStatus.safeParse(body);
    if (!parsed.success) throw new PiUnreachable('Pi answered outside its contract');
    return parsed.data;
  }

  private async payment(method: string, path: string, body?: unknown): Promise<PaymentDto> {
    const response = await this.call(method, path, this.keyed(), body);
    const answer = await this.json(response);
    if (!response.ok) throw this.failure(response.status, answer);
    const parsed = paymentDto.safeParse(answer);
    if (!parsed.success) throw new PiUnreachable('Pi answered outside its contract');
    return parsed.data;
  }

  private keyed(): Record<string, string> {
    return { Authorization: `Key ${this.options.apiKey}` };
  }

  private async call(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Response> {
    try {
      return await this.fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...headers,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new PiUnreachable(`Pi Platform API ${method} ${path} failed`, { cause: error });
    }
  }

  private async json(response: Response): Promise<unknown> {
    try {
      return await response.json();
    } catch (error) {
      // A body cut off by the timeout counts as no answer; one that is not JSON does too.
      throw new PiUnreachable(`Pi Platform API answered ${response.status} without JSON`, {
        cause: error,
      });
    }
  }

  private failure(status: number, body: unknown): Error {
    const parsed = errorAnswer.safeParse(body);
    if (!parsed.success) return new PiUnreachable(`Pi Platform API answered ${status}`);
    return new PiApiError(
      status,
      parsed.data.error,
      parsed.data.error_message ?? parsed.data.error,
    );
  }
}
