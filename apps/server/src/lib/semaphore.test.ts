import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.js';

describe('Semaphore', () => {
  it('runs up to its limit, queues up to its queue, and refuses the rest at once', () => {
    const semaphore = new Semaphore(2, 1);
    const places = [semaphore.take(), semaphore.take(), semaphore.take()];
    expect(places.every((place) => place !== null)).toBe(true);
    expect(semaphore.load).toEqual({ running: 2, waiting: 1 });
    expect(semaphore.take()).toBeNull();
  });

  it('hands a released place to the first waiter', async () => {
    const semaphore = new Semaphore(1, 2);
    const first = semaphore.take();
    const second = semaphore.take();
    const third = semaphore.take();
    const order: string[] = [];
    void second?.ready.then(() => order.push('second'));
    void third?.ready.then(() => order.push('third'));
    first?.release();
    await second?.ready;
    expect(order).toEqual(['second']);
    expect(semaphore.load).toEqual({ running: 1, waiting: 1 });
    second?.release();
    await third?.ready;
    expect(order).toEqual(['second', 'third']);
    third?.release();
    expect(semaphore.load).toEqual({ running: 0, waiting: 0 });
  });

  it('lets a waiting place leave the queue, and ignores a second release', () => {
    const semaphore = new Semaphore(1, 1);
    const running = semaphore.take();
    const waiting = semaphore.take();
    waiting?.release();
    waiting?.release();
    expect(semaphore.load).toEqual({ running: 1, waiting: 0 });
    running?.release();
    running?.release();
    expect(semaphore.load).toEqual({ running: 0, waiting: 0 });
    expect(semaphore.take()).not.toBeNull();
  });
});
