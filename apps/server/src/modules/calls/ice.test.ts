import { describe, expect, it } from 'vitest';
import { iceServersFor, type IceConfig } from './ice.js';

const base: IceConfig = {
  stunUrls: ['stun:stun.example.com:3478'],
  turnUrls: ['turn:turn.example.com:3478'],
  turnSecret: 's'.repeat(32),
  turnTtlSeconds: 3600,
  relayOnly: false,
};
const now = Date.UTC(2026, 0, 1);

describe('ICE servers handed to a browser', () => {
  it('lets the browser use every candidate unless the relay alone is configured', () => {
    expect(iceServersFor(base, 'ada', now).iceTransportPolicy).toBe('all');
    const relayed = iceServersFor({ ...base, relayOnly: true }, 'ada', now);
    expect(relayed.iceTransportPolicy).toBe('relay');
    expect(relayed.iceServers.at(-1)).toMatchObject({ urls: base.turnUrls });
  });

  it('never asks for the relay alone without TURN to relay through', () => {
    const none = iceServersFor({ ...base, turnSecret: null, relayOnly: true }, 'ada', now);
    expect(none).toEqual({
      iceServers: [{ urls: base.stunUrls }],
      expiresAt: null,
      iceTransportPolicy: 'all',
    });
  });
});
