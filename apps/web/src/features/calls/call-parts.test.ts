import { describe, expect, it } from 'vitest';
import { callClock, gridColumns } from './call-clock';
import { qualityOf } from './call-session';

describe('the parts of a call screen', () => {
  it('counts a call as a clock, hours only once there are some', () => {
    expect(callClock(0)).toBe('0:00');
    expect(callClock(7.9)).toBe('0:07');
    expect(callClock(201)).toBe('3:21');
    expect(callClock(3725)).toBe('1:02:05');
    expect(callClock(-3)).toBe('0:00');
  });

  it('marks the connection by its round trip and its loss', () => {
    expect(qualityOf({ roundTrip: 0.05, loss: 0, relayed: false })).toBe('good');
    expect(qualityOf({ roundTrip: null, loss: 0.01, relayed: true })).toBe('good');
    expect(qualityOf({ roundTrip: 0.4, loss: 0, relayed: false })).toBe('fair');
    expect(qualityOf({ roundTrip: 0.1, loss: 0.05, relayed: false })).toBe('fair');
    expect(qualityOf({ roundTrip: 0.8, loss: 0, relayed: false })).toBe('poor');
    expect(qualityOf({ roundTrip: 0.1, loss: 0.2, relayed: false })).toBe('poor');
  });

  it('lays a group out as one, two side by side, then squares up to four across', () => {
    expect([1, 2, 3, 4, 5, 9, 10, 16].map(gridColumns)).toEqual([1, 2, 2, 2, 3, 3, 4, 4]);
  });
});
