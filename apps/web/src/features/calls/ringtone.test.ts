import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ring } from './ringtone';

/** An AudioContext that counts the tones it was asked to play, and whether it closed. */
class FakeAudio {
  static made: FakeAudio[] = [];
  tones = 0;
  closed = false;
  currentTime = 0;
  destination = {};
  constructor() {
    FakeAudio.made.push(this);
  }
  resume = () => Promise.resolve();
  close = () => {
    this.closed = true;
    return Promise.resolve();
  };
  createOscillator = () => ({
    frequency: { value: 0 },
    connect: (node: unknown) => node,
    start: () => {
      this.tones += 1;
    },
    stop: () => undefined,
  });
  createGain() {
    const gain = {
      gain: {
        setValueAtTime() {},
        exponentialRampToValueAtTime() {},
      },
      connect: (node: unknown) => node,
    };
    return gain;
  }
}

let vibrate: ReturnType<typeof vi.fn>;

function device(touched: boolean) {
  vibrate = vi.fn(() => true);
  vi.stubGlobal('navigator', { vibrate, userActivation: { hasBeenActive: touched } });
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeAudio.made = [];
  vi.stubGlobal('AudioContext', FakeAudio);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the ringing of a call', () => {
  it('rings and vibrates every few seconds until stopped, as the settings say', () => {
    device(true);
    const stop = ring({ sound: true, vibrate: true });
    const [audio] = FakeAudio.made;
    expect(audio?.tones).toBe(2);
    expect(vibrate).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(6_000);
    expect(audio?.tones).toBe(6);
    expect(vibrate).toHaveBeenCalledTimes(3);
    stop();
    expect(audio?.closed).toBe(true);
    expect(vibrate).toHaveBeenLastCalledWith(0);
    vi.advanceTimersByTime(6_000);
    expect(audio?.tones).toBe(6);
  });

  it('stays silent with the sound off, and still with the vibration off', () => {
    device(true);
    const stop = ring({ sound: false, vibrate: true });
    expect(FakeAudio.made).toEqual([]);
    expect(vibrate).toHaveBeenCalledTimes(1);
    stop();
    device(true);
    ring({ sound: true, vibrate: false })();
    expect(FakeAudio.made).toHaveLength(1);
    expect(vibrate).not.toHaveBeenCalled();
  });

  it('does not vibrate before the person has touched the page, nor for the caller’s ring-back', () => {
    device(false);
    ring({ sound: false, vibrate: true })();
    expect(vibrate).not.toHaveBeenCalled();
    device(true);
    ring({ sound: true, vibrate: true, ringBack: true })();
    expect(vibrate).not.toHaveBeenCalled();
    expect(FakeAudio.made[0]?.tones).toBe(1);
  });
});
