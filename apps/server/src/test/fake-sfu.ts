import type { Sfu, SfuRoom } from '../modules/calls/janus.js';

/** An SFU in memory, for tests of who gets into a group call's room (Janus has its own test). */
export class MemorySfu implements Sfu {
  readonly publicUrl = 'http://127.0.0.1:8088/janus';
  /** Each room and the tokens it admits. */
  readonly rooms = new Map<number, Set<string>>();
  private next = 1;

  createRoom(input: { publishers: number; tokens: readonly string[] }): Promise<SfuRoom> {
    const room = { id: this.next, secret: `secret-${this.next}` };
    this.next += 1;
    this.rooms.set(room.id, new Set(input.tokens));
    return Promise.resolve(room);
  }

  allow(room: SfuRoom, tokens: readonly string[]): Promise<void> {
    const allowed = this.rooms.get(room.id);
    if (!allowed) return Promise.reject(new Error('no such room'));
    for (const token of tokens) allowed.add(token);
    return Promise.resolve();
  }

  destroyRoom(room: SfuRoom): Promise<void> {
    this.rooms.delete(room.id);
    return Promise.resolve();
  }
}
