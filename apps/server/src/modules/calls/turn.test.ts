import type { IceServersResult } from '@teltlk/protocol';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userApi } from '../../test/fixtures.js';
import { createTestApp, type RegisteredUser, type TestApp } from '../../test/harness.js';
import { turnCredential } from './ice.js';

/**
 * The TURN credentials the server hands out, tried on a real coturn (`use-auth-secret`,
 * started by .ci/run with TEST_TURN_SECRET on TEST_TURN_URL): an Allocate over UDP with
 * the long-term credential mechanism gets a relayed address; a credential made from
 * another secret is refused. Skipped where no coturn is configured.
 */
const TURN_URL = process.env.TEST_TURN_URL;
const TURN_SECRET = process.env.TEST_TURN_SECRET;

const MAGIC_COOKIE = 0x2112a442;
const ALLOCATE_REQUEST = 0x0003;
const ALLOCATE_SUCCESS = 0x0103;
const ALLOCATE_ERROR = 0x0113;
const ATTR = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  realm: 0x0014,
  nonce: 0x0015,
  xorRelayedAddress: 0x0016,
  requestedTransport: 0x0019,
} as const;
const UDP = 17;

interface StunMessage {
  type: number;
  attributes: Map<number, Buffer>;
}

function attribute(type: number, value: Buffer): Buffer {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

/** A STUN message; with a key, MESSAGE-INTEGRITY (HMAC-SHA1) last, as RFC 5389 §15.4 says. */
function encode(type: number, attributes: Buffer[], key?: Buffer): Buffer {
  const id = randomBytes(12);
  const header = (length: number) => {
    const buffer = Buffer.alloc(20);
    buffer.writeUInt16BE(type, 0);
    buffer.writeUInt16BE(length, 2);
    buffer.writeUInt32BE(MAGIC_COOKIE, 4);
    id.copy(buffer, 8);
    return buffer;
  };
  const body = Buffer.concat(attributes);
  if (!key) return Buffer.concat([header(body.length), body]);
  // The length counts the integrity attribute (24 bytes) it is computed without.
  const signed = Buffer.concat([header(body.length + 24), body]);
  const mac = createHmac('sha1', key).update(signed).digest();
  return Buffer.concat([signed, attribute(ATTR.messageIntegrity, mac)]);
}

function decode(message: Buffer): StunMessage {
  const attributes = new Map<number, Buffer>();
  let offset = 20;
  const end = 20 + message.readUInt16BE(2);
  while (offset + 4 <= end) {
    const type = message.readUInt16BE(offset);
    const length = message.readUInt16BE(offset + 2);
    attributes.set(type, message.subarray(offset + 4, offset + 4 + length));
    offset += 4 + Math.ceil(length / 4) * 4;
  }
  return { type: message.readUInt16BE(0), attributes };
}

function errorCodeOf(message: StunMessage): number | null {
  const value = message.attributes.get(ATTR.errorCode);
  return value ? (value[2] ?? 0) * 100 + (value[3] ?? 0) : null;
}

/** The relayed transport address of an Allocate success (XOR-RELAYED-ADDRESS, IPv4). */
function relayedOf(message: StunMessage): { address: string; port: number } | null {
  const value = message.attributes.get(ATTR.xorRelayedAddress);
  if (!value || value[1] !== 0x01) return null;
  const port = value.readUInt16BE(2) ^ (MAGIC_COOKIE >>> 16);
  const address = (value.readUInt32BE(4) ^ MAGIC_COOKIE) >>> 0;
  return { address: [24, 16, 8, 0].map((shift) => (address >>> shift) & 0xff).join('.'), port };
}

function exchange(
  socket: Socket,
  host: string,
  port: number,
  request: Buffer,
): Promise<StunMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no TURN answer')), 3000);
    socket.once('message', (message) => {
      clearTimeout(timer);
      resolve(decode(message));
    });
    socket.send(request, port, host);
  });
}

/**
 * A TURN Allocate with the long-term credential mechanism: asked without credentials for
 * the realm and nonce, then again with USERNAME, REALM, NONCE and MESSAGE-INTEGRITY keyed
 * by MD5(username:realm:password).
 */
async function allocate(turnUrl: string, username: string, password: string): Promise<StunMessage> {
  const [host = '', port = '3478'] =
    turnUrl
      .replace(/^turns?:/, '')
      .split('?')[0]
      ?.split(':') ?? [];
  const socket = createSocket('udp4');
  try {
    const transport = attribute(ATTR.requestedTransport, Buffer.from([UDP, 0, 0, 0]));
    const challenge = await exchange(
      socket,
      host,
      Number(port),
      encode(ALLOCATE_REQUEST, [transport]),
    );
    expect(challenge.type).toBe(ALLOCATE_ERROR);
    expect(errorCodeOf(challenge)).toBe(401);
    const realm = challenge.attributes.get(ATTR.realm);
    const nonce = challenge.attributes.get(ATTR.nonce);
    if (!realm || !nonce) throw new Error('no realm or nonce in the challenge');
    const key = createHash('md5').update(`${username}:${realm.toString()}:${password}`).digest();
    const request = encode(
      ALLOCATE_REQUEST,
      [
        transport,
        attribute(ATTR.username, Buffer.from(username)),
        attribute(ATTR.realm, realm),
        attribute(ATTR.nonce, nonce),
      ],
      key,
    );
    return await exchange(socket, host, Number(port), request);
  } finally {
    socket.close();
  }
}

describe.runIf(TURN_URL && TURN_SECRET)('TURN credentials on coturn', () => {
  let t: TestApp;
  let ada: RegisteredUser;
  const { call, ok } = userApi(() => t);

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        TURN_URLS: TURN_URL ?? '',
        TURN_SECRET: TURN_SECRET ?? '',
        STUN_URLS: 'stun:127.0.0.1:3478',
      },
    });
    // coturn checks a credential's expiry against its own clock: the app's is set to it.
    t.clock.advance(Date.now() - t.clock.now());
    ada = await t.register();
  });
  afterAll(async () => {
    await t.close();
  });

  it('hands out credentials that allocate a relay on coturn', async () => {
    const result = ok<IceServersResult>(await call(ada, 'GET', '/calls/ice-servers'));
    const [stun, turn] = result.iceServers;
    expect(stun).toEqual({ urls: ['stun:127.0.0.1:3478'] });
    if (!turn?.username || !turn.credential) throw new Error('no TURN credentials');
    expect(turn.username).toBe(`${Math.floor(t.clock.now() / 1000) + 86400}:${ada.user.id}`);
    expect(result.expiresAt).toBe((Math.floor(t.clock.now() / 1000) + 86400) * 1000);
    expect(turn.urls).toEqual([TURN_URL]);
    const allocated = await allocate(TURN_URL ?? '', turn.username, turn.credential);
    expect(errorCodeOf(allocated)).toBeNull();
    expect(allocated.type).toBe(ALLOCATE_SUCCESS);
    expect(relayedOf(allocated)).toMatchObject({ address: '127.0.0.1' });
  });

  it('refuses a credential made from another secret, or one that has expired', async () => {
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const forged = turnCredential('not the shared secret', ada.user.id, expires);
    const refused = await allocate(TURN_URL ?? '', forged.username, forged.credential);
    expect(refused.type).toBe(ALLOCATE_ERROR);
    expect(errorCodeOf(refused)).toBe(401);
    const stale = turnCredential(
      TURN_SECRET ?? '',
      ada.user.id,
      Math.floor(Date.now() / 1000) - 60,
    );
    const expired = await allocate(TURN_URL ?? '', stale.username, stale.credential);
    expect(errorCodeOf(expired)).toBe(401);
  });
});
