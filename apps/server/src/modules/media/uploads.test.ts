import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  UPLOADS_PATH,
  type ErrorBody,
  type Message,
  type MediaUrlsResult,
  type UploadedMedia,
} from '@teltlk/protocol';
import S3rver from 's3rver';
import sharp from 'sharp';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, dialects, type RegisteredUser, type TestApp } from '../../test/harness.js';
import { PLACE, recording, withPlaces } from '../../test/media.js';
import { DAY } from '../../lib/clock.js';
import { mediaApi, mediaWorld, phonePhoto, refusalOf } from '../../test/media-api.js';

describe.each(dialects)('uploads on $dialect', ({ dialect }) => {
  let t: TestApp;
  let base: string;
  let ada: RegisteredUser;
  let bob: RegisteredUser;
  let eve: RegisteredUser;
  let adaBob: string;
  const { upload, sendContent, urlsFor } = mediaApi(
    () => t,
    () => base,
  );

  beforeAll(async () => {
    ({ t, base, ada, bob, eve, adaBob } = await mediaWorld(dialect));
  });
  afterAll(() => t.close());

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
