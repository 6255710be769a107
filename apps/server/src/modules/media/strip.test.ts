import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PLACE, hiddenGif, hiddenPhoto, jpegSegment } from '../../test/media.js';
import { padJpegHead, stripGif, stripJpeg, stripJpegHead, stripPng } from './strip.js';

/** A JPEG as a phone writes it: EXIF with the camera and the artist, turned (orientation 6). */
async function phoneJpeg(): Promise<Buffer> {
  const jpeg = await sharp({
    create: { width: 40, height: 20, channels: 3, background: { r: 10, g: 120, b: 200 } },
  })
    .jpeg()
    .withMetadata({ orientation: 6, exif: { IFD0: { Make: 'PhoneMaker', Artist: 'Ada' } } })
    .toBuffer();
  // And a comment segment, which some cameras and editors write, after the start of image.
  const comment = Buffer.from('taken at 12 Rue de la Paix');
  const segment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, comment.length + 2]), comment]);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

/** The bytes from the start of scan on: the encoded picture itself. */
function scan(jpeg: Buffer): Buffer {
  return jpeg.subarray(jpeg.indexOf(Buffer.from([0xff, 0xda])));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

describe('metadata stripped without decoding', () => {
  it('drops EXIF and comments from a JPEG and keeps its picture and its orientation', async () => {
    const input = await phoneJpeg();
    expect(input.includes('PhoneMaker')).toBe(true);
    const output = stripJpeg(input, 6)!;
    for (const secret of ['PhoneMaker', 'Ada', 'Rue de la Paix']) {
      expect(output.includes(secret)).toBe(false);
    }
    expect(scan(output)).toEqual(scan(input));
    const meta = await sharp(output).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 40, height: 20, orientation: 6 });
    // Upright, the picture decodes as before.
    const before = await sharp(input).rotate().raw().toBuffer();
    const after = await sharp(output).rotate().raw().toBuffer();
    expect(after).toEqual(before);
    // An upright photo keeps no EXIF at all.
    expect((await sharp(stripJpeg(input, 1)!).metadata()).exif).toBeUndefined();
  });

  it('keeps nothing after the end of a JPEG: no MPF second picture, no motion photo', async () => {
    const { input, picture } = await hiddenPhoto();
    const output = stripJpeg(input, 1)!;
    const stripped = stripJpegHead(input, 1)!;
    for (const secret of [PLACE, 'MPF\0', 'MotionPhoto', 'ftyp']) {
      expect(output.includes(secret), secret).toBe(false);
    }
    // The picture's bytes, up to and with its end of image, and nothing after.
    expect(output.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    expect(stripped.end).toBe(input.indexOf(picture.subarray(2)) + picture.length - 2);
    expect(scan(output)).toEqual(scan(picture));
    expect(await sharp(output).raw().toBuffer()).toEqual(await sharp(picture).raw().toBuffer());
    // Cut short, with no end of image: refused.
    expect(stripJpegHead(picture.subarray(0, -2), 1)).toBeNull();
    expect(stripJpeg(picture.subarray(0, picture.length - 40), 1)).toBeNull();
  });

  it("keeps JFIF without its thumbnail, and the scans' tables but not metadata between them", async () => {
    const progressive = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 20, b: 200 } },
    })
      .jpeg({ progressive: true })
      .toBuffer();
    // JFIF with a 1×1 thumbnail, and a comment between the first two scans.
    const fields = Buffer.from([...Buffer.from('JFIF\0', 'latin1'), 1, 2, 0, 0, 1, 0, 1]);
    const jfif = jpegSegment(0xe0, Buffer.concat([fields, Buffer.from([1, 1, 9, 9, 9])]));
    const sos = progressive.indexOf(Buffer.from([0xff, 0xda]));
    const secondScan = progressive.indexOf(Buffer.from([0xff, 0xda]), sos + 2);
    const nextTables = progressive.lastIndexOf(Buffer.from([0xff, 0xc4]), secondScan);
    expect(secondScan).toBeGreaterThan(sos);
    const cut = nextTables > sos ? nextTables : secondScan;
    const input = Buffer.concat([
      progressive.subarray(0, 2),
      jfif,
      progressive.subarray(2, cut),
      jpegSegment(0xfe, Buffer.from(`between the scans ${PLACE}`)),
      progressive.subarray(cut),
    ]);
    const stripped = stripJpegHead(input, 1)!;
    expect(stripped.between).toHaveLength(1);
    const output = stripJpeg(input, 1)!;
    expect(output.includes(PLACE)).toBe(false);
    expect(await sharp(output).raw().toBuffer()).toEqual(await sharp(progressive).raw().toBuffer());
    const noThumbnail = jpegSegment(0xe0, Buffer.concat([fields, Buffer.from([0, 0])]));
    expect(output).toEqual(
      Buffer.concat([progressive.subarray(0, 2), noThumbnail, progressive.subarray(2)]),
    );
  });

  it('drops text, time and EXIF chunks from a PNG and keeps the rest', async () => {
    const png = await sharp({
      create: { width: 8, height: 8, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const iend = png.length - 12;
    const input = Buffer.concat([
      png.subarray(0, iend),
      pngChunk('tEXt', Buffer.from('Author\0Ada at home')),
      pngChunk('tIME', Buffer.from([7, 234, 11, 26, 12, 0, 0])),
      // A private chunk (its first letter small: safe to ignore), as editors write them.
      pngChunk('prIv', Buffer.from(`taken at ${PLACE}`)),
      png.subarray(iend),
      // And bytes after the end.
      Buffer.from(`after the end ${PLACE}`),
    ]);
    const output = stripPng(input)!;
    expect(output.includes('Ada at home')).toBe(false);
    expect(output.includes(PLACE)).toBe(false);
    expect(output).toEqual(png);
    // Cut short (no IEND), or a critical chunk nobody knows: refused.
    expect(stripPng(png.subarray(0, iend))).toBeNull();
    const critical = Buffer.concat([
      png.subarray(0, iend),
      pngChunk('ZZZZ', Buffer.alloc(1)),
      png.subarray(iend),
    ]);
    expect(stripPng(critical)).toBeNull();
    expect(await sharp(output).raw().toBuffer()).toEqual(await sharp(png).raw().toBuffer());
  });

  it("drops a GIF's comments, XMP and what follows its end, and keeps its frames and loop", async () => {
    const { input, gif } = await hiddenGif();
    expect((await sharp(input).metadata()).pages).toBe(2);
    const output = stripGif(input)!;
    expect(output.includes(PLACE)).toBe(false);
    expect(output.includes('XMP DataXMP')).toBe(false);
    expect(output.includes('NETSCAPE2.0')).toBe(true);
    expect(output).toEqual(gif);
    const meta = await sharp(output).metadata();
    expect([meta.pages, meta.loop, meta.delay]).toEqual([2, 3, [120, 80]]);
    const frames = (data: Buffer) => sharp(data, { animated: true }).raw().toBuffer();
    expect(await frames(output)).toEqual(await frames(gif));
    // Cut inside a frame: refused; every block whole but the trailer missing: given one.
    expect(stripGif(gif.subarray(0, gif.length - 5))).toBeNull();
    expect(stripGif(gif.subarray(0, -1))).toEqual(gif);
  });

  it('refuses what is not well formed', () => {
    expect(stripJpeg(Buffer.from('not a jpeg'), 1)).toBeNull();
    expect(stripJpeg(Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x40, 0x00, 1, 2]), 1)).toBeNull();
    expect(stripPng(Buffer.from('not a png at all'))).toBeNull();
  });

  it("pads a stripped head to the old head's length with empty comments, one to many", async () => {
    const input = await phoneJpeg();
    const stripped = stripJpegHead(input, 6)!;
    const picture = await sharp(input).raw().toBuffer();
    for (const extra of [0, 4, 5, 70_000, 65_537 * 2 + 2]) {
      const length = stripped.scanFrom + extra;
      const padded = padJpegHead(stripped.head, length)!;
      expect(padded.length).toBe(length);
      const file = Buffer.concat([padded, input.subarray(stripped.scanFrom)]);
      for (const secret of ['PhoneMaker', 'Ada', 'Rue de la Paix']) {
        expect(file.includes(secret)).toBe(false);
      }
      expect((await sharp(file).metadata()).orientation).toBe(6);
      expect(await sharp(file).raw().toBuffer()).toEqual(picture);
    }
    // One to three bytes cannot hold a segment.
    for (const extra of [1, 2, 3]) {
      expect(padJpegHead(stripped.head, stripped.head.length + extra)).toBeNull();
    }
    expect(padJpegHead(stripped.head, stripped.head.length)).toBe(stripped.head);
  });
});
