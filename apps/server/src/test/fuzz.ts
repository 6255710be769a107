import fc from 'fast-check';
import {
  alternatives,
  define,
  type JsonSchema,
  lowerBound,
  matching,
  patternsOf,
  satisfies,
  satisfiesPlain,
  typeOf,
  upperBound,
  type ValuePool,
} from './fuzz-schema.js';
import {
  EXTRA_KEYS,
  NASTY,
  NASTY_NUMBERS,
  NASTY_STRINGS,
  NUMBER_STRINGS,
  probesFor,
  WRONG_TYPES,
} from './fuzz-values.js';

/**
 * Inputs for the fuzz suites, built from JSON schemas (the OpenAPI document's, or a zod
 * schema's `z.toJSONSchema`): values that look valid, values at and past each bound, and
 * values of the wrong shape altogether.
 *
 * The schemas' reading is in fuzz-schema.ts, the bad values in fuzz-values.ts; the suites
 * import all of it from here.
 */
export * from './fuzz-schema.js';
export * from './fuzz-values.js';

// ------------------------------------------------------------------------- generators

/** Generators of one schema's values, drawing ids and numbers from the pool where they fit. */
export class Inputs {
  /** `examples`: valid values take a named pool value whenever there is one that fits. */
  constructor(
    private readonly pool: ValuePool,
    private readonly examples = false,
  ) {}

  /**
   * A value that follows the schema (or very nearly: patterns are hard to combine), most
   * often a named one of the pool's when `name` has any that fit.
   */
  valid(schema: JsonSchema, name?: string): fc.Arbitrary<unknown> {
    const alts = alternatives(schema).map((alt) => this.validPlain(alt, name));
    const any = alts.length === 1 ? alts[0]! : fc.oneof(...alts);
    // `groups.id` (a path parameter after its collection) falls back to `id`.
    const key = [name, name?.split('.').pop()].find(
      (candidate) => candidate !== undefined && Object.hasOwn(this.pool.named, candidate),
    );
    const named = (key ? this.pool.named[key]! : []).filter((value) => satisfies(schema, value));
    if (named.length === 0) return any;
    if (this.examples) return fc.constantFrom(...named);
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...named) },
      { weight: 1, arbitrary: any },
    );
  }

  /** A value that breaks the schema: at a bound, of another type, or just nasty. */
  invalid(schema: JsonSchema): fc.Arbitrary<unknown> {
    const specific = alternatives(schema).flatMap((alt) => this.violations(alt));
    return fc.oneof(
      { weight: 3, arbitrary: specific.length ? fc.oneof(...specific) : NASTY },
      { weight: 4, arbitrary: NASTY },
    );
  }

  /**
   * A whole value: mostly a valid one with one spot broken (a field wrong, missing or
   * extra), so the checks behind the first one are reached too; some all valid, some junk.
   */
  value(schema: JsonSchema): fc.Arbitrary<unknown> {
    return fc.oneof(
      { weight: 4, arbitrary: this.valid(schema) },
      { weight: 8, arbitrary: this.valid(schema).chain((value) => this.brokenAt(schema, value)) },
      { weight: 1, arbitrary: this.invalid(schema) },
    );
  }

  /** A parameter's value: valid-looking mostly, else broken. */
  parameter(schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
    return fc.oneof(
      { weight: 5, arbitrary: this.valid(schema, name) },
      { weight: 3, arbitrary: this.invalid(schema) },
    );
  }

  private fromPool(schema: JsonSchema, values: readonly unknown[]): fc.Arbitrary<unknown>[] {
    const fitting = values.filter((value) => satisfiesPlain(schema, value));
    return fitting.length ? [fc.constantFrom(...fitting)] : [];
  }

  private validPlain(schema: JsonSchema, name?: string): fc.Arbitrary<unknown> {
    const base = this.validOfType(schema, name);
    return schema.nullable
      ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: base })
      : base;
  }

  private validOfType(schema: JsonSchema, name?: string): fc.Arbitrary<unknown> {
    if ('const' in schema) return fc.constant(schema.const);
    if (schema.enum?.length) return fc.constantFrom(...schema.enum);
    switch (typeOf(schema)) {
      case 'string':
        return this.validString(schema);
      case 'integer':
      case 'number':
        return this.validNumber(schema);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const min = schema.minItems ?? 0;
        const max = Math.min(schema.maxItems ?? min + 4, min + 4);
        // Items take the list's name: `memberIds` holds user ids.
        const item = schema.items ? this.valid(schema.items, name) : fc.jsonValue({ maxDepth: 1 });
        const lists = [fc.array(item, { minLength: min, maxLength: max })];
        // The longest list allowed, when that is a sane number of items.
        if (schema.maxItems !== undefined && schema.maxItems <= 200) {
          lists.push(fc.array(item, { minLength: schema.maxItems, maxLength: schema.maxItems }));
        }
        return fc.oneof(...lists);
      }
      case 'object': {
        const properties = schema.properties ?? {};
        const model = Object.fromEntries(
          Object.entries(properties).map(([key, inner]) => [key, this.valid(inner, key)]),
        );
        // Examples have every field, so that each can be probed.
        const requiredKeys = this.examples
          ? Object.keys(properties)
          : (schema.required ?? []).filter((key) => key in properties);
        return fc.record(model, { requiredKeys });
      }
      default:
        return fc.oneof(fc.constantFrom(...this.pool.strings), fc.jsonValue({ maxDepth: 2 }));
    }
  }

  private validString(schema: JsonSchema): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? Math.max(min, 64);
    const patterns = patternsOf(schema);
    const options: fc.Arbitrary<string>[] = [];
    if (patterns.length) {
      options.push(
        fc
          .tuple(...patterns.map(matching))
          .map((parts) => parts.join('').padEnd(min, 'a').slice(0, max)),
      );
    } else {
      const upTo = Math.min(max, min + 20);
      options.push(
        fc.string({ minLength: min, maxLength: upTo, unit: 'grapheme-ascii' }),
        fc
          .string({ minLength: min, maxLength: upTo, unit: 'grapheme' })
          .map((s) => s.slice(0, max)),
        fc.constantFrom(
          'a'.repeat(max),
          'a'.repeat(Math.max(min, 1)).slice(0, max),
          // As long as allowed in UTF-16 units, in characters outside the BMP.
          '😀'.repeat(Math.floor(max / 2)).padEnd(min, 'a'),
        ),
      );
    }
    const pooled = this.fromPool(schema, this.pool.strings) as fc.Arbitrary<string>[];
    return fc.oneof(
      ...pooled.map((arbitrary) => ({ weight: 2 * options.length, arbitrary })),
      ...options.map((arbitrary) => ({ weight: 1, arbitrary })),
    );
  }

  private validNumber(schema: JsonSchema): fc.Arbitrary<unknown> {
    const integer = typeOf(schema) === 'integer';
    const low = lowerBound(schema) ?? -1_000;
    const high = upperBound(schema) ?? low + 1_000;
    const options = [...this.fromPool(schema, this.pool.numbers), fc.constantFrom(low, high)];
    const rangeHigh = Math.min(high, low + 10_000);
    if (integer && Math.ceil(low) <= Math.floor(rangeHigh)) {
      options.push(fc.integer({ min: Math.ceil(low), max: Math.floor(rangeHigh) }));
    } else if (!integer && low <= rangeHigh) {
      options.push(fc.double({ min: low, max: rangeHigh, noNaN: true }));
    }
    return fc.oneof(...options);
  }

  /** Values just outside this schema: past a bound, off a pattern or enum, another type. */
  private violations(schema: JsonSchema): fc.Arbitrary<unknown>[] {
    const out: fc.Arbitrary<unknown>[] = [];
    const type = typeOf(schema);
    if (schema.enum?.length) {
      const first = String(schema.enum[0]);
      out.push(fc.constantFrom(`${first} `, first.toUpperCase(), `${first}\u0000`, 'other'));
    }
    if (type === 'string') {
      const { minLength, maxLength } = schema;
      if (maxLength !== undefined) {
        out.push(
          fc.constantFrom(
            'a'.repeat(maxLength + 1),
            '😀'.repeat(Math.ceil((maxLength + 1) / 2)),
            ' '.repeat(maxLength + 1),
          ),
        );
      }
      if (minLength) out.push(fc.constant('a'.repeat(minLength - 1)));
      out.push(
        fc
          .tuple(
            this.validString(schema),
            fc.constantFrom('\u0000', ' ', '\n', '😀', '\ud800', '\u202e', 'x'.repeat(100)),
            fc.boolean(),
          )
          .map(([valid, extra, before]) => (before ? extra + valid : valid + extra)),
        fc.constantFrom(...NASTY_STRINGS),
        fc.constantFrom(...NASTY_NUMBERS),
      );
    }
    if (type === 'integer' || type === 'number') {
      const low = lowerBound(schema);
      const high = upperBound(schema);
      const edges: unknown[] = [...NASTY_NUMBERS, ...NUMBER_STRINGS];
      if (low !== undefined) edges.push(low - 1, low - 0.5, String(low));
      if (high !== undefined) edges.push(high + 1, high + 0.5, String(high));
      out.push(fc.constantFrom(...edges));
    }
    if (type === 'boolean') out.push(fc.constantFrom('true', 'false', 1, 0, 'yes', null));
    if (type === 'array') {
      const item = schema.items ?? {};
      const max = schema.maxItems;
      if (max !== undefined)
        out.push(fc.array(this.valid(item), { minLength: max + 1, maxLength: max + 3 }));
      if (schema.minItems) out.push(fc.constant([]));
      out.push(
        fc.array(this.invalid(item), { minLength: 1, maxLength: 3 }),
        // The same item over and over.
        this.valid(item).map((one) =>
          Array.from({ length: Math.min((max ?? 10) + 1, 1_000) }, () => one),
        ),
      );
    }
    if (type === 'object') out.push(fc.constantFrom(...WRONG_TYPES));
    return out;
  }

  /**
   * Valid values with each probe in each text and number place, one at a time (the first
   * item of a list standing for the others). Each starts from a fresh example, so that
   * keys that make a retry idempotent (a client message id) differ.
   */
  probes(schema: JsonSchema, seed: number): unknown[] {
    const example = (n: number) => fc.sample(this.valid(schema), { seed: seed + n, numRuns: 1 })[0];
    const base = example(0);
    return spotsOf(schema, base, [])
      .filter((spot) => !spot.path.some((step) => typeof step === 'number' && step > 0))
      .flatMap((spot) => probesFor(spot.schema).map((probe) => ({ path: spot.path, probe })))
      .map(({ path, probe }, index) => {
        const fresh = example(index + 1);
        return replaceAt(hasPath(fresh, path) ? fresh : base, path, probe);
      });
  }

  /** `value` with one spot broken: a field replaced, removed or added, or the whole of it. */
  brokenAt(schema: JsonSchema, value: unknown): fc.Arbitrary<unknown> {
    const spots = spotsOf(schema, value, []);
    return fc.constantFrom(...spots).chain((spot) => {
      const options: fc.Arbitrary<unknown>[] = [
        this.invalid(spot.schema).map((bad) => replaceAt(value, spot.path, bad)),
      ];
      if (spot.path.length && typeof spot.path.at(-1) === 'string') {
        options.push(fc.constant(removeAt(value, spot.path)));
      }
      if (spot.isObject) {
        options.push(
          fc
            .tuple(
              fc.constantFrom(...EXTRA_KEYS),
              fc.oneof(fc.constantFrom(...this.pool.strings), NASTY, fc.jsonValue({ maxDepth: 2 })),
            )
            .map(([key, extra]) => addAt(value, spot.path, key, extra)),
        );
      }
      return fc.oneof(...options);
    });
  }
}

export interface Spot {
  path: (string | number)[];
  schema: JsonSchema;
  isObject: boolean;
}

/** Every place in a valid value that can be broken, with the schema that holds there. */
export function spotsOf(schema: JsonSchema, value: unknown, path: (string | number)[]): Spot[] {
  const alt =
    alternatives(schema).find((a) => satisfiesPlain(a, value)) ?? alternatives(schema)[0]!;
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const spots: Spot[] = [{ path, schema, isObject }];
  if (isObject) {
    const properties = alt.properties ?? {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      spots.push(...spotsOf(properties[key] ?? {}, inner, [...path, key]));
    }
    // A missing field given a wrong value.
    for (const [key, inner] of Object.entries(properties)) {
      if (!Object.hasOwn(value, key))
        spots.push({ path: [...path, key], schema: inner, isObject: false });
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => spots.push(...spotsOf(alt.items ?? {}, item, [...path, index])));
  }
  return spots;
}

function hasPath(value: unknown, path: (string | number)[]): boolean {
  let at = value;
  for (const step of path.slice(0, -1)) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, step)) return false;
    at = (at as Record<string, unknown>)[step];
  }
  return at !== null && typeof at === 'object';
}

export function replaceAt(
  value: unknown,
  path: (string | number)[],
  replacement: unknown,
): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy: unknown[] = [...(value as unknown[])];
    copy[head as number] = replaceAt(copy[head as number], rest, replacement);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>))
    define(copy, key, inner);
  define(copy, String(head), replaceAt(copy[String(head)], rest, replacement));
  return copy;
}

function removeAt(value: unknown, path: (string | number)[]): unknown {
  const parentPath = path.slice(0, -1);
  const key = String(path.at(-1));
  const parent = parentPath.reduce<unknown>(
    (inner, step) => (inner as Record<string, unknown>)[step],
    value,
  ) as Record<string, unknown>;
  const without: Record<string, unknown> = {};
  for (const [k, inner] of Object.entries(parent)) if (k !== key) define(without, k, inner);
  return replaceAt(value, parentPath, without);
}

function addAt(value: unknown, path: (string | number)[], key: string, extra: unknown): unknown {
  const target = path.reduce<unknown>(
    (inner, step) => (inner as Record<string, unknown>)[step],
    value,
  );
  const copy: Record<string, unknown> = {};
  for (const [k, inner] of Object.entries(target as Record<string, unknown>))
    define(copy, k, inner);
  define(copy, key, extra);
  return replaceAt(value, path, copy);
}

/** A fixed seed per name, so adding an operation does not change the cases of the others. */
export function seedFor(base: number, name: string): number {
  let hash = base | 0;
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

// ------------------------------------------------------------------------- routes

export interface RegisteredRoute {
  method: string;
  /** find-my-way's form: `/groups/:id`, `/files/*`. */
  path: string;
}

/**
 * Every route of an app, read from `printRoutes()`: Fastify lists them only as a radix
 * tree, in which a route's path is its labels from the root down, joined.
 */
export function registeredRoutes(tree: string): RegisteredRoute[] {
  const labels: string[] = [];
  const routes: RegisteredRoute[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[└├]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    labels.length = match[1]!.length / 4;
    labels.push(match[2]!);
    for (const method of match[3]?.split(', ') ?? []) {
      routes.push({ method, path: labels.join('') });
    }
  }
  return routes;
}
