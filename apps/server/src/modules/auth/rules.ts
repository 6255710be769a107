import { VERIFICATION_CODE_LENGTH } from '@teltlk/protocol';
import { randomDigits, sha256 } from '../../lib/random.js';

/** A fresh verification code: crypto-random digits, leading zeros allowed. */
export function generateCode(): string {
  return randomDigits(VERIFICATION_CODE_LENGTH);
}

/**
 * The stored form of a code. Salted with its row id so equal codes never share a hash;
 * a million codes can be tried offline anyway, which is why codes also expire fast.
 */
export function hashCode(rowId: string, code: string): string {
  return sha256(`${rowId}:${code}`);
}
