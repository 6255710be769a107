import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { en_US } from './en_US';
import { zh_CN } from './zh_CN';
import { zh_TW } from './zh_TW';

// The password forms set no maxLength: the browser counts UTF-16 units and would cut a
// passphrase silently, so the protocol rule reports the length instead. These texts are
// what tells people the bounds, so they follow the protocol's numbers.
describe.each([
  ['en_US', en_US],
  ['zh_CN', zh_CN],
  ['zh_TW', zh_TW],
])('%s password texts', (_name, catalog) => {
  const range = `${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH}`;
  it('name the protocol length bounds', () => {
    expect(catalog.rule.passwordLength).toContain(range);
    expect(catalog.form.passwordHint).toContain(range);
  });
});
