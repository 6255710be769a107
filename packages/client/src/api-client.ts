import {
  isErrorCode,
  pathOf,
  type Endpoint,
  type EndpointInput,
  type EndpointResult,
  type ErrorBody,
  type ErrorCode,
  type HttpMethod,
  type StepUpReason,
} from '@teltlk/protocol';
import { ApiError, StepUpCancelled } from './api-error.js';
import type { EndpointOf, Route } from './route.js';
import { routes } from './routes.js';

/** Request timeout of the product's HTTP client (spec §9). */
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * How many times one call asks for a step-up before it gives the refusal to its caller:
 * a proof the server took and then did not count (it ran out meanwhile, another tab
 * signed out) is asked for again, but not without end.
 */
const STEP_UP_ASKS_MAX = 3;

/** The calls that make the proof itself: a refusal of theirs cannot wait on a proof. */
const PROVING: ReadonlySet<Route> = new Set([
  routes.security.stepUpStatus,
  routes.security.sendStepUpCode,
  routes.security.stepUp,
]);

/** A call the server refused until the session proves who it is, as the app is asked about it. */
export interface StepUpAsk {
  reason: StepUpReason;
  method: HttpMethod;
  /** The call's path under /api/v1, with its query. */
  path: string;
}

export interface CallOptions {
  /**
   * False for calls made without the person's doing (a background renewal): a refusal for
   * want of a step-up then fails the call instead of asking the person.
   */
  stepUp?: boolean;
  /** Ends the call early; it then fails with the signal's reason, not an ApiError. */
  signal?: AbortSignal;
  /** Headers of the endpoint's own protocol (a resumable upload's offset). */
  headers?: Record<string, string>;
}

export interface ApiClientOptions {
  /** Origin of the server; empty for same-origin requests. */
  baseUrl?: string;
  /** The current session token, if any. */
  getToken: () => string | null;
  /** Called when the server says the session is gone, so the app can sign out. */
  onUnauthorized?: (code: ErrorCode) => void;
  /** Called when the server refuses a call because it is under maintenance. */
  onMaintenance?: () => void;
  /** The UI language, sent so server-side texts (emails, SMS) match it. */
  getLanguage?: () => string;
  /**
   * Called when a call answers STEP_UP_REQUIRED: the app asks the person to prove it is
   * them, and resolves true once the server took a proof (the call is then made again) or
   * false when they gave up (the call then fails with StepUpCancelled). Calls waiting at
   * the same time may share one ask.
   */
  onStepUpRequired?: (ask: StepUpAsk) => Promise<boolean>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/**
 * The arguments of a call of `E`: its input may be left out when the endpoint takes
 * nothing that must be given (no params, no body).
 */
export type CallArgs<E extends Endpoint> =
  Record<string, never> extends EndpointInput<E>
    ? [input?: EndpointInput<E>, options?: CallOptions]
    : [input: EndpointInput<E>, options?: CallOptions];

/**
 * Client of the REST API under /api/v1, built from the protocol's endpoint declarations:
 * `api.call(routes.groups.update, { params: { id }, body })`. One `call` taking a route,
 * rather than a method for each endpoint, leaves no list of methods beside the contract
 * to keep in step with it; the route table (routes.ts) is written from the declarations
 * and a test holds it to them. A route is the declaration without its schemas, so the
 * browser does not download zod to call the API, and the declaration's type rides along:
 * the input and the result are the declaration's, and no caller picks one.
 */
export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = options.baseUrl ?? '';
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * One call of an endpoint. The answer is not parsed again here: the server checks
   * every answer against the protocol's schemas on its way out (its response
   * serializer), so the browser does not repeat the check; nor is the input, which the
   * server validates. A refusal for want of a step-up goes to `onStepUpRequired` and the
   * call is made again once the person has proven it is them; the server refuses before
   * doing anything, so the second call is the first that acts.
   */
  async call<R extends Route>(
    route: R,
    ...args: CallArgs<EndpointOf<R>>
  ): Promise<EndpointResult<EndpointOf<R>>> {
    const [input, options = {}] = args;
    const parts: CallParts = input ?? {};
    const path = `${pathOf(route.path, paramsOf(parts.params))}${queryOf(parts.query)}`;
    const mayAsk = options.stepUp !== false && !PROVING.has(route);
    for (let asked = 0; ; asked += 1) {
      try {
        return (await this.send(route, path, parts.body, options)) as EndpointResult<EndpointOf<R>>;
      } catch (error) {
        const ask = this.options.onStepUpRequired;
        if (
          !(error instanceof ApiError) ||
          error.code !== 'STEP_UP_REQUIRED' ||
          !ask ||
          !mayAsk ||
          asked >= STEP_UP_ASKS_MAX
        ) {
          throw error;
        }
        const reason: StepUpReason = error.params?.reason === 'hold' ? 'hold' : 'stale';
        if (!(await ask({ reason, method: route.method, path }))) {
          throw new StepUpCancelled(error);
        }
      }
    }
  }

  private async send(
    route: Route,
    path: string,
    body: unknown,
    options: CallOptions,
  ): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const token = this.options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    const language = this.options.getLanguage?.();
    if (language) headers['accept-language'] = language;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body instanceof Blob) {
      headers['content-type'] ??= body.type || 'application/octet-stream';
      payload = body;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }

    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    // Ask the signals, not the error: fetch implementations wrap the abort differently.
    const failure = (): unknown => {
      if (options.signal?.aborted) return options.signal.reason;
      return new ApiError(timeout.aborted ? 'TIMEOUT' : 'NETWORK_ERROR', 0);
    };
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}/api/v1${path}`, {
        method: route.method,
        headers,
        body: payload,
        signal,
      });
    } catch {
      throw failure();
    }

    if (!response.ok) throw await this.toError(response);
    if (route.result === 'bytes') {
      try {
        return await response.blob();
      } catch {
        throw failure();
      }
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      // The connection dropped or timed out while the answer was arriving.
      throw failure();
    }
    if (!text) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // A cut-off body (a proxy closing early) is no answer at all.
      throw new ApiError('NETWORK_ERROR', 0);
    }
  }

  private async toError(response: Response): Promise<ApiError> {
    let text = '';
    try {
      text = await response.text();
    } catch {
      text = '';
    }
    return this.errorOf(response.status, text);
  }

  /**
   * The error an answer of the API stands for, from its status and body (also for
   * answers this client did not fetch itself, such as an upload's); a lost session is
   * reported as every call's is.
   */
  errorOf(status: number, text: string): ApiError {
    let body: Partial<ErrorBody> | undefined;
    try {
      body = JSON.parse(text) as Partial<ErrorBody>;
    } catch {
      body = undefined;
    }
    const error = body?.error;
    const code: ErrorCode = isErrorCode(error?.code)
      ? error.code
      : status === 413
        ? 'PAYLOAD_TOO_LARGE'
        : status >= 500 || status === 0
          ? 'NETWORK_ERROR'
          : 'INTERNAL';
    if (code === 'UNAUTHENTICATED' || code === 'TOKEN_EXPIRED') this.options.onUnauthorized?.(code);
    if (code === 'MAINTENANCE') this.options.onMaintenance?.();
    return new ApiError(code, status, error?.params, error?.issues);
  }
}

/** An input as the client reads it, whatever the endpoint. */
interface CallParts {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

type PathValue = string | number | boolean;

function isPathValue(value: unknown): value is PathValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** The path's params; each goes into the path URI-encoded (pathOf). */
function paramsOf(params: unknown): Record<string, PathValue> {
  const values: Record<string, PathValue> = {};
  if (typeof params !== 'object' || params === null) return values;
  for (const [name, value] of Object.entries(params)) {
    if (isPathValue(value)) values[name] = value;
  }
  return values;
}

/** A query string of the defined fields ('' when there are none). */
function queryOf(query: unknown): string {
  if (typeof query !== 'object' || query === null) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (isPathValue(value)) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
