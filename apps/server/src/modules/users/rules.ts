import {
  LOGIN_BASE_DELAY_SECONDS,
  LOGIN_FREE_FAILURES,
  LOGIN_MAX_DELAY_SECONDS,
} from '@teltlk/protocol';
import { randomDigits, randomFrom } from '../../lib/random.js';

/** A generated Teltlk ID: `t` and 9 digits, which passes the user-facing ID rule. */
export function generateTeltlkId(): string {
  return `t${randomDigits(9)}`;
}

// No 0/O or 1/I: invitation codes are read aloud and typed from screenshots.
const INVITE_FIRST = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const INVITE_REST = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A generated invitation code: 8 upper-case characters starting with a letter. */
export function generateInviteCode(): string {
  return randomFrom(INVITE_FIRST, 1) + randomFrom(INVITE_REST, 7);
}

/**
 * Seconds an account stays locked after `failures` consecutive wrong passwords: none for
 * the first few, then doubling from the base delay up to the cap.
 */
export function loginLockSeconds(failures: number): number {
  if (failures < LOGIN_FREE_FAILURES) return 0;
  return Math.min(
    LOGIN_BASE_DELAY_SECONDS * 2 ** (failures - LOGIN_FREE_FAILURES),
    LOGIN_MAX_DELAY_SECONDS,
  );
}

export interface LockStep {
  failures: number;
  seconds: number;
}

/**
 * loginLockSeconds as a table, for the database to apply in one statement: each count of
 * failures at which the lock changes, the last reaching the cap and holding beyond it.
 */
export function loginLockSteps(): [LockStep, ...LockStep[]] {
  const steps: [LockStep, ...LockStep[]] = [
    { failures: LOGIN_FREE_FAILURES, seconds: loginLockSeconds(LOGIN_FREE_FAILURES) },
  ];
  let failures = LOGIN_FREE_FAILURES;
  while (loginLockSeconds(failures) < LOGIN_MAX_DELAY_SECONDS) {
    failures += 1;
    steps.push({ failures, seconds: loginLockSeconds(failures) });
  }
  return steps;
}
