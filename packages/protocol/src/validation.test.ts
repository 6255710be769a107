import { describe, expect, it } from 'vitest';
import { passwordLoginBody, registerBody, sendCodeBody, updateProfileBody } from './api.js';
import { remarkSchema, updateFriendBody } from './people.js';
import { PASSWORD_MAX_LENGTH } from './constants.js';
import { ERRORS, formatMessage } from './errors.js';
import { groupNameSchema, updateGroupBody, updateMyGroupBody } from './groups.js';
import { LANGUAGES } from './languages.js';
import {
  accountKind,
  codePointLength,
  codeSchema,
  emailSchema,
  inviteCodeSchema,
  nicknameSchema,
  passwordSchema,
  phoneSchema,
  teltlkIdSchema,
  toFieldIssues,
} from './validation.js';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

describe('Teltlk ID', () => {
  it.each(['abcdefg', 'Abc1234', 'a123456789012345', 'TELTLKID'])('accepts %s', (id) => {
    expect(ok(teltlkIdSchema, id)).toBe(true);
  });
  it.each([
    ['abcdef', 'too short'],
    ['a1234567890123456', 'too long'],
    ['1abcdefg', 'starts with a digit'],
    ['abc_defg', 'has a symbol'],
    ['abcdéfgh', 'has a non-ASCII letter'],
    ['', 'empty'],
  ])('rejects %s (%s)', (id) => {
    expect(ok(teltlkIdSchema, id)).toBe(false);
  });
});

describe('account password', () => {
  const passphrase = 'Correct horse battery staple 42, and then some more words to go!'; // 64
  it.each([
    'Abcdefg1',
    'Zz9Zz9Zz9',
    'Pass-word_2024!',
    passphrase,
    'Ünïcödé Pässwörd 7',
    'Пароль Надёжный 2025',
    '密码Ab1密码密码',
    'Ａｂｃｄｅｆ１２', // full-width letters and digits count as letters and digits
    `Ab1${'x'.repeat(PASSWORD_MAX_LENGTH - 3)}`,
    `Ab1${'😀'.repeat(PASSWORD_MAX_LENGTH - 3)}`, // emoji count as one character each
  ])('accepts %s', (password) => {
    expect(ok(passwordSchema, password)).toBe(true);
  });
  it('takes passphrases of at least 64 characters', () => {
    expect(codePointLength(passphrase)).toBe(64);
    expect(PASSWORD_MAX_LENGTH).toBeGreaterThanOrEqual(64);
  });
  it.each([
    ['abcdefg1', 'passwordStrength'],
    ['ABCDEFG1', 'passwordStrength'],
    ['Abcdefgh', 'passwordStrength'],
    ['密码密码密码密码1', 'passwordStrength'],
    ['Ab1', 'passwordLength'],
    ['Ab1😀😀', 'passwordLength'], // 7 characters in 9 UTF-16 units
    ['Abcdefg1\ttab', 'passwordCharacters'],
    ['Abcdefg1\u0000', 'passwordCharacters'],
    ['Abcdefg1\ud800', 'passwordCharacters'],
    [`Ab1${'x'.repeat(PASSWORD_MAX_LENGTH - 2)}`, 'passwordLength'],
  ])('rejects %j with rule %s', (password, rule) => {
    const result = passwordSchema.safeParse(password);
    expect(result.success).toBe(false);
    expect(toFieldIssues(result.error!).map((i) => i.rule)).toContain(rule);
  });
  it('signs in with any password up to the longest one allowed', () => {
    const longest = `Ab1${'😀'.repeat(PASSWORD_MAX_LENGTH - 3)}`;
    expect(ok(passwordLoginBody, { account: 'ada@example.com', password: longest })).toBe(true);
    expect(ok(passwordLoginBody, { account: 'ada@example.com', password: `${longest}x` })).toBe(
      false,
    );
    expect(ok(passwordLoginBody, { account: 'ada@example.com', password: '' })).toBe(false);
  });
});

describe('invitation code', () => {
  it.each(['abcdef', 'A1B2C3D4', 'a123456789012345'])('accepts %s', (code) => {
    expect(ok(inviteCodeSchema, code)).toBe(true);
  });
  it.each(['abcde', '1abcdef', 'a1234567890123456', 'abc-def'])('rejects %s', (code) => {
    expect(ok(inviteCodeSchema, code)).toBe(false);
  });
});

describe('phone, email, code, nickname', () => {
  it('accepts international phone numbers only', () => {
    expect(ok(phoneSchema, '+8613800138000')).toBe(true);
    expect(ok(phoneSchema, '+14155550123')).toBe(true);
    expect(ok(phoneSchema, '13800138000')).toBe(false);
    expect(ok(phoneSchema, '+0123456789')).toBe(false);
    expect(ok(phoneSchema, '+1234')).toBe(false);
  });
  it('normalises email to lower case and rejects malformed ones', () => {
    expect(emailSchema.parse('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(ok(emailSchema, 'ada@')).toBe(false);
    expect(ok(emailSchema, 'not an email')).toBe(false);
    expect(ok(emailSchema, `${'a'.repeat(250)}@x.io`)).toBe(false);
  });
  it('takes six-digit codes', () => {
    expect(ok(codeSchema, '012345')).toBe(true);
    expect(ok(codeSchema, '12345')).toBe(false);
    expect(ok(codeSchema, '12345a')).toBe(false);
  });
  it('takes nicknames in any script, not blank or control characters', () => {
    expect(nicknameSchema.parse('  李小龙 ')).toBe('李小龙');
    expect(ok(nicknameSchema, '   ')).toBe(false);
    expect(ok(nicknameSchema, 'a\u0007b')).toBe(false);
    expect(ok(nicknameSchema, 'x'.repeat(33))).toBe(false);
  });
});

describe('names', () => {
  const names = {
    nickname: nicknameSchema,
    remark: remarkSchema,
    'group name': groupNameSchema,
    'group nickname': updateMyGroupBody.shape.nickname,
    'group remark': updateMyGroupBody.shape.remark,
  };
  const rule = (schema: (typeof names)[keyof typeof names], value: string) => {
    const result = schema.safeParse(value);
    return result.success ? null : toFieldIssues(result.error).map((issue) => issue.rule);
  };

  it.each(Object.entries(names))('a %s takes any script, emoji and joiners', (_name, schema) => {
    for (const value of ['李小龙', 'محمد', 'Zoë', '👨‍👩‍👧', 'می‌خواهم', 'Ana María']) {
      expect(rule(schema, value), JSON.stringify(value)).toBeNull();
    }
  });

  it.each(Object.entries(names))(
    'a %s refuses control and text-direction characters',
    (_name, schema) => {
      const refused = [
        '\u0000',
        '\u0007',
        '\n',
        '\u007f',
        '\u0085',
        '\u009b',
        '\u061c',
        '\u200e',
        '\u200f',
        '\u2028',
        '\u2029',
        '\u202a',
        '\u202b',
        '\u202c',
        '\u202d',
        '\u202e',
        '\u2066',
        '\u2067',
        '\u2068',
        '\u2069',
      ];
      for (const character of refused) {
        expect(rule(schema, `Ana${character}Lee`), JSON.stringify(character)).toEqual([
          'nameCharacters',
        ]);
      }
    },
  );

  it('refuses them in the bodies that set names', () => {
    const spoof = 'Ana\u202Egnp.exe';
    expect(ok(updateProfileBody, { nickname: spoof })).toBe(false);
    expect(ok(updateFriendBody, { remark: spoof })).toBe(false);
    expect(ok(updateGroupBody, { name: spoof })).toBe(false);
    expect(ok(updateMyGroupBody, { nickname: spoof })).toBe(false);
    expect(ok(updateMyGroupBody, { remark: spoof })).toBe(false);
    expect(ok(updateMyGroupBody, { nickname: null })).toBe(true);
  });
});

describe('request bodies', () => {
  it('checks the destination against its channel', () => {
    expect(ok(sendCodeBody, { purpose: 'register', channel: 'phone', destination: 'a@b.co' })).toBe(
      false,
    );
    expect(ok(sendCodeBody, { purpose: 'register', channel: 'email', destination: 'a@b.co' })).toBe(
      true,
    );
  });
  it('reports missing fields as required and broken ones by rule', () => {
    const result = registerBody.safeParse({
      ticket: 'x'.repeat(20),
      nickname: 'Ada',
      password: 'weak',
    });
    const issues = toFieldIssues(result.error!);
    expect(issues).toContainEqual({ path: 'country', rule: 'required' });
    expect(issues).toContainEqual({ path: 'password', rule: 'passwordLength' });
  });
  it('reads the kind of a sign-in account', () => {
    expect(accountKind('+8613800138000')).toBe('phone');
    expect(accountKind('ada@example.com')).toBe('email');
    expect(accountKind('teltlk123')).toBe('teltlkId');
  });
});

describe('catalogue data', () => {
  it('lists the world languages once each with native names', () => {
    const codes = LANGUAGES.map((l) => l.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.length).toBeGreaterThan(180);
    expect(LANGUAGES.find((l) => l.code === 'zh')?.native).toBe('中文');
  });
  it('fills message parameters', () => {
    expect(formatMessage(ERRORS.LOGIN_LOCKED.message, { seconds: 30 })).toContain('30 seconds');
    expect(formatMessage('{a} {b}', { a: 1 })).toBe('1 {b}');
  });
});
