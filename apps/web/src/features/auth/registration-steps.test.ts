import { describe, expect, it } from 'vitest';
import { emptyDraft, missingStep, type RegistrationDraft } from './registration-steps';

const complete: RegistrationDraft = {
  channel: 'email',
  destination: 'a@b.co',
  ticket: 'x'.repeat(32),
  nickname: 'Ana',
  password: 'Abcdefg1',
  country: 'NG',
  motherTongue: 'en',
  inviteCode: '',
  pi: null,
};

describe('missingStep', () => {
  it('lets a complete draft reach every step', () => {
    for (const step of ['contact', 'account', 'region', 'language', 'invite'] as const) {
      expect(missingStep(step, complete)).toBeNull();
    }
  });

  it('needs a verified code before the account step', () => {
    expect(missingStep('account', emptyDraft)).toBe('contact');
    expect(missingStep('contact', emptyDraft)).toBeNull();
  });

  it('sends someone who lost the password (a reload) back to the account step', () => {
    expect(missingStep('invite', { ...complete, password: '' })).toBe('account');
  });

  it('points at the earliest gap', () => {
    expect(missingStep('invite', { ...complete, country: null, motherTongue: null })).toBe(
      'region',
    );
    expect(missingStep('invite', { ...complete, motherTongue: null })).toBe('language');
    expect(missingStep('language', { ...complete, motherTongue: null })).toBeNull();
  });

  it('takes a Pi ticket for the code, and asks no password of a Pi account', () => {
    const pi: RegistrationDraft = {
      ...emptyDraft,
      pi: { ticket: 'p'.repeat(32), username: 'pioneer' },
      nickname: 'pioneer',
    };
    expect(missingStep('account', pi)).toBeNull();
    expect(missingStep('region', pi)).toBeNull();
    expect(missingStep('invite', { ...pi, country: 'NG', motherTongue: 'en' })).toBeNull();
    expect(missingStep('region', { ...pi, nickname: ' ' })).toBe('account');
  });
});
