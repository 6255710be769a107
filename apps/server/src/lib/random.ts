import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';

const ID_LENGTH = 20;
/** Random bytes for this many ids are drawn at once: one call to the generator per 200 ids. */
const ID_POOL_BYTES = ID_LENGTH * 200;
let idPool = Buffer.alloc(0);
let idPoolOffset = 0;

/** A random row id: 20 characters of Crockford base32 (100 bits). */
export function newId(): string {
  if (idPoolOffset + ID_LENGTH > idPool.length) {
    idPool = randomBytes(ID_POOL_BYTES);
    idPoolOffset = 0;
  }
  let id = '';
  for (let i = 0; i < ID_LENGTH; i += 1) id += BASE32[idPool[idPoolOffset + i]! & 31];
  idPoolOffset += ID_LENGTH;
  return id;
}

/** Characters of the time part of a sortable id: 50 bits of milliseconds, past the year 10000. */
const TIME_LENGTH = 10;

/**
 * A row id like newId, whose first characters are the current time: ids made later sort
 * after earlier ones (within a millisecond, in any order), so rows written together go to
 * the end of the primary key's index instead of a random page each. For rows that are
 * written in bulk (messages); the time it shows is no secret (rows carry it anyway).
 */
export function newSortableId(now: number = Date.now()): string {
  let time = '';
  let rest = Math.max(0, Math.floor(now));
  for (let i = 0; i < TIME_LENGTH; i += 1) {
    time = BASE32[rest % 32]! + time;
    rest = Math.floor(rest / 32);
  }
  return time + newId().slice(TIME_LENGTH);
}

/** A bearer secret (session token, registration ticket): 32 random bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets are stored only as their sha256, so a leaked table grants nothing. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Digits from the crypto generator, each uniformly 0–9. */
export function randomDigits(length: number): string {
  let digits = '';
  for (let i = 0; i < length; i += 1) digits += String(randomInt(10));
  return digits;
}

/** Picks `length` characters from `alphabet` uniformly. */
export function randomFrom(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** Compares two hex digests without leaking where they differ. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
