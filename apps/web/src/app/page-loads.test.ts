import { describe, expect, it } from 'vitest';
import { pageDownloading, subscribePageLoads, trackPageLoad } from './page-loads';

describe('page downloads', () => {
  it('are under way until each has come or failed, and say so after the render', async () => {
    const heard: boolean[] = [];
    const stop = subscribePageLoads(() => heard.push(pageDownloading()));
    let arrive!: () => void;
    let fail!: (error: Error) => void;
    const first = trackPageLoad(new Promise<void>((resolve) => (arrive = resolve)));
    const second = trackPageLoad(new Promise<void>((_, reject) => (fail = reject)));
    expect(pageDownloading()).toBe(true);
    // Not while React is still rendering the page that asked.
    expect(heard).toEqual([]);
    await Promise.resolve();
    expect(heard).toEqual([true, true]);

    arrive();
    await first;
    expect(pageDownloading()).toBe(true);
    fail(new Error('offline'));
    await expect(second).rejects.toThrow('offline');
    expect(pageDownloading()).toBe(false);
    await Promise.resolve();
    expect(heard.at(-1)).toBe(false);
    stop();
  });
});
