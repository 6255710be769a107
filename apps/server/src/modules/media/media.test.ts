import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { singleConversationId, type Message } from '@teltlk/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectError, type RegisteredUser, type TestApp } from '../../test/harness.js';
import { befriend } from '../../test/fixtures.js';
import { PLACE, hiddenGif, hiddenPhoto } from '../../test/media.js';
import { parseRange } from './routes.js';
import { UNSENT_MEDIA_KEPT_MS } from './service.js';
import { mediaApi, mediaWorld, phonePhoto } from '../../test/media-api.js';

describe.each(dialects)('media on $dialect', ({ dialect }) => {
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

  it('serves a message’s media by the messages’ rule: not once burnt, nor to whoever deleted it', async () => {
    const [cat, dan] = await Promise.all([t.register(), t.register()]);
    await befriend(t, cat, dan);
    const catDan = singleConversationId(cat.user.id, dan.user.id);
    const sendPhoto = async () => {
      const { media } = await upload(cat, await phonePhoto(), { kind: 'image', name: 'c.jpg' });
      if (media.kind !== 'image') throw new Error('not an image');
      const response = await sendContent(cat, catDan, { kind: 'image', image: media.image });
      expect(response.statusCode, response.body).toBe(200);
      return { id: media.image.id, image: media.image, seq: response.json<Message>().seq };
    };
    const seen = async (user: RegisteredUser, id: string) =>
      (await urlsFor(user, [id])).urls.map((url) => url.id);

    // Dan deletes a photo for himself: it is no longer his to get; Cat, who sent it, still may.
    const hidden = await sendPhoto();
    expect(await seen(dan, hidden.id)).toEqual([hidden.id]);
    const hide = await t.call(
      'POST',
      `/api/v1/conversations/${catDan}/messages/${hidden.seq}/hide`,
      { token: dan.token },
    );
    expect(hide.statusCode, hide.body).toBeLessThan(300);
    expect(await seen(dan, hidden.id)).toEqual([]);
    const byId = await t.call('GET', `/api/v1/media/${hidden.id}`, { token: dan.token });
    expect(byId.statusCode).toBe(404);
    const forward = await sendContent(dan, catDan, {
      kind: 'image',
      image: hidden.image,
      forwarded: true,
    });
    expect(forward.statusCode).toBeGreaterThanOrEqual(400);

    // A photo sent with burning on burns once read: nobody gets it after, whoever stored it.
    const burn = await t.call('PUT', `/api/v1/conversations/${catDan}/burn`, {
      token: cat.token,
      body: { seconds: 10 },
    });
    expect(burn.statusCode, burn.body).toBe(200);
    const burning = await sendPhoto();
    const read = await t.call('POST', `/api/v1/conversations/${catDan}/read`, {
      token: dan.token,
      body: { seq: burning.seq },
    });
    expect(read.statusCode, read.body).toBeLessThan(300);
    expect(await seen(dan, burning.id)).toEqual([burning.id]);
    t.clock.advance(11_000);
    expect(await seen(dan, burning.id)).toEqual([]);
    // Cat still owns the upload; but Dan, who only had it through the message, does not.
    expect(await seen(cat, burning.id)).toEqual([burning.id]);
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
