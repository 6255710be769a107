import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  UPLOADS_PATH,
  singleConversationId,
  type ErrorBody,
  type Message,
  type MediaUrlsResult,
  type UploadedMedia,
} from '@teltlk/protocol';
import S3rver from 's3rver';
import sharp from 'sharp';
import { Upload, type DetailedError } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { PLACE, hiddenGif, hiddenPhoto, recording, withPlaces } from '../../test/media.js';
import { parseRange } from './routes.js';
import { DAY } from '../../lib/clock.js';
import { UNSENT_MEDIA_KEPT_MS } from './service.js';

let counter = 0;
const clientId = () => `media-${Date.now().toString(36)}-${(counter += 1)}`;

/** A photo as a phone takes it: turned by EXIF (orientation 6), with camera metadata. */
async function phonePhoto(width = 64, height = 32): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } },
  })
    .jpeg()
    .withMetadata({ orientation: 6, exif: { IFD0: { Make: 'PhoneMaker', Artist: 'Ada' } } })
    .toBuffer();
}

interface Uploaded {
  media: UploadedMedia;
  url: string;
}

/** The refusal of an upload, as the tus client reports it: status and the API's error body. */
interface Refusal {
  status: number;
  code: string;
}

function refusalOf(error: Error | DetailedError): Refusal {
  const response = (error as DetailedError).originalResponse;
  if (!response) throw error;
  const body = JSON.parse(response.getBody()) as ErrorBody;
  return { status: response.getStatus(), code: body.error.code };
}

describe.each(dialects)('media on $dialect', ({ dialect }) => {
  let t: TestApp;
  let base: string;
  let ada: RegisteredUser;
  let bob: RegisteredUser;
  let eve: RegisteredUser;
  let adaBob: string;

  /**
   * Uploads through the tus protocol as the web app does, in small chunks, the first with
   * the request that begins the upload.
   */
  function upload(
    user: RegisteredUser,
    data: Buffer,
    metadata: Record<string, string>,
    options: { chunkSize?: number; uploadUrl?: string; stopAfter?: number } = {},
  ): Promise<Uploaded> {
    return new Promise((resolve, reject) => {
      let chunks = 0;
      const tus: Upload = new Upload(data, {
        endpoint: base + UPLOADS_PATH,
        ...(options.uploadUrl ? { uploadUrl: options.uploadUrl } : {}),
        headers: { authorization: `Bearer ${user.token}` },
        metadata,
        chunkSize: options.chunkSize ?? 16 * 1024,
        uploadDataDuringCreation: true,
        retryDelays: null,
        onChunkComplete: () => {
          chunks += 1;
          if (options.stopAfter !== undefined && chunks >= options.stopAfter) {
            void tus.abort().then(() => reject(new Error(`stopped:${tus.url}`)));
          }
        },
        onSuccess: ({ lastResponse }) =>
          resolve({ media: JSON.parse(lastResponse.getBody()) as UploadedMedia, url: tus.url! }),
        onError: reject,
      });
      tus.start();
    });
  }

  async function sendContent(user: RegisteredUser, conversationId: string, content: unknown) {
    return t.call('POST', '/api/v1/messages', {
      token: user.token,
      body: { conversationId, clientMsgId: clientId(), content },
    });
  }

  async function urlsFor(user: RegisteredUser, ids: string[]): Promise<MediaUrlsResult> {
    const response = await t.call('POST', '/api/v1/media/urls', {
      token: user.token,
      body: { ids },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MediaUrlsResult>();
  }

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      env: { MEDIA_IMAGE_MAX_MB: '1', MEDIA_FILE_MAX_MB: '2', MEDIA_DAILY_MB: '3' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    [ada, bob, eve] = await Promise.all([t.register(), t.register(), t.register()]);
    const { contacts } = t.ctx.services;
    const request = await contacts.sendRequest(
      { userId: ada.user.id, sessionId: 'test' },
      { userId: bob.user.id },
    );
    await contacts.acceptRequest({ userId: bob.user.id, sessionId: 'test' }, request.id);
    adaBob = singleConversationId(ada.user.id, bob.user.id);
  });
  afterAll(() => t.close());

  it('stores a photo without its metadata, shown upright, with a thumbnail and a placeholder', async () => {
    const input = await phonePhoto();
    const { media } = await upload(ada, input, { kind: 'image', name: 'IMG_1.jpg' });
    expect(media.kind).toBe('image');
    if (media.kind !== 'image') return;
    // Orientation 6 turns the 64×32 picture a quarter: upright it is 32 wide, 64 high.
    expect(media.image).toMatchObject({ width: 32, height: 64, mime: 'image/jpeg' });
    expect(media.image.placeholder).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const { urls } = await urlsFor(ada, [media.image.id]);
    const original = await fetch(base + urls[0]!.url);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await original.arrayBuffer());
    expect(bytes.length).toBe(media.image.size);
    // The camera and the artist are gone; the picture is the camera's own, not encoded again.
    expect(bytes.includes('PhoneMaker')).toBe(false);
    expect(bytes.includes('Ada')).toBe(false);
    const sos = Buffer.from([0xff, 0xda]);
    expect(bytes.subarray(bytes.indexOf(sos))).toEqual(input.subarray(input.indexOf(sos)));
    const upright = await sharp(bytes).rotate().toBuffer({ resolveWithObject: true });
    expect([upright.info.width, upright.info.height]).toEqual([32, 64]);
    const thumb = await fetch(base + urls[0]!.thumb!);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).format).toBe('webp');
    // Nothing is left staged once stored.
    expect((await readdir(join(t.dataDir, 'uploads'))).filter((n) => !n.startsWith('.'))).toEqual(
      [],
    );
  });

  it('blanks the metadata of a larger photo where it lies, and keeps the upload as the original', async () => {
    // A grainy 800×600 photo: its metadata is a small share of it.
    const input = await sharp({
      create: {
        width: 800,
        height: 600,
        channels: 3,
        background: { r: 0, g: 0, b: 0 },
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg()
      // Names long enough that the grain's random bytes never spell them by chance.
      .withMetadata({
        orientation: 6,
        exif: { IFD0: { Make: 'PhoneMaker', Artist: 'Ada Lovelace' } },
      })
      .toBuffer();
    const { media } = await upload(ada, input, { kind: 'image', name: 'IMG_2.jpg' });
    if (media.kind !== 'image') throw new Error('not stored as a photo');
    const { urls } = await urlsFor(ada, [media.image.id]);
    const bytes = Buffer.from(await (await fetch(base + urls[0]!.url)).arrayBuffer());
    // Same length, the picture at the same place: nothing moved but the metadata, blanked.
    expect(bytes.length).toBe(input.length);
    expect(media.image.size).toBe(input.length);
    const sos = Buffer.from([0xff, 0xda]);
    expect(bytes.indexOf(sos)).toBe(input.indexOf(sos));
    expect(bytes.subarray(bytes.indexOf(sos)).equals(input.subarray(input.indexOf(sos)))).toBe(
      true,
    );
    expect(bytes.includes('PhoneMaker')).toBe(false);
    expect(bytes.includes('Ada Lovelace')).toBe(false);
    const shown = await sharp(bytes).metadata();
    expect([shown.orientation, shown.exif?.includes('PhoneMaker')]).toEqual([6, false]);
    const upright = await sharp(bytes).rotate().raw().toBuffer({ resolveWithObject: true });
    expect([upright.info.width, upright.info.height]).toEqual([600, 800]);
    expect(upright.data.equals(await sharp(input).rotate().raw().toBuffer())).toBe(true);
    expect((await readdir(join(t.dataDir, 'uploads'))).filter((n) => !n.startsWith('.'))).toEqual(
      [],
    );
  });

  it('stores of a photo what is shown and nothing more, its frames as they were', async () => {
    const original = async (data: Buffer, name: string) => {
      const { media } = await upload(ada, data, { kind: 'image', name });
      if (media.kind !== 'image') throw new Error('not stored as a photo');
      const { urls } = await urlsFor(ada, [media.image.id]);
      const bytes = Buffer.from(await (await fetch(base + urls[0]!.url)).arrayBuffer());
      expect(bytes.length).toBe(media.image.size);
      return bytes;
    };
    // A JPEG with an MPF second picture and a motion photo's film after its end.
    const { input, picture } = await hiddenPhoto();
    const jpeg = await original(input, 'PXL_1.MP.jpg');
    for (const hidden of [PLACE, 'MPF\0', 'MotionPhoto', 'ftyp']) {
      expect(jpeg.includes(hidden), hidden).toBe(false);
    }
    expect(jpeg.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    expect(await sharp(jpeg).raw().toBuffer()).toEqual(await sharp(picture).raw().toBuffer());
    // A GIF with a comment, XMP and bytes after its trailer: its frames and loop, no more.
    const { input: animated, gif } = await hiddenGif();
    expect(await original(animated, 'a.gif')).toEqual(gif);
    // A WebP with EXIF, XMP and bytes after its RIFF.
    const webp = await sharp({
      create: { width: 16, height: 16, channels: 3, background: { r: 5, g: 150, b: 90 } },
    })
      .webp()
      .withExif({ IFD0: { ImageDescription: `at ${PLACE}` } })
      .withXmp(`<x:xmpmeta><rdf:Description exif:GPSLatitude="${PLACE}"/></x:xmpmeta>`)
      .toBuffer();
    const stored = await original(Buffer.concat([webp, Buffer.from(PLACE)]), 'w.webp');
    expect(webp.includes(PLACE)).toBe(true);
    expect(stored.includes(PLACE)).toBe(false);
    expect(stored.readUInt32LE(4) + 8).toBe(stored.length);
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.exif, meta.xmp]).toEqual(['webp', undefined, undefined]);
  });

  it('sends a photo as stored, readable by the chat and nobody else', async () => {
    const { media } = await upload(ada, await phonePhoto(), { kind: 'image', name: 'a.jpg' });
    if (media.kind !== 'image') throw new Error('not an image');
    const id = media.image.id;
    // What the sender claims about the photo counts for nothing but its id.
    const forged = { ...media.image, width: 9999, size: 1, mime: 'text/html' };
    const response = await sendContent(ada, adaBob, { kind: 'image', image: forged });
    expect(response.statusCode, response.body).toBe(200);
    const message = response.json<Message>();
    expect(message.content).toEqual({ kind: 'image', image: media.image });

    // Bob, in the chat, may read it; Eve may not, and cannot send it as her own.
    expect((await urlsFor(bob, [id])).urls.map((u) => u.id)).toEqual([id]);
    expect((await urlsFor(eve, [id])).urls).toEqual([]);
    const eveAda = await sendContent(eve, adaBob, { kind: 'image', image: media.image });
    expect(eveAda.statusCode).toBeGreaterThanOrEqual(400);

    // Bob forwards it to a chat of his own: allowed, it is his to see.
    const { contacts } = t.ctx.services;
    const request = await contacts.sendRequest(
      { userId: bob.user.id, sessionId: 'test' },
      { userId: eve.user.id },
    );
    await contacts.acceptRequest({ userId: eve.user.id, sessionId: 'test' }, request.id);
    const bobEve = singleConversationId(bob.user.id, eve.user.id);
    const forwarded = await sendContent(bob, bobEve, {
      kind: 'image',
      image: media.image,
      forwarded: true,
    });
    expect(forwarded.statusCode, forwarded.body).toBe(200);
    expect(forwarded.json<Message>().content).toEqual({
      kind: 'image',
      image: media.image,
      forwarded: true,
    });
    expect((await urlsFor(eve, [id])).urls.map((u) => u.id)).toEqual([id]);

    // Once Ada revokes her message, Bob can no longer get its photo through it.
    const revoked = await t.call(
      'POST',
      `/api/v1/conversations/${adaBob}/messages/${message.seq}/revoke`,
      {
        token: ada.token,
      },
    );
    expect(revoked.statusCode, revoked.body).toBe(200);
    await t.ctx.services.media.drain();
    const stillBob = await urlsFor(bob, [id]);
    // Bob still forwarded it himself, so he sees it through his own message.
    expect(stillBob.urls.map((u) => u.id)).toEqual([id]);
  });

  it('removes media with the last message that carries it, and uploads never sent after a day', async () => {
    const stored = (id: string) =>
      stat(join(t.dataDir, 'media', id, 'original')).then(
        () => true,
        () => false,
      );
    const photoOf = async (user: RegisteredUser) => {
      const { media } = await upload(user, await phonePhoto(), { kind: 'image', name: 'p.jpg' });
      if (media.kind !== 'image') throw new Error('not an image');
      return media;
    };
    // Revoked: the photo and its thumbnail go, and its addresses stop working.
    const revokedPhoto = await photoOf(ada);
    const sent = (await sendContent(ada, adaBob, revokedPhoto)).json<Message>();
    const { urls } = await urlsFor(bob, [revokedPhoto.image.id]);
    expect((await fetch(base + urls[0]!.url)).status).toBe(200);
    await t.call('POST', `/api/v1/conversations/${adaBob}/messages/${sent.seq}/revoke`, {
      token: ada.token,
    });
    await t.ctx.services.media.drain();
    expect(await stored(revokedPhoto.image.id)).toBe(false);
    expect(
      await stat(join(t.dataDir, 'media', revokedPhoto.image.id, 'thumb')).catch(() => null),
    ).toBeNull();
    expect((await fetch(base + urls[0]!.url)).status).toBe(404);

    // Burnt after reading: it goes once the message does.
    await t.call('PUT', `/api/v1/conversations/${adaBob}/burn`, {
      token: ada.token,
      body: { seconds: 10 },
    });
    const burning = await photoOf(ada);
    const burnt = (await sendContent(ada, adaBob, burning)).json<Message>();
    await t.call('POST', `/api/v1/conversations/${adaBob}/read`, {
      token: bob.token,
      body: { seq: burnt.seq },
    });
    t.clock.advance(11_000);
    await t.ctx.services.messages.purgeBurnt();
    await t.ctx.services.media.drain();
    expect(await stored(burning.image.id)).toBe(false);
    await t.call('PUT', `/api/v1/conversations/${adaBob}/burn`, {
      token: ada.token,
      body: { seconds: 0 },
    });

    // Deleted for one: kept for the other; once both deleted or cleared it, it goes.
    const cleared = await photoOf(ada);
    const clearedMessage = (await sendContent(ada, adaBob, cleared)).json<Message>();
    await t.call('POST', `/api/v1/conversations/${adaBob}/clear`, { token: ada.token });
    await t.ctx.services.media.sweep();
    expect(await stored(cleared.image.id)).toBe(true);
    const hidden = await t.call(
      'POST',
      `/api/v1/conversations/${adaBob}/messages/${clearedMessage.seq}/hide`,
      { token: bob.token },
    );
    expect(hidden.statusCode, hidden.body).toBeLessThan(300);
    await t.ctx.services.media.sweep();
    expect(await stored(cleared.image.id)).toBe(false);

    // Uploaded and never sent: kept a day for a sender who went offline, then swept.
    const unsent = await photoOf(ada);
    const kept = await photoOf(bob);
    await sendContent(bob, adaBob, kept);
    await t.ctx.services.media.sweep();
    expect(await stored(unsent.image.id)).toBe(true);
    t.clock.advance(UNSENT_MEDIA_KEPT_MS + 1);
    await t.ctx.services.media.sweep();
    expect(await stored(unsent.image.id)).toBe(false);
    expect(await stored(kept.image.id)).toBe(true);
  });

  it('stores a voice message and a video with what the browser measured, typed by their bytes', async () => {
    // Opus in Ogg, as Firefox records it (with a place in its comments): sound, by its bytes.
    const opus = await recording('voice.ogg');
    const waveform = Buffer.from(Array.from({ length: 48 }, (_, i) => (i * 5) % 256)).toString(
      'base64',
    );
    const { media: voice } = await upload(ada, opus, {
      kind: 'voice',
      name: 'voice.ogg',
      durationMs: '3200',
      waveform,
    });
    expect(voice).toMatchObject({
      kind: 'voice',
      voice: { durationMs: 3200, mime: 'audio/ogg; codecs=opus', waveform, size: opus.length },
    });
    // Longer than a voice may be: held to the limit.
    const { media: long } = await upload(ada, opus, {
      kind: 'voice',
      name: 'v.ogg',
      durationMs: '600000',
    });
    expect(long.kind === 'voice' && long.voice.durationMs).toBe(61_000);
    if (voice.kind !== 'voice') throw new Error('not a voice');
    // What the sender claims of its length counts for nothing.
    const sent = await sendContent(ada, adaBob, {
      ...voice,
      voice: { ...voice.voice, durationMs: 1 },
    });
    expect(sent.json<Message>().content).toEqual(voice);
    // A recording cut short is refused whole, and nothing of it stays (its staged bytes
    // go once the answer is out).
    expect(
      await upload(ada, opus.subarray(0, opus.length - 10), { kind: 'voice', name: 'v.ogg' }).catch(
        refusalOf,
      ),
    ).toEqual({ status: 415, code: 'MEDIA_TYPE_UNSUPPORTED' });
    await vi.waitFor(async () =>
      expect((await readdir(join(t.dataDir, 'uploads'))).filter((n) => !n.startsWith('.'))).toEqual(
        [],
      ),
    );
    // A picture sent as a voice is refused by its bytes.
    expect(
      await upload(ada, await phonePhoto(), { kind: 'voice', name: 'v.ogg' }).catch(refusalOf),
    ).toEqual({ status: 415, code: 'MEDIA_TYPE_UNSUPPORTED' });

    // A video: an MP4 by its bytes, with the poster its sender's browser made from it.
    const mp4 = withPlaces(await recording('clip.mp4'));
    const { media: poster } = await upload(ada, await phonePhoto(), {
      kind: 'image',
      name: 'p.jpg',
    });
    if (poster.kind !== 'image') throw new Error('not an image');
    const videoMeta = {
      kind: 'video',
      name: 'clip.mp4',
      durationMs: '12500',
      width: '1280',
      height: '720',
    };
    const { media: video } = await upload(ada, mp4, { ...videoMeta, poster: poster.image.id });
    expect(video).toEqual({
      kind: 'video',
      video: {
        id: expect.any(String) as string,
        width: 1280,
        height: 720,
        durationMs: 12_500,
        size: mp4.length,
        mime: 'video/mp4',
        poster: poster.image,
      },
    });
    if (video.kind !== 'video') throw new Error('not a video');
    expect((await sendContent(ada, adaBob, video)).statusCode).toBe(200);
    // Bob reads both the film and its poster.
    const { urls } = await urlsFor(bob, [video.video.id, poster.image.id]);
    expect(urls.map((u) => u.id).sort()).toEqual([video.video.id, poster.image.id].sort());
    // Both recordings are stored without the place, every byte where it was.
    const { urls: stored } = await urlsFor(ada, [voice.voice.id, video.video.id]);
    for (const { url } of stored) {
      const bytes = Buffer.from(await (await fetch(base + url)).arrayBuffer());
      expect([opus.length, mp4.length]).toContain(bytes.length);
      expect(bytes.includes(PLACE)).toBe(false);
    }
    // No poster, or someone else's: refused.
    expect(await upload(ada, mp4, videoMeta).catch(refusalOf)).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    const { media: bobs } = await upload(bob, await phonePhoto(), { kind: 'image', name: 'b.jpg' });
    if (bobs.kind !== 'image') throw new Error('not an image');
    expect(
      await upload(ada, mp4, { ...videoMeta, poster: bobs.image.id }).catch(refusalOf),
    ).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('refuses media the sender has never seen, and a kind that is not what was stored', async () => {
    const { media } = await upload(bob, Buffer.from('plain notes\n'), {
      kind: 'file',
      name: 'notes.txt',
    });
    if (media.kind !== 'file') throw new Error('not a file');
    // Ada never saw Bob's file.
    expectError(
      await sendContent(ada, adaBob, { kind: 'file', file: media.file }),
      'MEDIA_NOT_FOUND',
    );
    // A file sent as a photo.
    expectError(
      await sendContent(bob, adaBob, {
        kind: 'image',
        image: { id: media.file.id, width: 1, height: 1, size: 1, mime: 'image/png' },
      }),
      'MEDIA_NOT_FOUND',
    );
  });

  it('serves byte ranges, and refuses forged or expired addresses', async () => {
    const data = Buffer.from(Array.from({ length: 40_000 }, (_, i) => i % 251));
    const { media } = await upload(ada, data, { kind: 'file', name: 'data.bin' });
    if (media.kind !== 'file') throw new Error('not a file');
    expect(media.file).toMatchObject({
      name: 'data.bin',
      size: 40_000,
      mime: 'application/octet-stream',
    });
    const { urls } = await urlsFor(ada, [media.file.id]);
    const url = base + urls[0]!.url;
    expect(urls[0]!.thumb).toBeNull();

    const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/40000');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(data.subarray(100, 200));
    const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(data.subarray(-10));
    const beyond = await fetch(url, { headers: { range: 'bytes=50000-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */40000');

    const whole = await fetch(url);
    expect(whole.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''data.bin");
    expect(whole.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(data);

    const forged = url.replace(/s=([A-Za-z0-9_-])/, (_, c: string) => `s=${c === 'A' ? 'B' : 'A'}`);
    expect((await fetch(forged)).status).toBe(404);
    const other = url.replace('/original?', '/thumb?');
    expect((await fetch(other)).status).toBe(404);
    t.clock.advance(2 * 60 * 60 * 1000);
    const expired = await fetch(url);
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as ErrorBody).error.code).toBe('MEDIA_NOT_FOUND');
  });

  it('keeps a file name without its path, and never serves it as a page', async () => {
    const { media } = await upload(ada, Buffer.from('<script>alert(1)</script>'), {
      kind: 'file',
      name: '../../etc/évil page.html',
    });
    if (media.kind !== 'file') throw new Error('not a file');
    expect(media.file.name).toBe('évil page.html');
    const { urls } = await urlsFor(ada, [media.file.id]);
    const answer = await fetch(base + urls[0]!.url);
    expect(answer.headers.get('content-disposition')).toBe(
      "attachment; filename*=UTF-8''%C3%A9vil%20page.html",
    );
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('takes a small file whole with the request that begins its upload', async () => {
    const data = Buffer.from('a small file, sent in one request');
    const meta = (key: string, value: string) => `${key} ${Buffer.from(value).toString('base64')}`;
    const response = await fetch(base + UPLOADS_PATH, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ada.token}`,
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length),
        'upload-metadata': [meta('kind', 'file'), meta('name', 'small.txt')].join(','),
        'content-type': 'application/offset+octet-stream',
      },
      body: data,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toMatch(/^\/api\/v1\/uploads\/[0-9a-z]+$/);
    expect(response.headers.get('upload-offset')).toBe(String(data.length));
    const media = (await response.json()) as UploadedMedia;
    if (media.kind !== 'file') throw new Error('not a file');
    expect(media.file).toMatchObject({ name: 'small.txt', size: data.length });
    const { urls } = await urlsFor(ada, [media.file.id]);
    expect(Buffer.from(await (await fetch(base + urls[0]!.url)).arrayBuffer())).toEqual(data);
  });

  it('refuses too large, unsupported and over-quota uploads before storing them', async () => {
    const tooLarge = await upload(ada, Buffer.alloc(1024 * 1024 + 1), {
      kind: 'image',
      name: 'big.jpg',
    }).catch(refusalOf);
    expect(tooLarge).toEqual({ status: 413, code: 'MEDIA_TOO_LARGE' });

    const notAPhoto = await upload(ada, Buffer.from('%PDF-1.4\n%âãÏÓ\n'), {
      kind: 'image',
      name: 'photo.jpg',
    }).catch(refusalOf);
    expect(notAPhoto).toEqual({ status: 415, code: 'MEDIA_TYPE_UNSUPPORTED' });

    const badKind = await upload(ada, Buffer.from('x'), { kind: 'program', name: 'x' }).catch(
      refusalOf,
    );
    expect(badKind).toEqual({ status: 400, code: 'VALIDATION_FAILED' });

    // Eve has 3 MB a day: two files of 1.5 MB fill it, a third byte does not fit.
    const half = Buffer.alloc(1.5 * 1024 * 1024, 7);
    await upload(eve, half, { kind: 'file', name: 'a.bin' }, { chunkSize: 1024 * 1024 });
    await upload(eve, half, { kind: 'file', name: 'b.bin' }, { chunkSize: 1024 * 1024 });
    const over = await upload(eve, Buffer.from('x'), { kind: 'file', name: 'c.bin' }).catch(
      refusalOf,
    );
    expect(over).toEqual({ status: 429, code: 'MEDIA_QUOTA_EXCEEDED' });
  });

  it('counts uploads under way against the day: of 60 begun at once, only those that fit', async () => {
    const zoe = await t.register();
    const MB = 1024 * 1024;
    const tus = { 'tus-resumable': '1.0.0', authorization: `Bearer ${zoe.token}` };
    const begin = (size: number) =>
      fetch(base + UPLOADS_PATH, {
        method: 'POST',
        headers: {
          ...tus,
          'upload-length': String(size),
          'upload-metadata': `kind ${Buffer.from('file').toString('base64')},name ${Buffer.from('f.bin').toString('base64')}`,
        },
      });
    const codeOf = async (answer: Response) =>
      answer.status === 201 ? 'begun' : ((await answer.json()) as ErrorBody).error.code;
    // A photo refused once all its bytes are there gives its reservation back.
    expect(
      await upload(zoe, Buffer.alloc(MB, 1), { kind: 'image', name: 'x.jpg' }).catch(refusalOf),
    ).toEqual({ status: 415, code: 'MEDIA_TYPE_UNSUPPORTED' });
    // Zoe's day is 3 MB: 60 uploads of 1 MB begun together, each before a byte is sent.
    const answers = await Promise.all(Array.from({ length: 60 }, () => begin(MB)));
    const codes = await Promise.all(answers.map(codeOf));
    expect(codes.filter((code) => code === 'begun')).toHaveLength(3);
    expect(codes.filter((code) => code === 'MEDIA_QUOTA_EXCEEDED')).toHaveLength(57);
    // The same check called 60 times at once within one process (no requests to space them).
    const yan = await t.register();
    const checks = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        t.ctx.services.media.checkNewUpload(yan.user.id, 'file', MB, `yan${i}`),
      ),
    );
    expect(checks.filter((check) => check.status === 'fulfilled')).toHaveLength(3);
    // A cancelled upload gives its bytes back: one more may begin, and no more than that.
    const begun = answers.find((answer) => answer.status === 201)!;
    const cancelled = await fetch(new URL(begun.headers.get('location')!, base), {
      method: 'DELETE',
      headers: tus,
    });
    expect(cancelled.status).toBe(204);
    expect(await codeOf(await begin(MB))).toBe('begun');
    expect(await codeOf(await begin(1))).toBe('MEDIA_QUOTA_EXCEEDED');
    // A day on, the uploads never finished have expired and count no more.
    t.clock.advance(DAY + 1);
    await t.ctx.uploads.removeExpired();
    const again = await Promise.all(Array.from({ length: 4 }, () => begin(MB)));
    expect((await Promise.all(again.map(codeOf))).sort()).toEqual([
      'MEDIA_QUOTA_EXCEEDED',
      'begun',
      'begun',
      'begun',
    ]);
  });

  it('resumes an upload cut off midway, and keeps it from anyone else', async () => {
    const data = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7) % 256));
    const stopped = await upload(ada, data, { kind: 'file', name: 'r.bin' }, { stopAfter: 1 }).then(
      () => null,
      (error: Error) => error.message,
    );
    const uploadUrl = /^stopped:(.+)$/.exec(stopped ?? '')?.[1];
    expect(uploadUrl).toBeTruthy();
    // Someone else's upload does not exist for Eve.
    const head = await fetch(new URL(uploadUrl!, base), {
      method: 'HEAD',
      headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${eve.token}` },
    });
    expect(head.status).toBe(404);
    const resumed = await upload(
      ada,
      data,
      { kind: 'file', name: 'r.bin' },
      {
        uploadUrl: new URL(uploadUrl!, base).href,
      },
    );
    if (resumed.media.kind !== 'file') throw new Error('not a file');
    const { urls } = await urlsFor(ada, [resumed.media.file.id]);
    expect(Buffer.from(await (await fetch(base + urls[0]!.url)).arrayBuffer())).toEqual(data);
  });

  it('keeps the bytes of a request cut off in the middle of its body, and resumes after them', async () => {
    const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 13) % 251));
    const tusHeaders = { 'tus-resumable': '1.0.0', authorization: `Bearer ${ada.token}` };
    const created = await fetch(base + UPLOADS_PATH, {
      method: 'POST',
      headers: {
        ...tusHeaders,
        'upload-length': String(data.length),
        'upload-metadata': `kind ${Buffer.from('file').toString('base64')},name ${Buffer.from('cut.bin').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const address = new URL(created.headers.get('location')!, base);
    // A PATCH of the whole file whose connection drops after 200,000 bytes.
    const patch = httpRequest(address, {
      method: 'PATCH',
      headers: {
        ...tusHeaders,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(data.length),
      },
    });
    patch.on('error', () => {});
    await new Promise<void>((resolve) => patch.write(data.subarray(0, 200_000), () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    patch.destroy();
    const offset = async () => {
      const head = await fetch(address, { method: 'HEAD', headers: tusHeaders });
      return head.headers.get('upload-offset');
    };
    await vi.waitFor(async () => expect(await offset()).toBe('200000'), { timeout: 5000 });
    const resumed = await upload(
      ada,
      data,
      { kind: 'file', name: 'cut.bin' },
      {
        uploadUrl: address.href,
      },
    );
    if (resumed.media.kind !== 'file') throw new Error('not a file');
    const { urls } = await urlsFor(ada, [resumed.media.file.id]);
    expect(Buffer.from(await (await fetch(base + urls[0]!.url)).arrayBuffer())).toEqual(data);
  });

  it('cancels an unfinished upload for good', async () => {
    const stopped = await upload(
      ada,
      Buffer.alloc(40_000, 1),
      { kind: 'file', name: 'x.bin' },
      {
        stopAfter: 1,
      },
    ).then(
      () => '',
      (error: Error) => error.message,
    );
    const url = new URL(/^stopped:(.+)$/.exec(stopped)![1]!, base);
    const tus = { 'tus-resumable': '1.0.0', authorization: `Bearer ${ada.token}` };
    const removed = await fetch(url, { method: 'DELETE', headers: tus });
    expect(removed.status).toBe(204);
    expect((await fetch(url, { method: 'HEAD', headers: tus })).status).toBe(404);
  });

  it('asks for a session on every upload request', async () => {
    const response = await fetch(base + UPLOADS_PATH, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '5' },
    });
    expect(response.status).toBe(401);
  });
});

describe('byte ranges', () => {
  it('reads the forms browsers send', () => {
    expect(parseRange('bytes=0-', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=2-4', 10)).toEqual({ start: 2, end: 4 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBeNull();
    expect(parseRange('bytes=4-2', 10)).toBeNull();
    expect(parseRange('bytes=-0', 10)).toBeNull();
    expect(parseRange('bytes=0-1,4-5', 10)).toBeUndefined();
    expect(parseRange('items=0-1', 10)).toBeUndefined();
  });
});

describe('media in an S3-compatible bucket', () => {
  let s3: S3rver;
  let s3Dir: string;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    s3Dir = await mkdtemp(join(tmpdir(), 'teltlk-s3-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: 'teltlk-media', configs: [] }],
    });
    const { port } = await s3.run();
    t = await createTestApp({
      env: {
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: 'teltlk-media',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
    await rm(s3Dir, { recursive: true, force: true });
  });

  it('stores a photo and a file there and serves them, ranges included', async () => {
    const ada = await t.register();
    const send = (data: Buffer, metadata: Record<string, string>) =>
      new Promise<UploadedMedia>((resolve, reject) => {
        new Upload(data, {
          endpoint: base + UPLOADS_PATH,
          headers: { authorization: `Bearer ${ada.token}` },
          metadata,
          retryDelays: null,
          onSuccess: ({ lastResponse }) =>
            resolve(JSON.parse(lastResponse.getBody()) as UploadedMedia),
          onError: reject,
        }).start();
      });
    const photo = await send(await phonePhoto(), { kind: 'image', name: 'p.jpg' });
    const data = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 256));
    const file = await send(data, { kind: 'file', name: 'f.bin' });
    if (photo.kind !== 'image' || file.kind !== 'file') throw new Error('wrong kinds');
    const answer = await t.call('POST', '/api/v1/media/urls', {
      token: ada.token,
      body: { ids: [photo.image.id, file.file.id] },
    });
    const { urls } = answer.json<MediaUrlsResult>();
    const byId = new Map(urls.map((u) => [u.id, u]));
    const thumb = await fetch(base + byId.get(photo.image.id)!.thumb!);
    expect(thumb.status).toBe(200);
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).format).toBe('webp');
    const part = await fetch(base + byId.get(file.file.id)!.url, {
      headers: { range: 'bytes=1000-1009' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 1000-1009/10000');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(data.subarray(1000, 1010));
    // The bytes are in the bucket, not on this node's disk.
    await expect(readdir(join(t.dataDir, 'media'))).rejects.toThrow();
  });
});
