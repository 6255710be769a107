import { ProviderError } from './provider.js';

/**
 * The HTTP plumbing the adapters share: one attempt, the caller's signal, and every
 * failure turned into a ProviderError that says whether trying again later can help.
 */

/** Longest part of an engine's error text kept in a ProviderError message (logs stay readable). */
const DETAIL_MAX_LENGTH = 200;

export interface HttpEngine {
  /** The provider's name, prefixed to every error message. */
  readonly name: string;
  readonly fetch: typeof fetch;
}

/** `${base}/${path}` with exactly one slash between them, whatever the configured URL ends with. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path}`;
}

/** Timeouts, rate limits and server-side failures pass; other answers would be the same next time. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The error for an engine that answered `status`, with whatever it said about why. */
export function statusError(engine: string, status: number, detail?: string): ProviderError {
  const reason = detail ? `: ${detail.slice(0, DETAIL_MAX_LENGTH)}` : '';
  return new ProviderError(
    `${engine} answered ${status}${reason}`,
    isRetryableStatus(status),
    status,
  );
}

/** An answer that does not have the shape the engine documents; asking again will not fix it. */
export function malformed(engine: string, what: string, status?: number): ProviderError {
  return new ProviderError(`${engine} answered ${what}`, false, status);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** GETs `url` and answers its parsed JSON body. */
export function getJson(engine: HttpEngine, url: string, signal: AbortSignal): Promise<unknown> {
  return requestJson(engine, url, { method: 'GET', signal });
}

/** POSTs `body` as JSON and answers the parsed JSON body. */
export function postJson(
  engine: HttpEngine,
  url: string,
  body: unknown,
  signal: AbortSignal,
  headers: Record<string, string> = {},
): Promise<unknown> {
  return requestJson(engine, url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

/** POSTs `fields` form-encoded (fetch sets the content type) and answers the parsed JSON body. */
export function postForm(
  engine: HttpEngine,
  url: string,
  fields: Record<string, string>,
  signal: AbortSignal,
): Promise<unknown> {
  return requestJson(engine, url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    signal,
  });
}

/**
 * One request. A network failure or an abort (including one while the body streams in) is
 * retryable; a non-2xx status is mapped by isRetryableStatus; a 2xx body that is not JSON
 * is not retryable.
 */
async function requestJson(engine: HttpEngine, url: string, init: RequestInit): Promise<unknown> {
  let status: number;
  let text: string;
  try {
    const response = await engine.fetch(url, init);
    status = response.status;
    text = await response.text();
    if (!response.ok) throw statusError(engine.name, status, errorDetail(text));
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    throw new ProviderError(`${engine.name} request failed: ${describe(error)}`, true);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw malformed(engine.name, 'a body that is not JSON', status);
  }
}

/**
 * The human part of an error body. Engines put it in different places: `error` (a string in
 * LibreTranslate, `{ message }` in OpenAI-compatible servers), `explanation` or `message`
 * (Apertium APY), else the raw text.
 */
export function errorDetail(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text.trim();
  }
  if (!isRecord(body)) return text.trim();
  const error = isRecord(body.error) ? body.error.message : body.error;
  for (const candidate of [error, body.explanation, body.responseDetails, body.message]) {
    if (typeof candidate === 'string' && candidate) return candidate;
  }
  return text.trim();
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    // Node's fetch hides the socket error (ECONNREFUSED, ...) in `cause`.
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
