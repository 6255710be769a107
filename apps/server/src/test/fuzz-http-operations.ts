import type { InjectOptions } from 'fastify';
import { type JsonSchema, type RegisteredRoute, registeredRoutes } from './fuzz.js';
import { createTestApp } from './harness.js';

/** The operations the HTTP fuzz walks: the OpenAPI document's, and the routes it leaves out. */

/**
 * Routes not in the document, each with why. The suite fails on any other route the
 * document does not have: the fuzzer would not reach it. `below` covers the paths that
 * start with `path` too.
 */
const HIDDEN_ROUTES: { method: string; path: string; below?: true; reason: string }[] = [
  { method: 'GET', path: '/openapi.json', reason: 'the document itself' },
  {
    method: 'GET',
    path: '/docs',
    below: true,
    reason: 'Swagger UI pages and its copies of the document',
  },
  { method: 'GET', path: '/dev/outbox', reason: 'the HTML page of the documented JSON outbox' },
  { method: 'GET', path: '/ws', reason: 'the socket upgrade, fuzzed by fuzz-socket.test.ts' },
  { method: 'GET', path: '/files/*', reason: 'stored files, served from disk' },
  {
    method: 'HEAD',
    path: '/api/v1/uploads/:id',
    reason:
      'the tus offset check: no body either way (tried by the permission matrix and media tests)',
  },
  { method: 'GET', path: '/', reason: 'the web app (or the note that it is not built)' },
  {
    method: 'GET',
    path: '/home',
    reason: "the landing site: to the page in the browser's language",
  },
  { method: 'GET', path: '/home/*', reason: "the landing site's prerendered pages" },
  { method: 'GET', path: '/home/download/:platform', reason: 'the app download links (config)' },
  {
    method: 'POST',
    path: '/home/cooperate',
    reason: "the landing site's HTML form (URL-encoded, not JSON), fuzzed below",
  },
  { method: 'GET', path: '/*', reason: 'the web app files, when built' },
];

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** `POST /api/v1/groups/{id}/join` */
  key: string;
  method: string;
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  body: JsonSchema | null;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: (Parameter & { in: string })[];
        requestBody?: { content?: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
}

/** The document and the routes of an app as the tests build it. */
export async function readApp(): Promise<{ doc: OpenApiDocument; routes: RegisteredRoute[] }> {
  const t = await createTestApp();
  try {
    return {
      doc: t.app.swagger() as unknown as OpenApiDocument,
      routes: registeredRoutes(t.app.printRoutes()),
    };
  } finally {
    await t.close();
  }
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const of = (where: string) =>
        parameters
          .filter((parameter) => parameter.in === where)
          .map(({ name, required, schema }) => ({ name, required, schema }));
      return {
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: of('path'),
        query: of('query'),
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
      };
    }),
  );
}

/** `/groups/{id}` as the router writes it, `/groups/:id`. */
export const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

export function isHidden(route: RegisteredRoute): boolean {
  return HIDDEN_ROUTES.some(
    (hidden) =>
      hidden.method === route.method &&
      (hidden.path === route.path || (hidden.below && route.path.startsWith(`${hidden.path}/`))),
  );
}

// ------------------------------------------------------------------------- requests

export interface FuzzRequest {
  method: InjectOptions['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}
