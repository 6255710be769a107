import { describe, expect, it } from 'vitest';
import { readDestination, readPurpose } from './route-params';
import { withQuery } from './paths';

describe('withQuery', () => {
  it('encodes values, including the plus of a phone number', () => {
    const path = withQuery('/pages/sendCode/sendCode', {
      purpose: 'register',
      channel: 'phone',
      destination: '+8613800000000',
    });
    expect(path).toBe(
      '/pages/sendCode/sendCode?purpose=register&channel=phone&destination=%2B8613800000000',
    );
  });

  it('leaves out empty values and the question mark when nothing is left', () => {
    expect(withQuery('/x', { a: undefined, b: null, c: '' })).toBe('/x');
    expect(withQuery('/x', { a: 'b c' })).toBe('/x?a=b+c');
  });

  it('round-trips through readDestination', () => {
    const path = withQuery('/p', { channel: 'email', destination: 'Pioneer@Example.com' });
    const search = new URLSearchParams(path.split('?')[1]);
    expect(readDestination(search)).toEqual({
      channel: 'email',
      destination: 'pioneer@example.com',
    });
  });
});

describe('readDestination', () => {
  it('accepts a valid phone and email', () => {
    expect(
      readDestination(new URLSearchParams('channel=phone&destination=%2B8613800000000')),
    ).toEqual({
      channel: 'phone',
      destination: '+8613800000000',
    });
    expect(readDestination(new URLSearchParams('channel=email&destination=a%40b.co'))).toEqual({
      channel: 'email',
      destination: 'a@b.co',
    });
  });

  it('restores a plus that a hand-typed URL turned into a space', () => {
    expect(
      readDestination(new URLSearchParams('channel=phone&destination=+8613800000000')),
    ).toEqual({
      channel: 'phone',
      destination: '+8613800000000',
    });
  });

  it('rejects missing, unknown or mismatched values', () => {
    expect(readDestination(new URLSearchParams(''))).toBeNull();
    expect(readDestination(new URLSearchParams('channel=fax&destination=1'))).toBeNull();
    expect(readDestination(new URLSearchParams('channel=phone&destination=a%40b.co'))).toBeNull();
    expect(
      readDestination(new URLSearchParams('channel=email&destination=%2B8613800000000')),
    ).toBeNull();
    expect(readDestination(new URLSearchParams('channel=email'))).toBeNull();
  });
});

describe('readPurpose', () => {
  it('reads a known purpose and defaults to registration', () => {
    expect(readPurpose(new URLSearchParams('purpose=reset'))).toBe('reset');
    expect(readPurpose(new URLSearchParams('purpose=login'))).toBe('login');
    expect(readPurpose(new URLSearchParams('purpose=hack'))).toBe('register');
    expect(readPurpose(new URLSearchParams(''), 'login')).toBe('login');
  });
});
