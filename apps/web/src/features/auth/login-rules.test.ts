import { describe, expect, it } from 'vitest';
import { checkLogin } from './login-rules';

describe('the sign-in form before the server is asked', () => {
  it('needs an account and a password', () => {
    expect(checkLogin('', '')).toEqual({
      account: { key: 'rule.account' },
      password: { key: 'rule.password' },
    });
    expect(checkLogin('   ', 'x')).toEqual({ account: { key: 'rule.account' } });
    expect(checkLogin('ada@example.com', '')).toEqual({ password: { key: 'rule.password' } });
  });

  it('leaves a password as typed: spaces are characters of a passphrase', () => {
    expect(checkLogin('ada@example.com', ' ')).toEqual({});
  });
});
