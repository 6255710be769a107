import { ApiError, StepUpCancelled } from '@teltlk/im-sdk';
import { describe, expect, it } from 'vitest';
import {
  errorMessage,
  isHandledError,
  isSessionError,
  ruleMessage,
  toFormErrors,
} from './error-message';

describe('errorMessage', () => {
  it('uses the error code’s message with its parameters', () => {
    expect(errorMessage(new ApiError('LOGIN_LOCKED', 429, { seconds: 30 }))).toEqual({
      key: 'error.LOGIN_LOCKED',
      params: { seconds: 30 },
    });
    expect(errorMessage(new ApiError('CODE_INVALID', 400))).toEqual({ key: 'error.CODE_INVALID' });
  });

  it('prefers the screen’s fallback over a generic server failure', () => {
    expect(errorMessage(new ApiError('INTERNAL', 500), 'login')).toEqual({ key: 'fallback.login' });
    expect(errorMessage(new ApiError('INTERNAL', 500))).toEqual({ key: 'error.INTERNAL' });
  });

  it('keeps network problems specific even with a fallback', () => {
    expect(errorMessage(new ApiError('NETWORK_ERROR', 0), 'modify')).toEqual({
      key: 'error.NETWORK_ERROR',
    });
  });

  it('turns anything that is not an ApiError into the fallback', () => {
    expect(errorMessage(new TypeError('boom'), 'register')).toEqual({ key: 'fallback.register' });
    expect(errorMessage('weird')).toEqual({ key: 'error.INTERNAL' });
  });
});

describe('ruleMessage', () => {
  it('maps known rule keys and treats unknown ones as invalid', () => {
    expect(ruleMessage('teltlkId')).toEqual({ key: 'rule.teltlkId' });
    expect(ruleMessage('too_small')).toEqual({ key: 'rule.invalid' });
  });
});

describe('isSessionError', () => {
  it('is true only for a lost session', () => {
    expect(isSessionError(new ApiError('UNAUTHENTICATED', 401))).toBe(true);
    expect(isSessionError(new ApiError('TOKEN_EXPIRED', 401))).toBe(true);
    expect(isSessionError(new ApiError('FORBIDDEN', 403))).toBe(false);
    expect(isSessionError(new Error('x'))).toBe(false);
  });
});

describe('isHandledError', () => {
  const stepUp = new ApiError('STEP_UP_REQUIRED', 403, { reason: 'stale' });

  it('is true for a lost session and for a step-up the person gave up', () => {
    expect(isHandledError(new ApiError('TOKEN_EXPIRED', 401))).toBe(true);
    expect(isHandledError(new StepUpCancelled(stepUp))).toBe(true);
  });

  it('is false for a step-up refusal nobody was asked about', () => {
    expect(isHandledError(stepUp)).toBe(false);
    expect(isHandledError(new ApiError('PASSWORD_INCORRECT', 400))).toBe(false);
  });
});

describe('toFormErrors', () => {
  const fields = ['account', 'password'] as const;

  it('says nothing of a step-up the person gave up', () => {
    const cancelled = new StepUpCancelled(new ApiError('STEP_UP_REQUIRED', 403));
    expect(toFormErrors(cancelled, { fields, fallback: 'modify' })).toEqual({
      fields: {},
      general: null,
    });
  });

  it('puts a code that belongs to a field next to that field', () => {
    const result = toFormErrors(new ApiError('PASSWORD_INCORRECT', 400), {
      fields,
      codeFields: { PASSWORD_INCORRECT: 'password' },
      fallback: 'login',
    });
    expect(result).toEqual({
      fields: { password: { key: 'error.PASSWORD_INCORRECT' } },
      general: null,
    });
  });

  it('puts validation issues next to their fields, first issue per field', () => {
    const error = new ApiError('VALIDATION_FAILED', 400, undefined, [
      { path: 'password', rule: 'passwordStrength' },
      { path: 'password', rule: 'passwordLength' },
      { path: 'account', rule: 'account' },
    ]);
    expect(toFormErrors(error, { fields })).toEqual({
      fields: { password: { key: 'rule.passwordStrength' }, account: { key: 'rule.account' } },
      general: null,
    });
  });

  it('follows path aliases and reports issues no field shows as general', () => {
    const error = new ApiError('VALIDATION_FAILED', 400, undefined, [
      { path: 'destination', rule: 'phone' },
      { path: 'ticket', rule: 'ticket' },
    ]);
    expect(
      toFormErrors(error, { fields: ['phone'], pathAliases: { destination: 'phone' } }),
    ).toEqual({
      fields: { phone: { key: 'rule.phone' } },
      general: { key: 'rule.ticket' },
    });
  });

  it('shows other failures as one general message', () => {
    expect(
      toFormErrors(new ApiError('LOGIN_LOCKED', 429, { seconds: 60 }), {
        fields,
        fallback: 'login',
      }),
    ).toEqual({
      fields: {},
      general: { key: 'error.LOGIN_LOCKED', params: { seconds: 60 } },
    });
    expect(toFormErrors(new Error('x'), { fields, fallback: 'login' }).general).toEqual({
      key: 'fallback.login',
    });
  });

  it('leaves a lost session to the app-wide handler', () => {
    expect(toFormErrors(new ApiError('TOKEN_EXPIRED', 401), { fields })).toEqual({
      fields: {},
      general: null,
    });
  });
});
