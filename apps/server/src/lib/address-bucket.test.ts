import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressBucket } from './address-bucket.js';

const group = fc.integer({ min: 0, max: 0xffff });
const groups = fc.array(group, { minLength: 8, maxLength: 8 });

const full = (g: number[]) => g.map((n) => n.toString(16).padStart(4, '0')).join(':');
/** The shortest form, as Node and browsers print it (`::` for the longest zero run). */
const compressed = (g: number[]) => new URL(`http://[${full(g)}]/`).hostname.slice(1, -1);
const isMapped = (g: number[]) => g.slice(0, 5).every((n) => n === 0) && g[5] === 0xffff;

describe('addressBucket', () => {
  it('keeps IPv4 addresses and maps IPv4-mapped IPv6 back to them', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts IPv6 addresses by their /64', () => {
    expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves what is not an address as it is', () => {
    expect(addressBucket('')).toBe('');
    expect(addressBucket('unix-socket')).toBe('unix-socket');
  });

  it('gives every spelling of an address the same key, and the key its /64 alone', () => {
    fc.assert(
      fc.property(groups, groups, (a, b) => {
        const key = addressBucket(full(a));
        expect(addressBucket(compressed(a))).toBe(key);
        expect(addressBucket(full(a).toUpperCase())).toBe(key);
        if (isMapped(a) || isMapped(b)) return;
        const samePrefix = a.slice(0, 4).join() === b.slice(0, 4).join();
        expect(addressBucket(full(b)) === key).toBe(samePrefix);
        // Any interface id in the same /64 shares the key.
        expect(addressBucket(full([...a.slice(0, 4), ...b.slice(4)]))).toBe(key);
      }),
    );
  });
});
