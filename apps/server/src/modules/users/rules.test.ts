import {
  INVITE_CODE_PATTERN,
  LOGIN_BASE_DELAY_SECONDS,
  LOGIN_FREE_FAILURES,
  LOGIN_MAX_DELAY_SECONDS,
  TELTLK_ID_PATTERN,
} from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { generateInviteCode, generateTeltlkId, loginLockSeconds, loginLockSteps } from './rules.js';

describe('loginLockSeconds', () => {
  it('does not lock during the free failures', () => {
    for (let failures = 0; failures < LOGIN_FREE_FAILURES; failures += 1) {
      expect(loginLockSeconds(failures)).toBe(0);
    }
  });

  it('starts at the base delay and doubles with each further failure', () => {
    expect(loginLockSeconds(LOGIN_FREE_FAILURES)).toBe(LOGIN_BASE_DELAY_SECONDS);
    expect(loginLockSeconds(LOGIN_FREE_FAILURES + 1)).toBe(LOGIN_BASE_DELAY_SECONDS * 2);
    expect(loginLockSeconds(LOGIN_FREE_FAILURES + 2)).toBe(LOGIN_BASE_DELAY_SECONDS * 4);
  });

  it('never exceeds the cap, however many failures', () => {
    const schedule = Array.from({ length: 60 }, (_, i) =>
      loginLockSeconds(LOGIN_FREE_FAILURES + i),
    );
    expect(Math.max(...schedule)).toBe(LOGIN_MAX_DELAY_SECONDS);
    expect(loginLockSeconds(10_000)).toBe(LOGIN_MAX_DELAY_SECONDS);
    // Non-decreasing: more failures never shorten the wait.
    schedule.reduce((previous, current) => {
      expect(current).toBeGreaterThanOrEqual(previous);
      return current;
    });
  });
});

describe('loginLockSteps', () => {
  it('gives the same lock as loginLockSeconds for any count of failures', () => {
    const steps = loginLockSteps();
    const lookUp = (failures: number) =>
      [...steps]
        .reverse()
        .find((step, index) =>
          index === 0 ? failures >= step.failures : failures === step.failures,
        )?.seconds ?? 0;
    for (let failures = 0; failures < 100; failures += 1) {
      expect(lookUp(failures), `${failures} failures`).toBe(loginLockSeconds(failures));
    }
    expect(steps.at(-1)?.seconds).toBe(LOGIN_MAX_DELAY_SECONDS);
  });
});

describe('generateTeltlkId', () => {
  it('is "t" and nine digits, and passes the user-facing ID rule', () => {
    for (let i = 0; i < 200; i += 1) {
      const id = generateTeltlkId();
      expect(id).toMatch(/^t\d{9}$/);
      expect(id).toMatch(TELTLK_ID_PATTERN);
    }
  });

  it('is random', () => {
    const ids = new Set(Array.from({ length: 500 }, generateTeltlkId));
    expect(ids.size).toBeGreaterThan(495);
  });
});

describe('generateInviteCode', () => {
  it('is 8 upper-case characters starting with a letter, without look-alikes', () => {
    for (let i = 0; i < 200; i += 1) {
      const code = generateInviteCode();
      expect(code).toMatch(/^[A-Z][A-Z0-9]{7}$/);
      expect(code).toMatch(INVITE_CODE_PATTERN);
      expect(code).not.toMatch(/[01IO]/);
    }
  });
});
