import { inviteCodeSchema, nicknameSchema, passwordSchema, teltlkIdSchema } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { checkField, checkPasswordPair, hasErrors, normaliseCode } from './validation';

describe('checkField', () => {
  it('passes valid values', () => {
    expect(checkField(teltlkIdSchema, 'Pioneer7')).toBeNull();
    expect(checkField(nicknameSchema, 'Ana')).toBeNull();
    expect(checkField(inviteCodeSchema, 'abc123')).toBeNull();
  });

  it('names the rule a value breaks, as the server would', () => {
    expect(checkField(teltlkIdSchema, '1pioneer')).toEqual({ key: 'rule.teltlkId' });
    expect(checkField(passwordSchema, 'short')).toEqual({ key: 'rule.passwordLength' });
    expect(checkField(passwordSchema, 'alllowercase1')).toEqual({ key: 'rule.passwordStrength' });
    expect(checkField(nicknameSchema, '   ')).toEqual({ key: 'rule.nickname' });
    expect(checkField(inviteCodeSchema, '12345678')).toEqual({ key: 'rule.inviteCode' });
  });
});

describe('checkPasswordPair', () => {
  it('accepts a strong password typed twice', () => {
    expect(checkPasswordPair(passwordSchema, 'Abcdefg1', 'Abcdefg1')).toEqual({
      password: null,
      confirmation: null,
    });
  });

  it('reports a mismatch on the confirmation', () => {
    expect(checkPasswordPair(passwordSchema, 'Abcdefg1', 'Abcdefg2').confirmation).toEqual({
      key: 'form.passwordMismatch',
    });
  });

  it('asks for a confirmation and checks the password’s strength', () => {
    const result = checkPasswordPair(passwordSchema, 'abcdefgh', '');
    expect(result).toEqual({
      password: { key: 'rule.passwordStrength' },
      confirmation: { key: 'rule.required' },
    });
  });
});

describe('hasErrors', () => {
  it('is true when any message is set', () => {
    expect(hasErrors({ a: null, b: undefined })).toBe(false);
    expect(hasErrors({ a: null, b: { key: 'rule.required' } })).toBe(true);
  });
});

describe('normaliseCode', () => {
  it('keeps up to six digits of what was typed or pasted', () => {
    expect(normaliseCode('12 34-56')).toBe('123456');
    expect(normaliseCode('1234567')).toBe('123456');
    expect(normaliseCode('abc')).toBe('');
    expect(normaliseCode('１２３')).toBe('');
  });
});
