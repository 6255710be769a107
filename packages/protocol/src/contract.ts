import type { z } from 'zod';
import type { ErrorCode } from './errors.js';
import type { LimitClass } from './limit-classes.js';
import type { Sensitivity } from './security.js';

/**
 * The REST contract, one declaration per endpoint (see endpoints.ts): the server registers
 * its routes from these (handlers stay in their modules), the typed client builds its calls
 * from them, and the API docs, the permission matrix and the fuzz test read the same list,
 * so a new endpoint cannot miss any of them.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What proves a sensitive action (see StepUpRule on the server). */
export interface EndpointSensitivity {
  level: Sensitivity;
  /**
   * `session`: a step-up made on the session, checked before the handler; `inline`: a
   * secret in the request that the service checks; `conditional`: only some calls are
   * sensitive, and the service says which.
   */
  proof: 'session' | 'inline' | 'conditional';
}

/**
 * Errors any endpoint may answer (its input refused, no session, a limit, the server's own
 * trouble), which its `errors` leave out.
 */
export const ANY_ENDPOINT_ERRORS = [
  'VALIDATION_FAILED',
  'MALFORMED_REQUEST',
  'UNAUTHENTICATED',
  'TOKEN_EXPIRED',
  'RATE_LIMITED',
  'INTERNAL',
  'SERVER_BUSY',
  'MAINTENANCE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
] as const satisfies readonly ErrorCode[];

export interface Endpoint {
  method: HttpMethod;
  /** Under /api/v1, Fastify's syntax: `/groups/:id`. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /**
   * A JSON body; `multipart` is a form upload the handler reads itself; `bytes`, raw bytes
   * it streams from the request itself (a chunk of a resumable upload).
   */
  body?: z.ZodType | 'multipart' | 'bytes';
  /**
   * The answer's JSON, null for 204 No Content, or `bytes`: an answer the handler writes
   * itself, headers and all (a stored object with its byte ranges, a tus answer).
   */
  result: z.ZodType | null | 'bytes';
  /** Errors this endpoint answers besides those every endpoint may (ANY_ENDPOINT_ERRORS). */
  errors: readonly ErrorCode[];
  /** `session`: a bearer token; `public`: anyone (signing in, the undo link). */
  access: 'public' | 'session';
  /** Its own rate-limit classes, narrowest first; each counts per what its name says. */
  limits: readonly [LimitClass, ...LimitClass[]];
  sensitive?: EndpointSensitivity;
  summary: string;
  tags: readonly string[];
}

/** Declares an endpoint, keeping its literal types for the client and the server. */
export function endpoint<const E extends Endpoint>(declaration: E): E {
  return declaration;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : never;
type InputOf<T> = T extends z.ZodType ? z.input<T> : never;

/** What a call of the endpoint sends: only the parts it has, each in its input form. */
export type EndpointInput<E extends Endpoint> = (E['params'] extends z.ZodType
  ? { params: InputOf<E['params']> }
  : { params?: never }) &
  (E['query'] extends z.ZodType ? { query?: InputOf<E['query']> } : { query?: never }) &
  (E['body'] extends z.ZodType
    ? { body: InputOf<E['body']> }
    : E['body'] extends 'multipart'
      ? { body: FormData }
      : E['body'] extends 'bytes'
        ? { body: Blob }
        : { body?: never });

/** What the endpoint answers (void for 204, the bytes for `bytes`). */
export type EndpointResult<E extends Endpoint> = E['result'] extends z.ZodType
  ? Infer<E['result']>
  : E['result'] extends 'bytes'
    ? Blob
    : void;

/** The parsed parts a handler gets. */
export interface EndpointParts<E extends Endpoint> {
  params: E['params'] extends z.ZodType ? Infer<E['params']> : Record<string, never>;
  query: E['query'] extends z.ZodType ? Infer<E['query']> : Record<string, never>;
  body: E['body'] extends z.ZodType ? Infer<E['body']> : undefined;
}

/** A group of endpoints by name. */
export type Endpoints = Record<string, Endpoint>;

/** `/groups/:id` with `{ id: 'g1' }`: `/groups/g1` (each value URI-encoded). */
export function pathOf(
  path: string,
  params: Record<string, string | number | boolean> = {},
): string {
  return path.replace(/:(\w+)/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path}: no ${name}`);
    return encodeURIComponent(String(value));
  });
}
