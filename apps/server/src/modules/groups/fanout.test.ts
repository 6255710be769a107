import type { ServerFrame } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { InProcessBus, InProcessNetwork, type BusMessage } from '../../realtime/bus.js';
import { NodeHub, type LocalSocket } from '../../realtime/node-hub.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
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
        return Promise.resolve(userIds.filter((id) => members.has(id)));
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
});
