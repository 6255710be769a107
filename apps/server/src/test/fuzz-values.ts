import fc from 'fast-check';
import { alternatives, type JsonSchema, RawJson, typeOf } from './fuzz-schema.js';

/** The bad values the fuzz suites try: nasty text and numbers, wrong types, huge inputs, probes. */

const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud800b', '\udc00\ud800'];

/** Text that has broken servers before: control characters, bidi, odd Unicode, injections. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '   ',
  '\u0000',
  'a\u0000b',
  ...LONE_SURROGATES,
  '\u202eevil\u202c',
  '\u200f\u0645\u0631\u062d\u0628\u0627',
  'مرحبا بالعالم',
  'שלום עולם',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈'.repeat(40),
  `e${'\u0301'.repeat(300)}`,
  '\ufeff',
  '\u200b\u200c\u200d',
  '\r\n\t\v\f',
  'Ａ１＠ｅｘａｍｐｌｅ．ｃｏｍ',
  'İıßﬃ',
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%s%n%x',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '\\',
  '\u0085\u2028\u2029',
];

/** Numbers at the edges of JavaScript, SQL integer columns and JSON. */
export const NASTY_NUMBERS: readonly unknown[] = [
  -1,
  0,
  0.5,
  -0.5,
  1.5,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  1e308,
  -1e308,
  5e-324,
  new RawJson('-0'),
  new RawJson('1e999'),
  new RawJson('-1e999'),
  new RawJson('123456789012345678901234567890'),
  new RawJson('1.0'),
  new RawJson('1E2'),
];

/** Numbers written as strings, as a query string or a careless client sends them. */
export const NUMBER_STRINGS: readonly string[] = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '0x10',
  '0b11',
  '1e3',
  ' 1 ',
  '-0',
  '+1',
  '1.',
  '.5',
  '9007199254740993',
  '99999999999999999999',
  '1,5',
  '١٢٣',
  '1_000',
];

export const WRONG_TYPES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  '',
  'x',
  [],
  {},
  [null],
  { a: 1 },
  '0',
  'true',
];

function nested(depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = wrap(value);
  return value;
}

/** Huge strings and structures: over every field limit, and over the body limit too. */
const HUGE: fc.Arbitrary<unknown> = fc.constantFrom(
  'a'.repeat(10_000),
  'a'.repeat(65_000),
  'a'.repeat(70_000),
  '😀'.repeat(20_000),
  '\u0000'.repeat(5_000),
  Array.from({ length: 5_000 }, (_, i) => i),
  nested(2_000, 1, (inner) => [inner]),
  nested(1_000, 'x', (inner) => ({ a: inner })),
);

export const NASTY: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...WRONG_TYPES) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom(...NUMBER_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: HUGE },
);

/** Keys no schema has, some of them dangerous to code that copies objects. */
export const EXTRA_KEYS = [
  'extra',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  '\u0000',
  'id',
  'userId',
  'role',
  'official',
  'owner_id',
  'a'.repeat(1_000),
];

/**
 * Values put in each text and number field of an otherwise valid request in turn: each
 * kind once, so the suite does not depend on drawing them by chance.
 */
export const TEXT_PROBES: readonly string[] = [
  // In words, so that language detection and translation handle them too.
  'Good morning,\u0000 shall we meet at the station today?',
  'Good morning,\ud800 shall we meet at the station today?',
  '\u202eabc',
  '👨‍👩‍👧‍👦',
  `e${'\u0301'.repeat(20)}`,
];
export const NUMBER_PROBES: readonly unknown[] = [
  -1,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  Number.MAX_SAFE_INTEGER,
  1.5,
  new RawJson('1e999'),
];

/** The probes for a place of this schema, or none if it holds no text or number. */
export function probesFor(schema: JsonSchema): readonly unknown[] {
  const types = new Set(alternatives(schema).map(typeOf));
  if (types.has('string')) return TEXT_PROBES;
  if (types.has('integer') || types.has('number')) return NUMBER_PROBES;
  return [];
}
