import fc from 'fast-check';

/** JSON schemas as the fuzz generators read them, and how values are written into requests. */

/** The part of JSON Schema (and OpenAPI 3.0's `nullable`) the generators understand. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  nullable?: boolean;
  default?: unknown;
  /** Every pattern of a merged `allOf` (JSON Schema allows one `pattern` per schema). */
  patterns?: string[];
}

/** Values of the data a test owns (ids, numbers, codes), used where they fit a schema. */
export interface ValuePool {
  strings: readonly string[];
  numbers: readonly number[];
  /**
   * Values that pass a field's checks beyond its schema (a known country, a real code),
   * by field or parameter name; they make whole valid requests likely, so the fuzzer
   * gets past validation into the services.
   */
  named: Readonly<Record<string, readonly unknown[]>>;
}

/** A JSON token written into a body as is: numbers JSON can carry and JavaScript cannot. */
export class RawJson {
  constructor(readonly text: string) {}
}

const RAW_MARK = '\u0001raw';

/** JSON text of a generated value, with its RawJson tokens written raw. */
export function toJson(value: unknown): string {
  const tokens: string[] = [];
  const text = JSON.stringify(value, (_key, inner: unknown) =>
    inner instanceof RawJson ? `${RAW_MARK}${tokens.push(inner.text) - 1}${RAW_MARK}` : inner,
  );
  return text.replace(/"\\u0001raw(\d+)\\u0001raw"/g, (_whole, index: string) => tokens[+index]!);
}

/** A value as text in a URL: objects and lists as JSON. */
export function toText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return '';
    default:
      return value instanceof RawJson ? value.text : toJson(value);
  }
}

/**
 * Percent-encodes every byte but the unreserved ones. Unlike encodeURIComponent it takes
 * lone surrogates (as U+FFFD, which is what a client's UTF-8 encoder sends).
 */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Sets a property as an own, enumerable one, even `__proto__`. */
export function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

export function typeOf(schema: JsonSchema): string | undefined {
  const { type } = schema;
  if (Array.isArray(type)) return type.find((t) => t !== 'null');
  if (type) return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

export function patternsOf(schema: JsonSchema): string[] {
  return [...(schema.patterns ?? []), ...(schema.pattern ? [schema.pattern] : [])];
}

const maxOf = (a?: number, b?: number) =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);
const minOf = (a?: number, b?: number) =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);

function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  const properties = a.properties || b.properties ? { ...a.properties } : undefined;
  for (const [key, schema] of Object.entries(b.properties ?? {})) {
    properties![key] = properties![key] ? { allOf: [properties![key], schema] } : schema;
  }
  const patterns = [...patternsOf(a), ...patternsOf(b)];
  return {
    ...a,
    ...b,
    type: a.type ?? b.type,
    enum: a.enum ?? b.enum,
    ...(properties ? { properties } : {}),
    required: [...new Set([...(a.required ?? []), ...(b.required ?? [])])],
    pattern: undefined,
    patterns,
    minLength: maxOf(a.minLength, b.minLength),
    maxLength: minOf(a.maxLength, b.maxLength),
    minimum: maxOf(a.minimum, b.minimum),
    maximum: minOf(a.maximum, b.maximum),
    minItems: maxOf(a.minItems, b.minItems),
    maxItems: minOf(a.maxItems, b.maxItems),
  };
}

/** The plain schemas (no allOf, oneOf, anyOf) a value of `schema` may follow. */
export function alternatives(schema: JsonSchema): JsonSchema[] {
  const { allOf, oneOf, anyOf, ...rest } = schema;
  const union = oneOf ?? anyOf;
  let alts: JsonSchema[] = union
    ? union.flatMap((branch) => alternatives(branch)).map((branch) => merge(rest, branch))
    : [rest];
  for (const part of allOf ?? []) {
    const partAlts = alternatives(part);
    alts = alts.flatMap((alt) => partAlts.map((other) => merge(alt, other)));
  }
  return alts;
}

export function lowerBound(schema: JsonSchema): number | undefined {
  const { minimum, exclusiveMinimum } = schema;
  if (typeof exclusiveMinimum === 'number') return exclusiveMinimum + 1;
  return minimum === undefined ? undefined : exclusiveMinimum === true ? minimum + 1 : minimum;
}

export function upperBound(schema: JsonSchema): number | undefined {
  const { maximum, exclusiveMaximum } = schema;
  if (typeof exclusiveMaximum === 'number') return exclusiveMaximum - 1;
  return maximum === undefined ? undefined : exclusiveMaximum === true ? maximum - 1 : maximum;
}

const regexes = new Map<string, RegExp>();

/** A schema's pattern as a RegExp: JSON Schema patterns are ECMA-262, Unicode-aware. */
function regexOf(pattern: string): RegExp {
  let regex = regexes.get(pattern);
  if (!regex) {
    try {
      regex = new RegExp(pattern, 'u');
    } catch {
      regex = new RegExp(pattern);
    }
    regexes.set(pattern, regex);
  }
  return regex;
}

/** Strings matching a pattern, or any strings if fast-check cannot read the pattern. */
export function matching(pattern: string): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(regexOf(pattern));
  } catch {
    return fc.string();
  }
}

/** Whether a value follows a schema, as far as these generators need to know. */
export function satisfies(schema: JsonSchema, value: unknown): boolean {
  return alternatives(schema).some((alt) => satisfiesPlain(alt, value));
}

export function satisfiesPlain(schema: JsonSchema, value: unknown): boolean {
  if (value === null) return schema.nullable === true || schema.type === 'null';
  if ('const' in schema && schema.const !== value) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  switch (typeOf(schema)) {
    case 'string': {
      if (typeof value !== 'string') return false;
      if (schema.minLength !== undefined && value.length < schema.minLength) return false;
      if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
      return patternsOf(schema).every((pattern) => regexOf(pattern).test(value));
    }
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
      if (typeOf(schema) === 'integer' && !Number.isSafeInteger(value)) return false;
      const low = lowerBound(schema);
      const high = upperBound(schema);
      return (low === undefined || value >= low) && (high === undefined || value <= high);
    }
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return (
        Array.isArray(value) &&
        (schema.minItems === undefined || value.length >= schema.minItems) &&
        (schema.maxItems === undefined || value.length <= schema.maxItems) &&
        value.every((item) => !schema.items || satisfies(schema.items, item))
      );
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return false;
      const record = value as Record<string, unknown>;
      const properties = schema.properties ?? {};
      if ((schema.required ?? []).some((key) => !Object.hasOwn(record, key))) return false;
      return Object.entries(record).every(([key, inner]) =>
        properties[key] ? satisfies(properties[key], inner) : schema.additionalProperties !== false,
      );
    }
    default:
      return true;
  }
}
