import type { Message, ServerFrame } from '@teltlk/protocol';
import { describe, expect, it, vi } from 'vitest';
import { InProcessBus, InProcessNetwork, type BusMessage } from '../../realtime/bus.js';
import { NodeHub, type LocalSocket } from '../../realtime/node-hub.js';

/** Turns of the event loop: `n` setImmediate hops, each after the callbacks set before it. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
};
/** Past a group push: its two hops (toOnlineMembers), then the member look-up's promise. */
const settle = () => turns(3);
const pong = (now: number): ServerFrame => ({ t: 'pong', now });

function socket(userId: string, hub: NodeHub): LocalSocket & { received: ServerFrame[] } {
  const received: ServerFrame[] = [];
  const local = {
    userId,
    sessionId: `s-${userId}`,
    received,
    send: (data: string) => void received.push(JSON.parse(data) as ServerFrame),
    close: () => hub.remove(local),
  };
  hub.add(local);
  return local;
}

describe('group fan-out to online members', () => {
  it('sends one bus message per batch; each node delivers to its own online members', async () => {
    const network = new InProcessNetwork();
    const northBus = new InProcessBus(network);
    const published: BusMessage[] = [];
    const publish = northBus.publish.bind(northBus);
    northBus.publish = (message) => {
      published.push(message);
      publish(message);
    };
    const north = new NodeHub(northBus);
    const south = new NodeHub(new InProcessBus(network));
    const members = new Set(['ada', 'bob']);
    const asked: string[][] = [];
    for (const hub of [north, south]) {
      hub.setMemberFilter((conversationId, userIds) => {
        expect(conversationId).toBe('sg_g1');
        asked.push([...userIds].sort());
        return Promise.resolve(
          userIds
            .filter((id) => members.has(id))
            .map((userId) => ({ userId, minSeq: 0, lang: null })),
        );
      });
    }
    const ada = socket('ada', north);
    const eve = socket('eve', north);
    const bob = socket('bob', south);

    north.toOnlineMembers('sg_g1', [pong(1), pong(2)]);
    await settle();
    expect(ada.received).toEqual([pong(1), pong(2)]);
    expect(bob.received).toEqual([pong(1), pong(2)]);
    expect(eve.received).toEqual([]);
    expect(published).toHaveLength(1);
    // Each node asks about its own connected users only.
    expect(asked.sort()).toEqual([['ada', 'eve'], ['bob']]);

    // A member who left is skipped from the next frame on.
    members.delete('bob');
    north.toOnlineMembers('sg_g1', [pong(3)]);
    await settle();
    expect(bob.received).toHaveLength(2);
    expect(ada.received).toHaveLength(3);
  });

  it('lets the acks written in the turn of a group message leave before its pushes', async () => {
    const hub = new NodeHub(new InProcessBus(new InProcessNetwork()));
    const order: string[] = [];
    hub.setMemberFilter((_conversationId, userIds) => {
      order.push('members looked up');
      return Promise.resolve(userIds.map((userId) => ({ userId, minSeq: 0, lang: null })));
    });
    const ada = socket('ada', hub);
    // The group commit writes a batch in a setImmediate callback, or in an I/O callback
    // when the send waited on a thread. Its acks go out in that turn: a socket's first
    // write sets a setImmediate callback that flushes it (Connection.write).
    const inSetImmediate = (run: () => void) => setImmediate(run);
    const inTimer = (run: () => void) => setTimeout(run, 0);
    for (const [index, turn] of [inSetImmediate, inTimer].entries()) {
      order.length = 0;
      await new Promise<void>((done) =>
        turn(() => {
          hub.toOnlineMembers('sg_g1', [pong(index)]);
          setImmediate(() => order.push('acks flushed'));
          // The rest of the batch's work, long enough for a timer set at its start to be due.
          const end = performance.now() + 3;
          while (performance.now() < end);
          done();
        }),
      );
      await vi.waitFor(() => expect(order).toHaveLength(2));
      expect(order).toEqual(['acks flushed', 'members looked up']);
      expect(ada.received.at(-1)).toEqual(pong(index));
    }
  });

  it('gives each member, on any node, only what lies after the point their history starts', async () => {
    const network = new InProcessNetwork();
    const north = new NodeHub(new InProcessBus(network));
    const south = new NodeHub(new InProcessBus(network));
    // Ada was there from the start; Bob joined (or cleared the history) at seq 2, after a
    // message the hub is still pushing: membership is read after the commit.
    const minSeqs = new Map([
      ['ada', 0],
      ['bob', 2],
    ]);
    for (const hub of [north, south]) {
      hub.setMemberFilter((_conversationId, userIds) =>
        Promise.resolve(
          userIds.map((userId) => ({ userId, minSeq: minSeqs.get(userId)!, lang: null })),
        ),
      );
    }
    const ada = socket('ada', north);
    const bob = socket('bob', south);
    const message = (seq: number, content: Message['content']): ServerFrame => ({
      t: 'message',
      message: {
        id: `m${seq}`,
        conversationId: 'sg_g1',
        seq,
        senderId: 'eve',
        clientMsgId: `c${seq}`,
        content,
        createdAt: 1,
        revokedAt: null,
        burnAt: null,
        editedAt: null,
        lang: null,
      },
    });
    const older = message(2, { kind: 'text', text: 'before Bob' });
    const revokeOlder = message(3, { kind: 'revoke', targetSeq: 2 });
    const newer = message(4, { kind: 'text', text: 'after Bob' });
    const translation = (seq: number): ServerFrame => ({
      t: 'translation',
      translation: {
        conversationId: 'sg_g1',
        seq,
        messageId: `m${seq}`,
        lang: 'es',
        from: 'en',
        status: 'done',
        text: '…',
        error: null,
        at: 1,
      },
    });

    north.toOnlineMembers('sg_g1', [older, revokeOlder, newer]);
    north.toOnlineMembers('sg_g1', [translation(2), translation(4)], { lang: 'es' });
    await settle();
    expect(ada.received).toEqual([older, revokeOlder, newer, translation(2), translation(4)]);
    expect(bob.received).toEqual([newer, translation(4)]);
  });
});
