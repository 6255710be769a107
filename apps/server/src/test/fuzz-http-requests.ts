import { AVATAR_MAX_BYTES, ERRORS, isErrorCode, JSON_BODY_LIMIT_BYTES } from '@teltlk/protocol';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { FuzzRequest, Operation, Parameter } from './fuzz-http-operations.js';
import type { Caller, FuzzWorld } from './fuzz-world.js';
import { type Inputs, NASTY_STRINGS, percentEncode, probesFor, toJson, toText } from './fuzz.js';

/**
 * The requests the HTTP fuzz sends (generated cases, and raw inputs no encoder writes) and
 * the checks of an answer.
 */

export const JSON_TYPE = 'application/json';
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

export function caseArbitrary(op: Operation, inputs: Inputs): fc.Arbitrary<FuzzCase> {
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
export function exampleOf(op: Operation, examples: Inputs, seed: number): FuzzCase {
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
export function* probed(op: Operation, examples: Inputs, seed: number): Generator<FuzzCase> {
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

export function requestOf(op: Operation, world: FuzzWorld, c: FuzzCase): FuzzRequest {
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

export const MULTIPART = 'multipart/form-data; boundary=fuzz';
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
export const RAW_BODIES: { name: string; type?: string; payload: string | Buffer }[] = [
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
export const HUGE_UPLOAD = multipart([
  {
    name: 'file',
    filename: 'a.png',
    data: Buffer.concat([PNG_SIGNATURE, Buffer.alloc(AVATAR_MAX_BYTES)]),
  },
]);

// ------------------------------------------------------------------------- checks

export const describeRequest = (request: FuzzRequest, response: LightMyRequestResponse) => {
  const payload = request.payload === undefined ? '' : String(request.payload);
  const clip = (text: string) =>
    text.length > 500 ? `${text.slice(0, 500)}… (${text.length} chars)` : text;
  return `${request.method} ${clip(request.url)}\n  headers: ${JSON.stringify(request.headers)}\n  body: ${clip(payload)}\n  -> ${response.statusCode} ${clip(response.body)}`;
};

/** A refusal: JSON `{ error: { code, message } }` with a known code and its own status. */
export function expectErrorShape(response: LightMyRequestResponse, what: string): void {
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
export const EDGE_ANSWERS = new Set([
  'VALIDATION_FAILED',
  'MALFORMED_REQUEST',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHENTICATED',
  'TOKEN_EXPIRED',
  'RATE_LIMITED',
]);
