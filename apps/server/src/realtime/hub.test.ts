import { SOCKET_CLOSE, type ServerFrame } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { InProcessBus, InProcessNetwork } from './bus.js';
import { NodeHub, type LocalSocket } from './node-hub.js';

class FakeSocket implements LocalSocket {
  readonly received: ServerFrame[] = [];
  closedWith: number | null = null;
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    private readonly hub: NodeHub,
  ) {
    hub.add(this);
  }
  send(data: string): void {
    this.received.push(JSON.parse(data) as ServerFrame);
  }
  close(code: number): void {
    this.closedWith = code;
    this.hub.remove(this);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const pong = (now: number): ServerFrame => ({ t: 'pong', now });

describe('node hubs over a bus', () => {
  it('deliver each frame once to every socket of the users, on whichever node', async () => {
    const network = new InProcessNetwork();
    const north = new NodeHub(new InProcessBus(network));
    const south = new NodeHub(new InProcessBus(network));
    const adaNorth = new FakeSocket('ada', 's1', north);
    const adaSouth = new FakeSocket('ada', 's2', south);
    const bobSouth = new FakeSocket('bob', 's3', south);
    const eveNorth = new FakeSocket('eve', 's4', north);

    north.toUsers(['ada', 'bob', 'ada'], pong(1));
    south.toUsers(['bob'], pong(2));
    await settle();
    expect(adaNorth.received).toEqual([pong(1)]);
    expect(adaSouth.received).toEqual([pong(1)]);
    // Local delivery is immediate; a frame from another node arrives after it.
    expect(bobSouth.received).toEqual([pong(2), pong(1)]);
    expect(eveNorth.received).toEqual([]);
    expect([north.size, south.size]).toEqual([2, 2]);
  });

  it('kick one session or all but one, across nodes', async () => {
    const network = new InProcessNetwork();
    const north = new NodeHub(new InProcessBus(network));
    const south = new NodeHub(new InProcessBus(network));
    const phone = new FakeSocket('ada', 'phone', north);
    const laptop = new FakeSocket('ada', 'laptop', south);
    const tablet = new FakeSocket('ada', 'tablet', south);
    const bob = new FakeSocket('bob', 'phone', south);

    north.kick({ userId: 'ada', sessionId: 'laptop' });
    await settle();
    expect([phone.closedWith, laptop.closedWith, tablet.closedWith]).toEqual([
      null,
      SOCKET_CLOSE.kicked,
      null,
    ]);
    south.kick({ userId: 'ada', except: 'phone' });
    await settle();
    expect([phone.closedWith, tablet.closedWith, bob.closedWith]).toEqual([
      null,
      SOCKET_CLOSE.kicked,
      null,
    ]);
    // A closed socket is out of the registry: later frames do not reach it.
    south.toUsers(['ada'], pong(3));
    await settle();
    expect(tablet.received).toEqual([]);
    expect(phone.received).toEqual([pong(3)]);
  });
});
