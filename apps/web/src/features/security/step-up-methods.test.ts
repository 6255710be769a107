import type { StepUpStatus } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { codeChannels, mayActNow, stepUpMethods } from './step-up-methods';

const status = (
  patch: Partial<StepUpStatus> = {},
  methods: Partial<StepUpStatus['methods']> = {},
) =>
  ({
    provenUntil: null,
    proof: null,
    heldUntil: null,
    ...patch,
    methods: {
      password: true,
      email: 'a***@example.com',
      phone: null,
      pi: true,
      payment: true,
      ...methods,
    },
  }) satisfies StepUpStatus;

const account = { reason: 'stale', money: false } as const;
const money = { reason: 'stale', money: true } as const;
const held = { reason: 'hold', money: true } as const;

describe('stepUpMethods', () => {
  it('offers the password, a code and, in the Pi Browser, Pi for an account action', () => {
    expect(stepUpMethods(status(), account, true)).toEqual(['password', 'code', 'pi']);
    expect(stepUpMethods(status(), account, false)).toEqual(['password', 'code']);
  });

  it('offers the payment password for money only, and not on a device on hold', () => {
    expect(stepUpMethods(status(), money, false)).toEqual(['password', 'code', 'payment']);
    expect(stepUpMethods(status(), held, false)).toEqual(['password', 'code']);
    expect(stepUpMethods(status({ heldUntil: 5 }), money, false)).toEqual(['password', 'code']);
    expect(stepUpMethods(status({}, { payment: false }), money, false)).toEqual([
      'password',
      'code',
    ]);
  });

  it('leaves out what the account does not have', () => {
    const piOnly = status({}, { password: false, email: null, phone: null, payment: false });
    expect(stepUpMethods(piOnly, account, true)).toEqual(['pi']);
    expect(stepUpMethods(piOnly, account, false)).toEqual([]);
  });
});

describe('codeChannels', () => {
  it('lists the addresses the account has, email first', () => {
    expect(codeChannels(status({}, { phone: '+4479****1234' }))).toEqual(['email', 'phone']);
    expect(codeChannels(status({}, { email: null }))).toEqual([]);
  });
});

describe('mayActNow', () => {
  it('is true once an account proof counts and the device is not on hold', () => {
    expect(mayActNow(status({ provenUntil: 10, proof: 'password' }), account)).toBe(true);
    expect(mayActNow(status({ provenUntil: 10, proof: 'code' }), held)).toBe(true);
  });

  it('is false without a proof, on hold, or with a payment proof for an account action', () => {
    expect(mayActNow(status(), account)).toBe(false);
    expect(mayActNow(status({ provenUntil: 10, proof: 'password', heldUntil: 20 }), held)).toBe(
      false,
    );
    expect(mayActNow(status({ provenUntil: 10, proof: 'payment' }), account)).toBe(false);
    expect(mayActNow(status({ provenUntil: 10, proof: 'payment' }), money)).toBe(true);
  });
});
