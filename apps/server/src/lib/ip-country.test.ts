import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IpCountryTable, keyOf } from './ip-country.js';

const folders: string[] = [];

afterEach(async () => {
  await Promise.all(
    folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })),
  );
});

/** A folder holding a made-up table: `v4` and `v6` are its CSV texts. */
async function tableOf(files: { v4?: string; v6?: string }): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'ip-country-'));
  folders.push(folder);
  if (files.v4 !== undefined) {
    await writeFile(path.join(folder, 'geo-whois-asn-country-ipv4-num.csv'), files.v4);
  }
  if (files.v6 !== undefined) {
    await writeFile(path.join(folder, 'geo-whois-asn-country-ipv6-num.csv'), files.v6);
  }
  return folder;
}

const v4 = (ip: string) => keyOf(ip) as number;
const v6 = (ip: string) => {
  const [high, low] = keyOf(ip) as [bigint, bigint];
  return ((high << 64n) | low).toString();
};

describe('IpCountryTable', () => {
  it('places public addresses of both families by the shipped table', async () => {
    const table = new IpCountryTable();
    expect(await table.countryOf('8.8.8.8')).toBe('US');
    expect(await table.countryOf('81.2.69.160')).toBe('GB');
    expect(await table.countryOf('193.0.6.139')).toBe('NL');
    expect(await table.countryOf('::ffff:8.8.8.8')).toBe('US');
    expect(await table.countryOf('2a00:1450:4001:82a::200e')).toBe('IE');
    expect(await table.countryOf('2001:4860:4860::8888')).toBe('US');
  });

  it('has no place for private, loopback and link-local addresses, nor for non-addresses', async () => {
    // No table at all: these never need one.
    const table = new IpCountryTable(path.join(tmpdir(), 'no-such-table'));
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.0.9',
      '100.64.0.1',
      '::1',
      '::ffff:192.168.0.1',
      'fe80::1%eth0',
      'fd12:3456::1',
      'not an address',
      '',
    ]) {
      expect(await table.countryOf(ip)).toBeNull();
    }
    expect(await table.countryOf(null)).toBeNull();
  });

  it('takes the smallest range that holds an address where ranges nest', async () => {
    const folder = await tableOf({
      v4: [
        `${v4('1.0.0.0')},${v4('1.0.255.255')},AU`,
        `${v4('1.0.16.0')},${v4('1.0.31.255')},JP`,
        `${v4('1.0.16.0')},${v4('1.0.16.255')},KR`,
        `${v4('1.0.20.0')},${v4('1.0.20.255')},CN`,
        `${v4('2.0.0.0')},${v4('2.0.0.255')},FR`,
      ].join('\n'),
      v6: [
        `${v6('2001:420::')},${v6('2001:420:7fff:ffff:ffff:ffff:ffff:ffff')},JP`,
        `${v6('2001:420:4000::')},${v6('2001:420:4fff:ffff:ffff:ffff:ffff:ffff')},NL`,
        `${v6('2001:420:4000::')},${v6('2001:420:40ff:ffff:ffff:ffff:ffff:ffff')},GB`,
      ].join('\r\n'),
    });
    const table = new IpCountryTable(folder);
    expect(await table.countryOf('1.0.0.1')).toBe('AU');
    expect(await table.countryOf('1.0.16.7')).toBe('KR');
    expect(await table.countryOf('1.0.17.7')).toBe('JP');
    expect(await table.countryOf('1.0.20.7')).toBe('CN');
    expect(await table.countryOf('1.0.21.7')).toBe('JP');
    expect(await table.countryOf('1.0.32.1')).toBe('AU');
    expect(await table.countryOf('1.1.0.1')).toBeNull();
    expect(await table.countryOf('2.0.0.1')).toBe('FR');
    expect(await table.countryOf('0.255.255.255')).toBeNull();
    expect(await table.countryOf('2001:420:40a0::1')).toBe('GB');
    expect(await table.countryOf('2001:420:4100::1')).toBe('NL');
    expect(await table.countryOf('2001:420:5000::1')).toBe('JP');
    expect(await table.countryOf('2001:421::1')).toBeNull();
  });

  it('skips malformed and out-of-order lines', async () => {
    const folder = await tableOf({
      v4: [
        'start,end,country',
        `${v4('5.0.0.0')},${v4('5.0.0.255')},de`,
        `${v4('5.0.1.0')},${v4('5.0.1.255')},DE`,
        `${v4('5.0.3.0')},${v4('5.0.2.0')},IT`,
        `${v4('4.0.0.0')},${v4('4.0.0.255')},US`,
        `${v4('5.0.4.0')},99999999999,ES`,
        `${v4('5.0.5.0')},${v4('5.0.5.255')}`,
        '',
        `${v4('5.0.6.0')},${v4('5.0.6.255')},PT`,
      ].join('\n'),
    });
    const table = new IpCountryTable(folder);
    expect(await table.countryOf('5.0.0.1')).toBeNull();
    expect(await table.countryOf('5.0.1.1')).toBe('DE');
    expect(await table.countryOf('5.0.2.1')).toBeNull();
    expect(await table.countryOf('4.0.0.1')).toBeNull();
    expect(await table.countryOf('5.0.4.1')).toBeNull();
    expect(await table.countryOf('5.0.5.1')).toBeNull();
    expect(await table.countryOf('5.0.6.1')).toBe('PT');
  });

  it('fails a lookup when its table cannot be read, and reads it again on the next one', async () => {
    const folder = await tableOf({});
    const table = new IpCountryTable(folder);
    await expect(table.countryOf('8.8.8.8')).rejects.toThrow(/ENOENT/);
    await writeFile(
      path.join(folder, 'geo-whois-asn-country-ipv4-num.csv'),
      `${v4('8.8.8.0')},${v4('8.8.8.255')},US\n`,
    );
    expect(await table.countryOf('8.8.8.8')).toBe('US');
  });
});
