import { describe, expect, it } from 'vitest';
import { canonicalMailbox } from './mailbox.js';

describe('canonicalMailbox', () => {
  it('reads the aliases of one Gmail mailbox as one: case, dots, +tags and googlemail.com', () => {
    for (const alias of [
      'adalovelace@gmail.com',
      'Ada.Lovelace@gmail.com',
      'ada.lovelace+teltlk@gmail.com',
      'a.d.a.l.o.v.e.l.a.c.e+1+2@googlemail.com',
      ' ADALOVELACE@GMAIL.COM ',
    ]) {
      expect(canonicalMailbox(alias), alias).toBe('adalovelace@gmail.com');
    }
  });

  it('strips only a +tag at other providers, where a dot may name another mailbox', () => {
    expect(canonicalMailbox('Ada+news@Example.com')).toBe('ada@example.com');
    expect(canonicalMailbox('ada.lovelace@example.com')).toBe('ada.lovelace@example.com');
    expect(canonicalMailbox('ada.lovelace@example.com')).not.toBe(
      canonicalMailbox('adalovelace@example.com'),
    );
    // A subdomain is another provider.
    expect(canonicalMailbox('a.da@mail.gmail.com')).toBe('a.da@mail.gmail.com');
  });

  it('keeps what it cannot read as a tagged address', () => {
    expect(canonicalMailbox('+ada@example.com')).toBe('+ada@example.com');
    expect(canonicalMailbox('not-an-address')).toBe('not-an-address');
  });
});
