import { describe, expect, it } from 'vitest';
import { cooldownKey, readRecord, recordSent } from './code-cooldown';

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe('code cooldown', () => {
  it('is kept per purpose, channel and destination', () => {
    expect(cooldownKey('register', 'email', 'a@b.co')).not.toBe(
      cooldownKey('reset', 'email', 'a@b.co'),
    );
  });

  it('records when another code may be asked for', () => {
    const storage = memoryStorage();
    const key = cooldownKey('login', 'phone', '+8613800000000');
    expect(readRecord(storage, key)).toBeNull();
    expect(recordSent(storage, key, 1_000, 60)).toEqual({ sentAt: 1_000, resendAt: 61_000 });
    expect(readRecord(storage, key)).toEqual({ sentAt: 1_000, resendAt: 61_000 });
  });

  it('ignores damaged records and failing storage', () => {
    const storage = memoryStorage();
    storage.setItem('k', '{"sentAt":"soon"}');
    expect(readRecord(storage, 'k')).toBeNull();
    storage.setItem('k', 'not json');
    expect(readRecord(storage, 'k')).toBeNull();
    const failing = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    expect(readRecord(failing, 'k')).toBeNull();
    expect(recordSent(failing, 'k', 0, -5)).toEqual({ sentAt: 0, resendAt: 0 });
  });
});
