import { ApiError } from '@teltlk/im-sdk';
import { describe, expect, it, vi } from 'vitest';
import { IncompletePayments } from './pi-incomplete';

function memory() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('unfinished Pi payments on their way to the server', () => {
  it('hands each one over once, and forgets those the server answered for', async () => {
    const storage = memory();
    const report = vi.fn((id: string) =>
      id === 'theirs'
        ? Promise.reject(new ApiError('PI_PAYMENT_NOT_YOURS', 403))
        : Promise.resolve(),
    );
    const payments = new IncompletePayments(() => storage, report);
    payments.remember('p1');
    payments.remember('p1');
    payments.remember('theirs');
    await payments.handOver();
    expect(report.mock.calls.map(([id]) => id)).toEqual(['p1', 'theirs']);
    expect(payments.read()).toEqual([]);
  });

  it('keeps one the server could not be asked about, for the next sign-in', async () => {
    const storage = memory();
    const report = vi
      .fn<(id: string) => Promise<void>>()
      .mockRejectedValueOnce(new ApiError('NETWORK_ERROR', 0))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(undefined);
    const payments = new IncompletePayments(() => storage, report);
    payments.remember('a');
    payments.remember('b');
    await payments.handOver();
    expect(payments.read()).toEqual(['a', 'b']);
    await payments.handOver();
    expect(payments.read()).toEqual([]);
  });

  it('reads a damaged entry as none', () => {
    const storage = memory();
    storage.setItem('teltlk.pi.incomplete', '{not json');
    expect(new IncompletePayments(() => storage, vi.fn()).read()).toEqual([]);
  });
});
