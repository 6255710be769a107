import type { ClientFrame, Message } from '@teltlk/protocol';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newClientMsgId, OutboxSender } from './outbox.js';
import { LocalStore } from './store.js';
import { CONV, ME, serverMessage } from './test-fixtures.js';

let store: LocalStore;
beforeEach(async () => {
  store = new LocalStore(ME, { indexedDB: new IDBFactory(), IDBKeyRange });
  await store.open();
});
afterEach(() => store.close());

function setup(connected: { value: boolean }) {
  const frames: Extract<ClientFrame, { t: 'send' }>[] = [];
  const acked: string[] = [];
  const failed: [string, string][] = [];
  const outbox = new OutboxSender({
    store: () => store,
    send: (frame) => {
      if (!connected.value) return false;
      if (frame.t === 'send') frames.push(frame);
      return true;
    },
    onAck: async (clientMsgId: string, _message: Message) => {
      acked.push(clientMsgId);
      await store.outbox.where('clientMsgId').equals(clientMsgId).delete();
    },
    onFailed: async (clientMsgId, code) => {
      failed.push([clientMsgId, code]);
      await store.outbox.where('clientMsgId').equals(clientMsgId).delete();
    },
    random: () => 0,
  });
  return { outbox, frames, acked, failed };
}

const queue = (clientMsgId: string) =>
  store.outbox.add({
    clientMsgId,
    conversationId: CONV,
    content: { kind: 'text', text: clientMsgId },
    createdAt: 1,
  });

describe('OutboxSender', () => {
  it('makes URL-safe client ids of the allowed length', () => {
    const ids = new Set(Array.from({ length: 50 }, newClientMsgId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });

  it('sends in order, once while on the way, again with the same id after a reset', async () => {
    const connected = { value: false };
    const { outbox, frames, acked } = setup(connected);
    await queue('first-01');
    await queue('second-1');
    await outbox.flush();
    expect(frames).toEqual([]);

    connected.value = true;
    await outbox.flush();
    await outbox.flush();
    expect(frames.map((frame) => frame.clientMsgId)).toEqual(['first-01', 'second-1']);

    // The socket died before any answer: both go again, same ids, new rids.
    outbox.reset();
    await outbox.flush();
    expect(frames.map((frame) => frame.clientMsgId)).toEqual([
      'first-01',
      'second-1',
      'first-01',
      'second-1',
    ]);
    expect(outbox.handleAck(frames[0]!.rid, serverMessage(1))).toBe(false);
    expect(outbox.handleAck(frames[2]!.rid, serverMessage(1))).toBe(true);
    // Answered but not yet removed: not sent again meanwhile.
    await outbox.flush();
    await vi.waitFor(() => expect(acked).toEqual(['first-01']));
    expect(await store.outbox.count()).toBe(1);
    expect(frames).toHaveLength(4);
  });

  it('fails a message on a final error, and retries later on a transient one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const { outbox, frames, failed } = setup({ value: true });
      await queue('refused1');
      await queue('busy-001');
      await outbox.flush();
      expect(outbox.handleError(frames[0]!.rid, 'MESSAGE_REFUSED')).toBe(true);
      expect(outbox.handleError(frames[1]!.rid, 'RATE_LIMITED')).toBe(true);
      expect(outbox.handleError(null, 'RATE_LIMITED')).toBe(false);
      await vi.waitFor(() => expect(failed).toEqual([['refused1', 'MESSAGE_REFUSED']]));
      vi.runOnlyPendingTimers();
      await vi.waitFor(() =>
        expect(frames.map((frame) => frame.clientMsgId)).toEqual([
          'refused1',
          'busy-001',
          'busy-001',
        ]),
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
