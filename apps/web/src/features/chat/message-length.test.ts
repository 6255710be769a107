import { MESSAGE_TEXT_MAX_LENGTH } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { LENGTH_COUNTER_FROM, lengthState } from './message-length';

describe('lengthState', () => {
  it('shows the counter from 4,500 characters and refuses past 5,000', () => {
    expect(MESSAGE_TEXT_MAX_LENGTH).toBe(5000);
    expect(lengthState('a'.repeat(LENGTH_COUNTER_FROM - 1))).toMatchObject({
      counted: false,
      over: false,
    });
    expect(lengthState('a'.repeat(4812))).toEqual({
      length: 4812,
      max: 5000,
      counted: true,
      over: false,
    });
    expect(lengthState('a'.repeat(5000)).over).toBe(false);
    expect(lengthState('a'.repeat(5001)).over).toBe(true);
  });

  it('counts what is sent, as the server counts it: trimmed, in UTF-16 code units', () => {
    expect(lengthState(`  ${'a'.repeat(5000)}\n\n`).over).toBe(false);
    expect(lengthState('😀'.repeat(2501)).length).toBe(5002);
    expect(lengthState('😀'.repeat(2501)).over).toBe(true);
  });
});
