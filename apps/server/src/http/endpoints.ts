import multipart, { type FastifyMultipartOptions } from '@fastify/multipart';
import type {
  Endpoint,
  EndpointParts,
  EndpointResult,
  LimitClass,
  UiLanguage,
} from '@teltlk/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppError } from '../errors.js';
import type { AuthInfo, ClientInfo } from '../modules/auth/sessions.js';
import type { RateLimiter } from '../modules/limits/limiter.js';
import { withPlaceChecks } from '../modules/meta/countries.js';
import { authOf, clientOf, languageOf } from './auth.js';
import { handleError, toAppError } from './errors.js';
import { byAddress, byUser, limitBy, type LimitKey } from './rate-limit.js';
import type { App } from './types.js';

/** What a handler gets: the request's parts, parsed by the endpoint's schemas, and who asks. */
export interface Call<E extends Endpoint> extends EndpointParts<E> {
  /** The caller's session (endpoints with `access: 'session'`; null on public ones). */
  auth: E['access'] extends 'session' ? AuthInfo : null;
  client: ClientInfo;
  language: UiLanguage;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What a handler gives back: the result, or for `bytes` the reply it answered itself. */
export type Answer<E extends Endpoint> = E['result'] extends 'bytes'
  ? FastifyReply | void
  : EndpointResult<E>;

export type Handler<E extends Endpoint> = (call: Call<E>) => Promise<Answer<E>> | Answer<E>;

/** Every endpoint of a group with its handler: a missing one is a type error. */
export type Handlers<G extends Record<string, Endpoint>> = { [K in keyof G]: Handler<G[K]> };

/**
 * What the server adds to a declaration: keys its limits count by, body parsers, a check
 * before everything else, a rewording of its errors.
 */
export interface Serving {
  /** A limit class counted by something its name does not say (null: not this request). */
  keys?: Partial<Record<LimitClass, LimitKey>>;
  multipart?: FastifyMultipartOptions;
  /**
   * A route that streams its bytes itself: bodies of these types are left unread for the
   * handler, and nothing is compressed or decompressed on the way.
   */
  raw?: { contentTypes: readonly string[] };
  /** Runs first, before the limits: a refusal here spends nothing. */
  guard?: (request: FastifyRequest) => Promise<void>;
  /** Rewrites what the route answers as an error, its schemas' refusals included. */
  mapError?: (error: AppError) => AppError;
}

/** What the server adds to some endpoints of a group, by name. */
export type Servings<G extends Record<string, Endpoint>> = Partial<Record<keyof G, Serving>>;

/** Where a code goes, read from a parsed body that has one. */
export const byDestination: LimitKey = (request) =>
  (request.body as { destination?: string } | undefined)?.destination ?? null;

/**
 * A phone number less its last four digits: SMS pumping walks a premium range one number at
 * a time, which only a limit on the range sees.
 */
export const byPhonePrefix: LimitKey = (request) => {
  const body = request.body as { channel?: string; destination?: string } | undefined;
  return body?.channel === 'phone' && body.destination ? body.destination.slice(0, -4) : null;
};

/** What a class counts per, from its name's ending; whether it needs the parsed body. */
function keyOf(name: LimitClass, serving: Serving): { key: LimitKey; body: boolean } {
  const own = serving.keys?.[name];
  if (own) return { key: own, body: true };
  if (name.endsWith('PerUser')) return { key: byUser, body: false };
  if (name.endsWith('PerAddress')) return { key: byAddress, body: false };
  if (name.endsWith('PerDestination')) return { key: byDestination, body: true };
  if (name.endsWith('PerPrefix')) return { key: byPhonePrefix, body: true };
  throw new Error(`rate-limit class ${name} needs a key of its own`);
}

/** Where endpoints go: the API's public scope, and the one behind a session. */
export interface Scopes {
  public: App;
  session: App;
  limits: RateLimiter;
}

/**
 * Registers one endpoint of the contract in the scope its `access` names: its schemas,
 * its rate-limit classes, its sensitivity and its docs. The classes are counted in their
 * order, before the body is read; when one counts by something in the request, all of
 * them wait until it is parsed and valid, so that a refusal by a narrower class (a pair
 * before its user) still spends nothing from the wider ones.
 */
export async function serve<E extends Endpoint>(
  scopes: Scopes,
  endpoint: E,
  handler: Handler<E>,
  serving: Serving = {},
): Promise<void> {
  const app = endpoint.access === 'session' ? scopes.session : scopes.public;
  const { limits } = scopes;
  const keyed = endpoint.limits.map((name) => ({ name, ...keyOf(name, serving) }));
  const limit = limitBy(
    limits,
    ...keyed.map(({ name, key }): [LimitClass, LimitKey] => [name, key]),
  );
  const afterParsing = keyed.some((entry) => entry.body);
  const { guard, mapError } = serving;
  const body = endpoint.body;
  const route = {
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      tags: [...endpoint.tags],
      summary: endpoint.summary,
      ...(endpoint.access === 'session' ? { security: [{ bearer: [] }] } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(body === 'multipart'
        ? { consumes: ['multipart/form-data'] }
        : body && body !== 'bytes'
          ? { body: withPlaceChecks(body) }
          : {}),
      ...(endpoint.result === 'bytes'
        ? {}
        : {
            response:
              endpoint.result === null
                ? { 204: z.null().describe('No content') }
                : { 200: endpoint.result },
          }),
    },
    ...(serving.raw ? { compress: false as const, decompress: false as const } : {}),
    onRequest: [...(guard ? [guard] : []), ...(afterParsing ? [] : [limit])],
    ...(afterParsing ? { preHandler: limit } : {}),
    ...(mapError
      ? {
          errorHandler: (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
            const known = toAppError(error);
            return handleError(known ? mapError(known) : error, request, reply);
          },
        }
      : {}),
    config: endpoint.sensitive ? { sensitive: endpoint.sensitive } : {},
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await handler({
        params: request.params,
        query: request.query,
        body: request.body,
        auth: endpoint.access === 'session' ? authOf(request) : null,
        client: clientOf(request),
        language: languageOf(request),
        request,
        reply,
      } as Call<E>);
      if (endpoint.result === null) return reply.code(204).send(null);
      return result;
    },
  };
  if (body === 'multipart') {
    // The parser is registered for this route only, so JSON routes refuse form uploads (415).
    await app.register(async (scope: App) => {
      await scope.register(multipart, serving.multipart ?? {});
      scope.route(route);
    });
    return;
  }
  if (body === 'bytes' && !serving.raw) throw new Error(`${endpoint.path}: no raw content types`);
  const raw = serving.raw;
  if (raw) {
    // As for multipart: other routes keep refusing these types (415).
    await app.register((scope: App, _options, done: () => void) => {
      scope.addContentTypeParser([...raw.contentTypes], (_request, _payload, parsed) =>
        parsed(null),
      );
      scope.route(route);
      done();
    });
    return;
  }
  app.route(route);
}

/** Registers a group of endpoints, each with its handler (and what the server adds). */
export async function serveAll<G extends Record<string, Endpoint>>(
  scopes: Scopes,
  group: G,
  handlers: Handlers<G>,
  serving: Servings<G> = {},
): Promise<void> {
  for (const name of Object.keys(group) as (keyof G)[]) {
    await serve(scopes, group[name]!, handlers[name], serving[name]);
  }
}
