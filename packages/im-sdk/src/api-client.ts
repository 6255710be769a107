import {
  authResult,
  countryListResult,
  ERRORS,
  formatMessage,
  isErrorCode,
  meSchema,
  outboxResult,
  sendCodeResult,
  sessionListResult,
  settingsSchema,
  verifyCodeResult,
  type AuthResult,
  type ChangePasswordBody,
  type ChangeTeltlkIdBody,
  type CodeLoginBody,
  type CountryListResult,
  type ErrorBody,
  type ErrorCode,
  type FieldIssue,
  type Me,
  type OutboxResult,
  type PasswordLoginBody,
  type RegisterBody,
  type ResetPasswordBody,
  type SendCodeBody,
  type SendCodeResult,
  type SessionListResult,
  type Settings,
  type UpdateProfileBody,
  type UpdateSettingsBody,
  type VerifyCodeBody,
  type VerifyCodeResult,
} from '@teltlk/protocol';
import type { z } from 'zod';

/** Request timeout of the product's HTTP client (spec §9). */
const DEFAULT_TIMEOUT_MS = 60_000;

export interface ApiClientOptions {
  /** Origin of the server; empty for same-origin requests. */
  baseUrl?: string;
  /** The current session token, if any. */
  getToken: () => string | null;
  /** Called when the server says the session is gone, so the app can sign out. */
  onUnauthorized?: (code: ErrorCode) => void;
  /** The UI language, sent so server-side texts (emails, SMS) match it. */
  getLanguage?: () => string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** A failed call, carrying the server's stable error code. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    readonly params?: Record<string, string | number>,
    readonly issues?: FieldIssue[],
  ) {
    super(formatMessage(ERRORS[code].message, params));
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Typed client of the REST API under /api/v1. */
export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = options.baseUrl ?? '';
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async request<S extends z.ZodType>(
    method: Method,
    path: string,
    body: unknown,
    schema: S,
  ): Promise<z.infer<S>>;
  async request(method: Method, path: string, body?: unknown): Promise<void>;
  async request(
    method: Method,
    path: string,
    body?: unknown,
    schema?: z.ZodType,
  ): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = this.options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    const language = this.options.getLanguage?.();
    if (language) headers['accept-language'] = language;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }

    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}/api/v1${path}`, {
        method,
        headers,
        body: payload,
        signal,
      });
    } catch {
      // Ask the signal, not the error: fetch implementations wrap the abort differently.
      throw new ApiError(signal.aborted ? 'TIMEOUT' : 'NETWORK_ERROR', 0);
    }

    if (!response.ok) throw await this.toError(response);
    if (!schema || response.status === 204) return undefined;
    return schema.parse(await response.json());
  }

  private async toError(response: Response): Promise<ApiError> {
    let body: Partial<ErrorBody> | undefined;
    try {
      body = (await response.json()) as Partial<ErrorBody>;
    } catch {
      body = undefined;
    }
    const error = body?.error;
    const code: ErrorCode = isErrorCode(error?.code)
      ? error.code
      : response.status === 413
        ? 'PAYLOAD_TOO_LARGE'
        : response.status >= 500 || response.status === 0
          ? 'NETWORK_ERROR'
          : 'INTERNAL';
    if (code === 'UNAUTHENTICATED' || code === 'TOKEN_EXPIRED') this.options.onUnauthorized?.(code);
    return new ApiError(code, response.status, error?.params, error?.issues);
  }

  sendCode(body: SendCodeBody): Promise<SendCodeResult> {
    return this.request('POST', '/auth/codes', body, sendCodeResult);
  }
  verifyCode(body: VerifyCodeBody): Promise<VerifyCodeResult> {
    return this.request('POST', '/auth/codes/verify', body, verifyCodeResult);
  }
  register(body: RegisterBody): Promise<AuthResult> {
    return this.request('POST', '/auth/register', body, authResult);
  }
  login(body: PasswordLoginBody): Promise<AuthResult> {
    return this.request('POST', '/auth/login', body, authResult);
  }
  loginWithCode(body: CodeLoginBody): Promise<AuthResult> {
    return this.request('POST', '/auth/login/code', body, authResult);
  }
  resetPassword(body: ResetPasswordBody): Promise<void> {
    return this.request('POST', '/auth/password/reset', body);
  }
  logout(): Promise<void> {
    return this.request('POST', '/auth/logout');
  }
  sessions(): Promise<SessionListResult> {
    return this.request('GET', '/sessions', undefined, sessionListResult);
  }
  revokeSession(id: string): Promise<void> {
    return this.request('DELETE', `/sessions/${encodeURIComponent(id)}`);
  }
  me(): Promise<Me> {
    return this.request('GET', '/me', undefined, meSchema);
  }
  updateProfile(body: UpdateProfileBody): Promise<Me> {
    return this.request('PATCH', '/me', body, meSchema);
  }
  changeTeltlkId(body: ChangeTeltlkIdBody): Promise<Me> {
    return this.request('PUT', '/me/teltlk-id', body, meSchema);
  }
  uploadAvatar(file: Blob, name = 'avatar'): Promise<Me> {
    const form = new FormData();
    form.append('file', file, name);
    return this.request('POST', '/me/avatar', form, meSchema);
  }
  changePassword(body: ChangePasswordBody): Promise<void> {
    return this.request('PUT', '/me/password', body);
  }
  settings(): Promise<Settings> {
    return this.request('GET', '/me/settings', undefined, settingsSchema);
  }
  updateSettings(body: UpdateSettingsBody): Promise<Settings> {
    return this.request('PATCH', '/me/settings', body, settingsSchema);
  }
  countries(): Promise<CountryListResult> {
    return this.request('GET', '/meta/countries', undefined, countryListResult);
  }
  outbox(): Promise<OutboxResult> {
    return this.request('GET', '/dev/outbox', undefined, outboxResult);
  }
}
