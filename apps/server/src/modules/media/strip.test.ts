import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { padJpegHead, stripJpeg, stripJpegHead, stripPng } from './strip.js';

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
      png.subarray(iend),
    ]);
    const output = stripPng(input)!;
    expect(output.includes('Ada at home')).toBe(false);
    expect(output).toEqual(png);
    expect(await sharp(output).raw().toBuffer()).toEqual(await sharp(png).raw().toBuffer());
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
