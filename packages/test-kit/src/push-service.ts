import {
  createECDH,
  createDecipheriv,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A push the service accepted, decrypted as the browser would. */
export interface ReceivedPush {
  payload: string;
  ttl: number;
  topic: string | null;
  urgency: string | null;
}

/** A subscription as a browser hands it to the app (`PushSubscription.toJSON()`). */
export interface LocalSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

interface Device {
  ecdh: ECDH;
  auth: Buffer;
  /** The application server key the browser subscribed with: pushes must be signed by it. */
  serverKey: string;
  gone: boolean;
  received: ReceivedPush[];
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

function hmac(key: Buffer, ...data: Buffer[]): Buffer {
  const mac = createHmac('sha256', key);
  for (const part of data) mac.update(part);
  return mac.digest();
}

/** HKDF (RFC 5869) with one block of output, which is all RFC 8291 needs. */
function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  const prk = hmac(salt, ikm);
  return hmac(prk, info, Buffer.from([1])).subarray(0, length);
}

/**
 * A Web Push service on loopback, as a browser vendor runs one (RFC 8030): it hands out
 * subscriptions (keys made as a browser makes them), and for each push checks the VAPID
 * authorization (RFC 8292: an ES256 JWT for the endpoint's origin, signed by the key the
 * subscription was made with) and decrypts the aes128gcm payload (RFC 8291) with the
 * subscription's private key, as the browser would. What fails a check is refused with
 * the status a real service gives and recorded in `refusals`.
 */
export class LocalPushService {
  readonly refusals: string[] = [];
  private readonly devices = new Map<string, Device>();
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<LocalPushService> {
    let service: LocalPushService | null = null;
    const server = createServer((request, response) => {
      void service!.handle(request).then(
        (status) => response.writeHead(status).end(),
        () => response.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    service = new LocalPushService(server, `http://127.0.0.1:${port}`);
    return service;
  }

  /** A new subscription for an app whose VAPID public key is `serverKey`. */
  subscribe(serverKey: string): LocalSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const id = b64(randomBytes(12));
    this.devices.set(id, { ecdh, auth, serverKey, gone: false, received: [] });
    return {
      endpoint: `${this.origin}/push/${id}`,
      keys: { p256dh: b64(ecdh.getPublicKey()), auth: b64(auth) },
    };
  }

  /** The pushes a subscription got, oldest first. */
  received(endpoint: string): ReceivedPush[] {
    return this.device(endpoint)?.received ?? [];
  }

  /** The browser dropped the subscription: further pushes are answered 410 Gone. */
  expire(endpoint: string): void {
    const device = this.device(endpoint);
    if (device) device.gone = true;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private device(endpoint: string): Device | undefined {
    return this.devices.get(endpoint.slice(`${this.origin}/push/`.length));
  }

  private refuse(status: number, why: string): number {
    this.refusals.push(why);
    return status;
  }

  private async handle(request: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const match = /^\/push\/([A-Za-z0-9_-]+)$/.exec(request.url ?? '');
    const device = match ? this.devices.get(match[1]!) : undefined;
    if (request.method !== 'POST' || !device) return this.refuse(404, 'unknown subscription');
    if (device.gone) return 410;

    const ttl = Number(request.headers.ttl);
    if (!Number.isInteger(ttl) || ttl < 0) return this.refuse(400, 'no TTL header');
    const vapid = this.checkVapid(request.headers.authorization, device);
    if (vapid) return this.refuse(401, vapid);
    if (request.headers['content-encoding'] !== 'aes128gcm') {
      return this.refuse(415, 'payload not aes128gcm');
    }
    let payload: string;
    try {
      payload = this.decrypt(body, device);
    } catch (error) {
      return this.refuse(400, `payload does not decrypt: ${(error as Error).message}`);
    }
    device.received.push({
      payload,
      ttl,
      topic: (request.headers.topic as string | undefined) ?? null,
      urgency: (request.headers.urgency as string | undefined) ?? null,
    });
    return 201;
  }

  /** What is wrong with the VAPID authorization, or null when it holds. */
  private checkVapid(header: string | undefined, device: Device): string | null {
    const found = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
    if (!found) return 'no VAPID authorization';
    const [, token, key] = found as unknown as [string, string, string];
    if (key !== device.serverKey) return 'signed by another application server key';
    const [head, claims, signature] = token.split('.');
    if (!head || !claims || !signature) return 'malformed JWT';
    const jose = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
    if (jose.alg !== 'ES256') return 'JWT not ES256';
    const raw = Buffer.from(key, 'base64url');
    const publicKey = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33, 65)) },
      format: 'jwk',
    });
    const valid = verify(
      'sha256',
      Buffer.from(`${head}.${claims}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    if (!valid) return 'bad JWT signature';
    const claim = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
      aud?: string;
      exp?: number;
      sub?: string;
    };
    if (claim.aud !== this.origin) return `JWT audience ${claim.aud} is not ${this.origin}`;
    const now = Date.now() / 1000;
    if (typeof claim.exp !== 'number' || claim.exp < now || claim.exp > now + 24 * 3600) {
      return 'JWT expiry missing or over 24 hours away';
    }
    if (!claim.sub || !/^(mailto:|https:)/.test(claim.sub)) return 'JWT subject missing';
    return null;
  }

  /** RFC 8291: the content-encryption key from ECDH and the auth secret; one record. */
  private decrypt(body: Buffer, device: Device): string {
    const salt = body.subarray(0, 16);
    const idLength = body[20]!;
    const senderKey = body.subarray(21, 21 + idLength);
    const record = body.subarray(21 + idLength);
    const receiverKey = device.ecdh.getPublicKey();
    const shared = device.ecdh.computeSecret(senderKey);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverKey, senderKey]);
    const ikm = hkdf(device.auth, shared, keyInfo, 32);
    const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
    const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const plain = Buffer.concat([
      decipher.update(record.subarray(0, record.length - 16)),
      decipher.final(),
    ]);
    // The last record ends with the delimiter 2, then padding zeros.
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end -= 1;
    if (plain[end] !== 2) throw new Error('no last-record delimiter');
    return plain.subarray(0, end).toString('utf8');
  }
}
