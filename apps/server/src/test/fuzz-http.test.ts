import {
  AVATAR_MAX_BYTES,
  ERRORS,
  JSON_BODY_LIMIT_BYTES,
  isErrorCode,
  type ErrorBody,
} from '@teltlk/protocol';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeProvider } from './fake-provider.js';
import { MemorySfu } from './fake-sfu.js';
import { DbWatch } from './db-digest.js';
import {
  Inputs,
  NASTY_STRINGS,
  percentEncode,
  probesFor,
  registeredRoutes,
  seedFor,
  toJson,
  toText,
  type JsonSchema,
  type RegisteredRoute,
} from './fuzz.js';
import { warningLog, FuzzWorld, WRITTEN_BY_REFUSALS, type Caller } from './fuzz-world.js';
import { createTestApp, dialects, randomIp, type TestApp } from './harness.js';
import type { RunningPiSandbox } from '@teltlk/pi-sandbox';
import { piEnv, startClockedSandbox } from './pi-sandbox.js';

/**
 * Walks every operation of the OpenAPI document with generated inputs (valid-looking,
 * at and past each bound, of the wrong type, huge, odd Unicode, missing and extra
 * fields) and raw bodies (broken JSON, other content types, over the body limit), as
 * the owner of some data, as others and as nobody. Every answer must be below 500, every
 * refusal a known error in the `{ error: { code, message } }` shape, and a refusal must
 * leave the database as it was. FUZZ_SEED and FUZZ_RUNS replay or widen a run.
 */

// Test knobs, read here like the harness reads TEST_DATABASE_URL; they do not configure the server.
const SEED = Number(process.env.FUZZ_SEED ?? 0x7e17);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

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

interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

interface Operation {
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
async function readApp(): Promise<{ doc: OpenApiDocument; routes: RegisteredRoute[] }> {
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

function operationsOf(doc: OpenApiDocument): Operation[] {
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

const { doc, routes } = await readApp();
const operations = operationsOf(doc);

/** `/groups/{id}` as the router writes it, `/groups/:id`. */
const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function isHidden(route: RegisteredRoute): boolean {
  return HIDDEN_ROUTES.some(
    (hidden) =>
      hidden.method === route.method &&
      (hidden.path === route.path || (hidden.below && route.path.startsWith(`${hidden.path}/`))),
  );
}

// ------------------------------------------------------------------------- requests

interface FuzzRequest {
  method: InjectOptions['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const JSON_TYPE = 'application/json';
/** Segments that are not a value at all: dot segments, broken or dangerous escapes, huge. */
const RAW_SEGMENTS = [
  '.',
  '..',
  '%2e%2e',
  '%2F',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%ff',
  'a'.repeat(5_000),
];
/** Query text no encoder writes. */
const RAW_QUERIES = [
  '%',
  '%zz',
  '%E0%A4%A',
  '&&&',
  '=x',
  'a[b]=1&a[c]=2',
  '__proto__[x]=1',
  `q=${'a'.repeat(20_000)}`,
];
/** Authorization headers that carry no usable token. */
const BAD_AUTHORIZATION = [
  'Bearer',
  'Bearer ',
  'Bearer x',
  `Bearer ${'a'.repeat(129)}`,
  'Basic dXNlcjpwYXNzd29yZA==',
  'Bearer ../../etc/passwd',
  'Bearer é',
];

interface FuzzCase {
  caller: Caller;
  badAuthorization: string | null;
  params: Record<string, string>;
  query: Record<string, unknown>;
  rawQuery: string | null;
  /** The JSON body; undefined: no body at all. */
  body: unknown;
}

/** A path parameter is named after the collection before it: `groups.id`, `members.userId`. */
function parameterName(op: Operation, p: Parameter): string {
  const segments = op.path.split('/');
  const at = segments.indexOf(`{${p.name}}`);
  return at > 0 ? `${segments[at - 1]}.${p.name}` : p.name;
}

function caseArbitrary(op: Operation, inputs: Inputs): fc.Arbitrary<FuzzCase> {
  const record = (parameters: Parameter[], of: (p: Parameter) => fc.Arbitrary<unknown>) =>
    fc.record(Object.fromEntries(parameters.map((p) => [p.name, of(p)])), {
      requiredKeys: parameters.filter((p) => p.required).map((p) => p.name),
    });
  const segment = (p: Parameter): fc.Arbitrary<string> =>
    fc.oneof(
      {
        weight: 12,
        arbitrary: inputs
          .parameter(p.schema, parameterName(op, p))
          .map((v) => percentEncode(toText(v))),
      },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    );
  const noBody = fc.constant(undefined);
  return fc.record({
    caller: fc.oneof(
      { weight: 10, arbitrary: fc.constant<Caller>('owner') },
      { weight: 1, arbitrary: fc.constantFrom<Caller>('friend', 'stranger', 'revoked', 'none') },
    ),
    badAuthorization: fc.oneof(
      { weight: 20, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom(...BAD_AUTHORIZATION) },
    ),
    params: record(op.pathParams, segment) as fc.Arbitrary<Record<string, string>>,
    query: fc.oneof(
      { weight: 8, arbitrary: record(op.query, (p) => inputs.parameter(p.schema, p.name)) },
      // Every parameter, even optional ones, and one the operation does not know.
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.record(
              Object.fromEntries(op.query.map((p) => [p.name, inputs.parameter(p.schema, p.name)])),
            ),
            fc.constantFrom(...NASTY_STRINGS),
          )
          .map(([query, extra]) => ({ ...query, unknown: extra })),
      },
    ),
    rawQuery: fc.oneof(
      { weight: 10, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) },
    ),
    body: op.body
      ? fc.oneof({ weight: 15, arbitrary: inputs.value(op.body) }, { weight: 1, arbitrary: noBody })
      : fc.oneof(
          { weight: 6, arbitrary: noBody },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
        ),
  });
}

/** A valid-looking request of the owner's, its values taken from the pool where it has some. */
function exampleOf(op: Operation, examples: Inputs, seed: number): FuzzCase {
  const sample = (arbitrary: fc.Arbitrary<unknown>) =>
    fc.sample(arbitrary, { seed, numRuns: 1 })[0];
  return {
    caller: 'owner',
    badAuthorization: null,
    params: Object.fromEntries(
      op.pathParams.map((p) => [
        p.name,
        percentEncode(toText(sample(examples.valid(p.schema, parameterName(op, p))))),
      ]),
    ),
    query: Object.fromEntries(
      op.query
        .filter((p) => p.required)
        .map((p) => [p.name, sample(examples.valid(p.schema, p.name))]),
    ),
    rawQuery: null,
    body: op.body ? sample(examples.valid(op.body)) : undefined,
  };
}

/** The example with each probe in each text and number place, one at a time. */
function* probed(op: Operation, examples: Inputs, seed: number): Generator<FuzzCase> {
  const example = exampleOf(op, examples, seed);
  for (const p of op.pathParams) {
    for (const probe of probesFor(p.schema)) {
      yield { ...example, params: { ...example.params, [p.name]: percentEncode(toText(probe)) } };
    }
  }
  for (const p of op.query) {
    for (const probe of probesFor(p.schema)) {
      yield { ...example, query: { ...example.query, [p.name]: probe } };
    }
  }
  if (!op.body) return;
  for (const body of examples.probes(op.body, seed)) yield { ...example, body };
}

function urlOf(
  op: Operation,
  params: Record<string, string>,
  query: Record<string, unknown>,
  rawQuery: string | null,
): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_whole, name: string) => params[name] ?? '');
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      parts.push(`${percentEncode(name)}=${percentEncode(toText(item))}`);
    }
  }
  if (rawQuery) parts.push(rawQuery);
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

function requestOf(op: Operation, world: FuzzWorld, c: FuzzCase): FuzzRequest {
  const headers: Record<string, string> = {};
  const token = world.token(c.caller);
  if (c.badAuthorization) headers.authorization = c.badAuthorization;
  else if (token) headers.authorization = `Bearer ${token}`;
  const request: FuzzRequest = {
    method: op.method as InjectOptions['method'],
    url: urlOf(op, c.params, c.query, c.rawQuery),
    headers,
  };
  if (c.body !== undefined) {
    headers['content-type'] = JSON_TYPE;
    request.payload = toJson(c.body);
  }
  return request;
}

// ------------------------------------------------------------------------- raw bodies

const MULTIPART = 'multipart/form-data; boundary=fuzz';
function multipart(parts: { name: string; filename?: string; data: Buffer | string }[]): Buffer {
  const chunks = parts.flatMap(({ name, filename, data }) => [
    Buffer.from(
      `--fuzz\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n` +
        `Content-Type: ${filename ? 'application/octet-stream' : 'text/plain'}\r\n\r\n`,
    ),
    Buffer.isBuffer(data) ? data : Buffer.from(data),
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...chunks, Buffer.from('--fuzz--\r\n')]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Bodies no JSON encoder writes, each under its content type. */
const RAW_BODIES: { name: string; type?: string; payload: string | Buffer }[] = [
  { name: 'cut-off JSON', type: JSON_TYPE, payload: '{"a":' },
  { name: 'empty JSON body', type: JSON_TYPE, payload: '' },
  { name: 'JSON null', type: JSON_TYPE, payload: 'null' },
  { name: 'JSON string', type: JSON_TYPE, payload: '"x"' },
  { name: 'prototype poisoning', type: JSON_TYPE, payload: '{"__proto__":{"admin":true}}' },
  {
    name: 'constructor poisoning',
    type: JSON_TYPE,
    payload: '{"constructor":{"prototype":{"admin":true}}}',
  },
  {
    name: 'invalid UTF-8',
    type: JSON_TYPE,
    payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
  },
  { name: 'byte order mark', type: JSON_TYPE, payload: '\ufeff{}' },
  {
    name: 'UTF-16 JSON',
    type: 'application/json; charset=utf-16',
    payload: Buffer.from('{}', 'utf16le'),
  },
  {
    name: 'over the body limit',
    type: JSON_TYPE,
    payload: `{"a":"${'a'.repeat(JSON_BODY_LIMIT_BYTES)}"}`,
  },
  { name: 'deep nesting', type: JSON_TYPE, payload: `${'['.repeat(20_000)}${']'.repeat(20_000)}` },
  { name: 'plain text', type: 'text/plain', payload: '{}' },
  { name: 'form', type: 'application/x-www-form-urlencoded', payload: 'a=1&b=2' },
  {
    name: 'XML',
    type: 'application/xml',
    payload:
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  },
  { name: 'no content type', payload: '{}' },
  { name: 'odd content type', type: 'application/json;;;charset=', payload: '{}' },
  { name: 'multipart without boundary', type: 'multipart/form-data', payload: '--x\r\n' },
  {
    name: 'cut-off multipart',
    type: MULTIPART,
    payload:
      '--fuzz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
  },
  {
    name: 'multipart, not an image',
    type: MULTIPART,
    payload: multipart([{ name: 'file', filename: 'a.png', data: 'not an image' }]),
  },
  {
    name: 'multipart, empty file',
    type: MULTIPART,
    payload: multipart([{ name: 'file', filename: 'a.png', data: '' }]),
  },
  {
    name: 'multipart, cut-off PNG',
    type: MULTIPART,
    payload: multipart([
      { name: 'file', filename: 'a.png', data: Buffer.concat([PNG_SIGNATURE, Buffer.alloc(40)]) },
    ]),
  },
  {
    name: 'multipart, SVG with a script',
    type: MULTIPART,
    payload: multipart([
      {
        name: 'file',
        filename: 'a.svg',
        data: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      },
    ]),
  },
  {
    name: 'multipart, two files',
    type: MULTIPART,
    payload: multipart([
      { name: 'file', filename: 'a', data: 'x' },
      { name: 'file', filename: 'b', data: 'y' },
    ]),
  },
  {
    name: 'multipart, other field',
    type: MULTIPART,
    payload: multipart([{ name: 'other', data: 'x' }]),
  },
  {
    name: 'multipart, many fields',
    type: MULTIPART,
    payload: multipart(Array.from({ length: 50 }, (_, i) => ({ name: `f${i}`, data: 'x' }))),
  },
];

/** Only for routes that take uploads: bigger than any upload may be. */
const HUGE_UPLOAD = multipart([
  {
    name: 'file',
    filename: 'a.png',
    data: Buffer.concat([PNG_SIGNATURE, Buffer.alloc(AVATAR_MAX_BYTES)]),
  },
]);

// ------------------------------------------------------------------------- checks

const describeRequest = (request: FuzzRequest, response: LightMyRequestResponse) => {
  const payload = request.payload === undefined ? '' : String(request.payload);
  const clip = (text: string) =>
    text.length > 500 ? `${text.slice(0, 500)}… (${text.length} chars)` : text;
  return `${request.method} ${clip(request.url)}\n  headers: ${JSON.stringify(request.headers)}\n  body: ${clip(payload)}\n  -> ${response.statusCode} ${clip(response.body)}`;
};

/** A refusal: JSON `{ error: { code, message } }` with a known code and its own status. */
function expectErrorShape(response: LightMyRequestResponse, what: string): void {
  expect(String(response.headers['content-type']), what).toMatch(/^application\/json/);
  const body = response.json<{ error?: Record<string, unknown> }>();
  expect(Object.keys(body), what).toEqual(['error']);
  const error = body.error!;
  expect(isErrorCode(error.code), what).toBe(true);
  expect(ERRORS[error.code as keyof typeof ERRORS].status, what).toBe(response.statusCode);
  expect(typeof error.message === 'string' && error.message.length > 0, what).toBe(true);
  expect(
    Object.keys(error).filter((key) => !['code', 'message', 'params', 'issues'].includes(key)),
    what,
  ).toEqual([]);
}

/**
 * Answers that come before an operation's own handler: the request could not be read or
 * validated, or nobody was signed in. An operation whose every answer is one of these was
 * never reached; see FuzzWorld for the values that get requests through.
 */
const EDGE_ANSWERS = new Set([
  'VALIDATION_FAILED',
  'MALFORMED_REQUEST',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHENTICATED',
  'TOKEN_EXPIRED',
  'RATE_LIMITED',
]);

/** Sends requests and checks each answer, and that refusals wrote nothing. */
class Checker {
  private readonly watch: DbWatch;
  private ready = false;
  /** Answers that came from past the edge: a success or an error of the operation's own. */
  reached = 0;
  /** Whether a request other than a read was accepted, and may have changed the world. */
  changedWorld = false;

  constructor(
    private readonly t: TestApp,
    private readonly world: FuzzWorld,
    private readonly logged: string[],
  ) {
    this.watch = new DbWatch(t.ctx.db, t.ctx.dialect, WRITTEN_BY_REFUSALS);
  }

  async run(request: FuzzRequest): Promise<LightMyRequestResponse> {
    if (!this.ready) await this.watch.reset();
    this.ready = true;
    const response = await this.t.app.inject({ ...request, remoteAddress: randomIp() });
    // Work a request started (translations) is done before the database is compared.
    await this.t.ctx.services.translations.drain();
    const changes = await this.watch.changes();
    const logged = this.logged.splice(0);
    const what = describeRequest(request, response);
    expect(response.statusCode, what).toBeLessThan(500);
    expect(logged.length, `logged:\n${logged.join('\n')}\n${what}`).toBe(0);
    if (response.statusCode < 400) {
      this.reached += 1;
      if (request.method !== 'GET' && request.method !== 'HEAD') this.changedWorld = true;
      // Only an accepted request can have ended a session.
      if (await this.world.keepSignedIn()) this.ready = false;
      return response;
    }
    if (request.method === 'HEAD') return response;
    // The landing site's own refusals are pages for people (HTML), the rest is the API's.
    const page =
      /^\/home(\/|$)/.test(request.url) &&
      /^text\/html/.test(String(response.headers['content-type']));
    if (page) this.reached += 1;
    else {
      expectErrorShape(response, what);
      if (!EDGE_ANSWERS.has(response.json<ErrorBody>().error.code)) this.reached += 1;
    }
    expect(
      changes.length,
      `refused, yet the database changed:\n${changes.join('\n')}\n${what}`,
    ).toBe(0);
    return response;
  }
}

// ------------------------------------------------------------------------- suites

describe('the fuzzer reaches every route', () => {
  it('finds operations in the document', () => {
    expect(operations.length).toBeGreaterThan(10);
  });

  it('has every route in the document or listed as hidden with a reason', () => {
    const documented = new Set(operations.map((op) => `${op.method} ${routerPath(op.path)}`));
    const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.path));
    const unreached = routes
      // Fastify answers HEAD for every GET by itself.
      .filter((route) => !(route.method === 'HEAD' && gets.has(route.path)))
      .filter((route) => !documented.has(`${route.method} ${route.path}`) && !isHidden(route))
      .map((route) => `${route.method} ${route.path}`);
    expect(unreached).toEqual([]);
  });
});

describe.each(dialects)('HTTP fuzz on $dialect', ({ dialect }) => {
  let t: TestApp;
  const logged: string[] = [];

  // Pi's Platform API, played locally: Pi's routes run as they would against Pi.
  let pi: RunningPiSandbox | undefined;

  beforeAll(async () => {
    const started = await startClockedSandbox();
    pi = started.sandbox;
    t = await createTestApp({
      dialect,
      logger: warningLog(logged),
      translationProviders: [new FakeProvider()],
      env: piEnv(pi),
      // Group calls' rooms: without an SFU their route answers 503 by design.
      sfu: new MemorySfu(),
    });
    started.clock.use(t.clock);
  });
  afterAll(async () => {
    await t?.close();
    await pi?.close();
  });

  // A world is used again by the next operation if nothing but reads were accepted in it.
  let shared: FuzzWorld | null = null;

  it.each(operations)('$key', async (op) => {
    const world = (shared ??= await FuzzWorld.create(t));
    const checker = new Checker(t, world, logged);
    const seed = seedFor(SEED, op.key);
    // Probes first, while the world is whole: each text and number place of a valid request.
    const examples = new Inputs(world.pool, true);
    for (const c of probed(op, examples, seed)) await checker.run(requestOf(op, world, c));

    try {
      await fc.assert(
        fc.asyncProperty(caseArbitrary(op, new Inputs(world.pool)), async (c) => {
          await checker.run(requestOf(op, world, c));
        }),
        { seed, numRuns: RUNS, endOnFailure: true },
      );
    } catch (error) {
      throw new Error(`${op.key} failed (FUZZ_SEED=${SEED}, seed ${seed}):\n${String(error)}`, {
        cause: error,
      });
    }

    // Raw bodies on an otherwise valid-looking request of the owner's.
    const base = requestOf(op, world, { ...exampleOf(op, examples, seed), body: undefined });
    let takesUploads = false;
    for (const raw of RAW_BODIES) {
      const headers = { ...base.headers, ...(raw.type ? { 'content-type': raw.type } : {}) };
      const response = await checker.run({ ...base, headers, payload: raw.payload });
      if (raw.type === MULTIPART && response.statusCode !== ERRORS.UNSUPPORTED_MEDIA_TYPE.status) {
        takesUploads = true;
      }
    }
    if (takesUploads) {
      await checker.run({
        ...base,
        headers: { ...base.headers, 'content-type': MULTIPART },
        payload: HUGE_UPLOAD,
      });
    }
    // The same path with a method it does not have, and HEAD for a GET.
    const methods = new Set(
      operations.filter((other) => other.path === op.path).map((other) => other.method),
    );
    const other = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'].find((method) => !methods.has(method))!;
    await checker.run({ ...base, method: other as InjectOptions['method'] });
    if (op.method === 'GET') await checker.run({ ...base, method: 'HEAD' });

    if (checker.changedWorld) shared = null;
    expect(checker.reached, `no request got past validation to ${op.key}`).toBeGreaterThan(0);
  });

  it("the landing site's form, whatever its body", async () => {
    const checker = new Checker(t, (shared ??= await FuzzWorld.create(t)), logged);
    const form = 'application/x-www-form-urlencoded';
    const bodies = [
      '',
      'lang=en_US',
      'lang=xx&name=%ff&email=a&kind=nope&message=',
      `name=${'a'.repeat(200)}&email=a%40b.c&kind=media&message=hi`,
      'name=A&email=a%40b.c&kind=media&message=%00',
      'name[]=A&email=a%40b.c&kind=media&message=hi',
      '%%%&&&===',
      'x'.repeat(20_000),
    ];
    for (const payload of bodies) {
      await checker.run({
        method: 'POST',
        url: '/home/cooperate',
        headers: { 'content-type': form },
        payload,
      });
    }
    await checker.run({
      method: 'POST',
      url: '/home/cooperate',
      headers: { 'content-type': JSON_TYPE },
      payload: '{"name":"A"}',
    });
  });

  it('hidden routes and paths that are no route', async () => {
    const world = (shared ??= await FuzzWorld.create(t));
    const checker = new Checker(t, world, logged);
    const token = { authorization: `Bearer ${world.token('owner')}` };
    const urls = [
      '/openapi.json',
      '/openapi.json?x=%zz',
      '/docs',
      '/docs/',
      '/docs/json',
      '/docs/yaml',
      '/docs/static/%2e%2e/%2e%2e/package.json',
      '/docs/static/..%2f..%2fpackage.json',
      '/docs/static/%00',
      '/dev/outbox',
      '/dev/outbox?x=%3Cscript%3E',
      '/ws',
      '/files/',
      '/files/..%2f..%2fetc%2fpasswd',
      '/files/%2e%2e/%2e%2e/etc/passwd',
      '/files/.env',
      '/files/%00',
      '/files/a%ff',
      '/files/avatars/nothing.webp',
      '/',
      '/index.html',
      '/%ff',
      '/..%2f..%2fetc%2fpasswd',
      `/${'a'.repeat(10_000)}`,
      '/api',
      '/api/v1',
      '/api/v1/',
      '/api/v1/nothing',
      '/api/v2/me',
      '/api/v1/me/',
      '/api/v1//me',
      '/API/V1/ME',
      '/api/v1/me%00',
      '/api/v1/me?%',
      '/home',
      '/home/',
      '/home/en',
      '/home/zh-tw/privacy/',
      '/home/..%2f..%2fpackage.json',
      '/home/%2e%2e/%2e%2e/etc/passwd/',
      '/home/%00/',
      '/home/download/android',
      '/home/download/%ff',
      '/home/cooperate',
    ];
    for (const url of urls) {
      for (const method of ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'] as const) {
        await checker.run({ method, url, headers: {} });
        await checker.run({
          method,
          url,
          headers: { ...token, 'content-type': JSON_TYPE },
          payload: '{"a":1}',
        });
      }
    }
  });
});
