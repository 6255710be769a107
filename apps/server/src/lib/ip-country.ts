import { readFile } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { createRequire } from 'node:module';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import path from 'node:path';
import { ipv6Groups } from './address-bucket.js';

/** Which country an address is registered in, as an ISO 3166-1 alpha-2 code, or null. */
export interface PlaceLookup {
  countryOf(ip: string | null): Promise<string | null>;
}

const PACKAGE = '@ip-location-db/geo-whois-asn-country';

/** The folder of the public-domain (CC0) table of address ranges and their countries. */
export function defaultTableFolder(): string {
  return path.dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`));
}

/**
 * Address ranges in order of their start, each with its country. IPv4 ranges are 32-bit
 * numbers; IPv6 ones are 128 bits kept as two 64-bit halves, so a table of 300,000 ranges
 * is a few typed arrays rather than that many objects. The registries' records nest a few
 * hundred smaller ranges inside larger ones (a block handed on to a holder in another
 * country): `parent` is the range each one sits in, so an address takes the country of the
 * smallest range that holds it.
 */
interface Ranges {
  size: number;
  /** Whether the range at `index` starts at or before `key`. */
  startsBy(index: number, key: Key): boolean;
  /** Whether the range at `index` ends at or after `key`. */
  endsBy(index: number, key: Key): boolean;
  parent: Int32Array;
  country: Uint16Array;
  codes: string[];
}

type Key = number | readonly [bigint, bigint];
type Family = 'ipv4' | 'ipv6';

/**
 * The country of an address by the regional registries' records of who holds it (the
 * table `@ip-location-db/geo-whois-asn-country`, CC0). Shown to a person deciding whether
 * a device that asks to sign in as them is theirs. Each address family's table is read on
 * the first lookup in it (under a second, a few thousand rows per turn of the event loop)
 * and kept; private, loopback and other unrouted addresses are in no range, so they have
 * no country.
 */
export class IpCountryTable implements PlaceLookup {
  private readonly tables: Partial<Record<Family, Promise<Ranges>>> = {};

  constructor(private readonly folder: string = defaultTableFolder()) {}

  async countryOf(ip: string | null): Promise<string | null> {
    const key = ip === null ? null : keyOf(ip);
    if (key === null) return null;
    const family: Family = typeof key === 'number' ? 'ipv4' : 'ipv6';
    const table = (this.tables[family] ??= this.load(family).catch((error: unknown) => {
      delete this.tables[family];
      throw error;
    }));
    return find(await table, key);
  }

  /** Reads one family's table; a failed read is forgotten so that the next lookup tries again. */
  private async load(family: Family): Promise<Ranges> {
    const build = family === 'ipv4' ? buildV4 : buildV6;
    return build(
      await readFile(path.join(this.folder, `geo-whois-asn-country-${family}-num.csv`), 'utf8'),
    );
  }
}

const COUNTRY = /^[A-Z]{2}$/;
const ROWS_PER_TURN = 10_000;

/**
 * The table's rows (`start,end,country`, addresses as decimal numbers) in order of their
 * start, skipping malformed and out-of-order lines, with each row's enclosing row.
 */
async function readRows<T extends number | bigint>(
  text: string,
  parse: (field: string) => T | null,
) {
  const starts: T[] = [];
  const ends: T[] = [];
  const countries: number[] = [];
  const parents: number[] = [];
  const codes: string[] = [];
  const codeIndex = new Map<string, number>();
  /** Rows whose range is still open at the current start, innermost last. */
  const open: number[] = [];
  let at = 0;
  for (let line = 1; at < text.length; line += 1) {
    // Reading a table takes a few hundred milliseconds: let other requests in meanwhile.
    if (line % ROWS_PER_TURN === 0) await setImmediatePromise();
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd === -1) lineEnd = text.length;
    const lineStart = at;
    at = lineEnd + 1;
    const first = text.indexOf(',', lineStart);
    const second = first === -1 ? -1 : text.indexOf(',', first + 1);
    if (second === -1 || second > lineEnd) continue;
    const start = parse(text.slice(lineStart, first));
    const end = parse(text.slice(first + 1, second));
    const country = text.slice(second + 1, lineEnd).trim();
    if (start === null || end === null || !COUNTRY.test(country)) continue;
    const previous = starts[starts.length - 1];
    if (end < start || (previous !== undefined && start < previous)) continue;
    while (open.length > 0 && ends[open[open.length - 1]!]! < start) open.pop();
    let code = codeIndex.get(country);
    if (code === undefined) {
      code = codes.length;
      codes.push(country);
      codeIndex.set(country, code);
    }
    parents.push(open[open.length - 1] ?? -1);
    open.push(starts.length);
    starts.push(start);
    ends.push(end);
    countries.push(code);
  }
  return {
    starts,
    ends,
    parent: Int32Array.from(parents),
    country: Uint16Array.from(countries),
    codes,
  };
}

async function buildV4(text: string): Promise<Ranges> {
  const rows = await readRows(text, (field) => {
    const value = Number(field);
    return Number.isInteger(value) && value >= 0 && value <= 0xffffffff ? value : null;
  });
  const starts = Uint32Array.from(rows.starts);
  const ends = Uint32Array.from(rows.ends);
  return {
    parent: rows.parent,
    country: rows.country,
    codes: rows.codes,
    size: starts.length,
    startsBy: (i, key) => starts[i]! <= (key as number),
    endsBy: (i, key) => ends[i]! >= (key as number),
  };
}

const LOW_64 = (1n << 64n) - 1n;

async function buildV6(text: string): Promise<Ranges> {
  const rows = await readRows(text, (field) => (/^\d{1,39}$/.test(field) ? BigInt(field) : null));
  const startHigh = BigUint64Array.from(rows.starts, (value) => value >> 64n);
  const startLow = BigUint64Array.from(rows.starts, (value) => value & LOW_64);
  const endHigh = BigUint64Array.from(rows.ends, (value) => value >> 64n);
  const endLow = BigUint64Array.from(rows.ends, (value) => value & LOW_64);
  return {
    parent: rows.parent,
    country: rows.country,
    codes: rows.codes,
    size: startHigh.length,
    startsBy: (i, key) => {
      const [high, low] = key as readonly [bigint, bigint];
      return startHigh[i]! < high || (startHigh[i] === high && startLow[i]! <= low);
    },
    endsBy: (i, key) => {
      const [high, low] = key as readonly [bigint, bigint];
      return endHigh[i]! > high || (endHigh[i] === high && endLow[i]! >= low);
    },
  };
}

/**
 * The country of the smallest range that holds the key: the last range that starts at or
 * before it, or else the ranges that one sits in.
 */
function find(table: Ranges, key: Key): string | null {
  let low = 0;
  let high = table.size - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (table.startsBy(middle, key)) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  while (found !== -1 && !table.endsBy(found, key)) found = table.parent[found]!;
  if (found === -1) return null;
  return table.codes[table.country[found]!] ?? null;
}

/** IPv4 networks that are nobody's place: this network, private, shared, loopback, link-local. */
const UNROUTED_V4: readonly (readonly [number, number])[] = [
  [0x00000000, 8],
  [0x0a000000, 8],
  [0x64400000, 10],
  [0x7f000000, 8],
  [0xa9fe0000, 16],
  [0xac100000, 12],
  [0xc0a80000, 16],
];

/**
 * An address as the table's key: IPv4 as a 32-bit number, IPv6 as its two 64-bit halves.
 * An IPv4 address written as IPv6 (`::ffff:1.2.3.4`, as a dual-stack socket reports it) is
 * looked up as IPv4. Private, loopback and link-local addresses, which no table places, and
 * anything that is not an address are null.
 */
export function keyOf(address: string): Key | null {
  const ip = address.trim().replace(/%.*$/, '');
  if (isIPv4(ip)) return routedV4(ip.split('.').reduce((sum, part) => sum * 256 + Number(part), 0));
  if (!isIPv6(ip)) return null;
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return routedV4(groups[6]! * 0x10000 + groups[7]!);
  }
  // ::/8 (unspecified, loopback, old embeddings), fc00::/7 (unique local), fe80::/10 (link-local).
  const first = groups[0]!;
  if (first >> 8 === 0 || first >> 9 === 0x7e || first >> 6 === 0x3fa) return null;
  const half = (from: number) =>
    groups.slice(from, from + 4).reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
  return [half(0), half(4)];
}

function routedV4(value: number): number | null {
  const unrouted = UNROUTED_V4.some(
    ([network, bits]) =>
      Math.floor(value / 2 ** (32 - bits)) === Math.floor(network / 2 ** (32 - bits)),
  );
  return unrouted ? null : value;
}
