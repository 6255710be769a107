import { describe, expect, it } from 'vitest';
import {
  composePhone,
  countryName,
  countryOptions,
  formatDialCode,
  guessRegion,
} from './countries';

describe('formatDialCode', () => {
  it('always gives a plus and digits', () => {
    expect(formatDialCode('86')).toBe('+86');
    expect(formatDialCode('+1')).toBe('+1');
    expect(formatDialCode('0044')).toBe('+44');
  });
});

describe('composePhone', () => {
  it('joins the dial code and the national number', () => {
    expect(composePhone('+86', '138 0000 0000')).toBe('+8613800000000');
    expect(composePhone('1', '(415) 555-0100')).toBe('+14155550100');
  });

  it('drops a national trunk zero', () => {
    expect(composePhone('+44', '07700 900123')).toBe('+447700900123');
  });

  it('lets a number typed in international form win', () => {
    expect(composePhone('+86', '+1 415 555 0100')).toBe('+14155550100');
    expect(composePhone('+86', '0044 7700 900123')).toBe('+447700900123');
  });
});

describe('country names', () => {
  it('come from Intl in the interface language', () => {
    expect(countryName('CN', 'en-US')).toBe('China');
    expect(countryName('CN', 'zh-CN')).toBe('中国');
    expect(countryName('US', 'zh-TW')).toBe('美國');
  });

  it('are sorted the way the language sorts', () => {
    const options = countryOptions(
      [
        { code: 'NG', dialCode: '234' },
        { code: 'AR', dialCode: '+54' },
        { code: 'CN', dialCode: '+86' },
      ],
      'en-US',
    );
    expect(options.map((option) => option.name)).toEqual(['Argentina', 'China', 'Nigeria']);
    expect(options[2]?.dialCode).toBe('+234');
  });
});

describe('guessRegion', () => {
  it('reads the region of the browser languages', () => {
    expect(guessRegion(['en-GB', 'en'], 'en_US')).toBe('GB');
    expect(guessRegion(['vi'], 'en_US')).toBe('VN');
  });

  it('falls back to the interface language', () => {
    expect(guessRegion([], 'zh_TW')).toBe('TW');
    expect(guessRegion(['not a tag!'], 'zh_CN')).toBe('CN');
    expect(guessRegion([], 'en_US')).toBe('US');
  });
});
