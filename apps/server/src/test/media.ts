import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

/** A place, as phones write it, hidden in the media of the tests. */
export const PLACE = '+37.7749-122.4194/';

/** A recording made by media/make.sh. */
export function recording(name: string): Promise<Buffer> {
  return readFile(new URL(`media/${name}`, import.meta.url));
}

export function jpegSegment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** An MPF index (CIPA DC-007) naming a second picture `size` bytes long at `offset`. */
function mpfSegment(size: number, offset: number): Buffer {
  const ifd = Buffer.alloc(8 + 2 + 3 * 12 + 4 + 2 * 16);
  ifd.write('MM', 0, 'latin1');
  ifd.writeUInt16BE(42, 2);
  ifd.writeUInt32BE(8, 4);
  ifd.writeUInt16BE(3, 8);
  const entry = (i: number, tag: number, type: number, count: number, value: number | string) => {
    const at = 10 + i * 12;
    ifd.writeUInt16BE(tag, at);
    ifd.writeUInt16BE(type, at + 2);
    ifd.writeUInt32BE(count, at + 4);
    if (typeof value === 'string') ifd.write(value, at + 8, 'latin1');
    else ifd.writeUInt32BE(value, at + 8);
  };
  entry(0, 0xb000, 7, 4, '0100');
  entry(1, 0xb001, 4, 1, 2);
  entry(2, 0xb002, 7, 32, 10 + 3 * 12 + 4);
  const entries = 10 + 3 * 12 + 4;
  ifd.writeUInt32BE(0x20030000, entries); // the first picture: primary, baseline
  ifd.writeUInt32BE(0x00010000, entries + 16 + 0);
  ifd.writeUInt32BE(size, entries + 16 + 4);
  ifd.writeUInt32BE(offset, entries + 16 + 8);
  return jpegSegment(0xe2, Buffer.concat([Buffer.from('MPF\0', 'latin1'), ifd]));
}

/**
 * A phone's photo that holds more than it shows: an MPF second picture (with the place
 * in its EXIF) and a motion photo's film after the end of image, the film's own bytes
 * holding the place too, both announced in the head (MPF, and XMP as Google's motion
 * photos write it).
 */
export async function hiddenPhoto(): Promise<{ input: Buffer; picture: Buffer }> {
  const picture = await sharp({
    create: { width: 40, height: 20, channels: 3, background: { r: 10, g: 120, b: 200 } },
  })
    .jpeg()
    .toBuffer();
  const second = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } },
  })
    .jpeg()
    .withMetadata({ exif: { IFD0: { ImageDescription: PLACE } } })
    .toBuffer();
  const film = await readFile(new URL('media/clip.mov', import.meta.url));
  if (!film.includes(PLACE)) throw new Error('the film should hold the place');
  const xmp = jpegSegment(
    0xe1,
    Buffer.from(
      'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description ' +
        `GCamera:MotionPhoto="1" GCamera:MicroVideoOffset="${film.length}"/></rdf:RDF></x:xmpmeta>`,
      'latin1',
    ),
  );
  const head = Buffer.concat([picture.subarray(0, 2), xmp]);
  const mpf = mpfSegment(second.length, 0);
  const input = Buffer.concat([head, mpf, picture.subarray(2), second, film]);
  return { input, picture };
}

/**
 * An animated GIF (two frames, looping three times) and the same with a comment and XMP
 * holding a place before its frames, and more after its trailer.
 */
export async function hiddenGif(): Promise<{ input: Buffer; gif: Buffer }> {
  const frame = (r: number) =>
    sharp({ create: { width: 12, height: 10, channels: 3, background: { r, g: 80, b: 40 } } })
      .png()
      .toBuffer();
  const gif = await sharp([await frame(200), await frame(20)], { join: { animated: true } })
    .gif({ loop: 3, delay: [120, 80] })
    .toBuffer();
  const packed = gif[10]!;
  const blocks = 13 + (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0);
  const comment = Buffer.concat([
    Buffer.from([0x21, 0xfe]),
    subBlocks(Buffer.from(`taken at ${PLACE}`)),
  ]);
  // XMP as Adobe writes it into a GIF: raw, then a "magic trailer" that ends any sub-block walk.
  const xmp = Buffer.concat([
    Buffer.from([0x21, 0xff, 11]),
    Buffer.from('XMP DataXMP', 'latin1'),
    Buffer.from(`<x:xmpmeta><rdf:Description exif:GPSLatitude="${PLACE}"/></x:xmpmeta>`),
    Buffer.from([1, ...Array.from({ length: 256 }, (_, i) => 255 - i), 0]),
  ]);
  const input = Buffer.concat([
    gif.subarray(0, blocks),
    comment,
    xmp,
    gif.subarray(blocks),
    Buffer.from(`after the trailer ${PLACE}`),
  ]);
  return { input, gif };
}

/** Bytes as GIF data sub-blocks: length-prefixed pieces, then an empty one. */
function subBlocks(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const piece = data.subarray(at, at + 255);
    parts.push(Buffer.from([piece.length]), piece);
  }
  return Buffer.concat([...parts, Buffer.from([0])]);
}

/** An ISO base media box. */
export function box(type: string, ...content: Buffer[]): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 4, 'latin1');
  const whole = Buffer.concat([head, ...content]);
  whole.writeUInt32BE(whole.length, 0);
  return whole;
}

/** `udta` with the place as Android's camera writes it (©xyz, ISO 6709). */
export function placeBox(): Buffer {
  const place = Buffer.from(PLACE, 'latin1');
  const head = Buffer.alloc(4);
  head.writeUInt16BE(place.length, 0);
  head.writeUInt16BE(0x15c7, 2);
  return box('udta', box('\xa9xyz', head, place));
}

/** `meta` with the place as Apple's cameras write it: keys named in `keys`, values in `ilst`. */
export function appleMeta(): Buffer {
  const key = Buffer.from('com.apple.quicktime.location.ISO6709', 'latin1');
  const keyEntry = Buffer.concat([u32(8 + key.length), Buffer.from('mdta'), key]);
  const value = box('data', u32(1), u32(0), Buffer.from(PLACE, 'latin1'));
  return box(
    'meta',
    u32(0),
    box('hdlr', u32(0), u32(0), Buffer.from('mdta'), Buffer.alloc(13)),
    box('keys', u32(0), u32(1), keyEntry),
    box('ilst', box('\0\0\0\x01', value)),
  );
}

/** XMP in a `uuid` box, as Adobe's tools write it into films. */
export function xmpBox(): Buffer {
  const uuid = Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex');
  return box('uuid', uuid, Buffer.from(`<x:xmpmeta><exif:GPSLatitude>${PLACE}</exif:GPSLatitude>`));
}

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value, 0);
  return bytes;
}

/**
 * An MP4 (its moov after its mdat) with the place where cameras and editors put it: in
 * the movie's and the first track's udta, in the movie's meta, in XMP after the movie,
 * and in bytes at the end of mdat that no sample points at.
 */
export function withPlaces(mp4: Buffer): Buffer {
  const boxes: Buffer[] = [];
  for (let at = 0; at < mp4.length; at += mp4.readUInt32BE(at)) {
    boxes.push(mp4.subarray(at, at + mp4.readUInt32BE(at)));
  }
  const type = (part: Buffer) => part.toString('latin1', 4, 8);
  if (type(boxes.at(-1)!) !== 'moov') throw new Error('the movie box should come last');
  return Buffer.concat(
    boxes.map((part) => {
      if (type(part) === 'mdat') {
        return box('mdat', part.subarray(8), Buffer.from(`hidden in mdat ${PLACE}`));
      }
      if (type(part) !== 'moov') return part;
      const children: Buffer[] = [];
      let trak = false;
      for (let at = 8; at < part.length; at += part.readUInt32BE(at)) {
        const child = part.subarray(at, at + part.readUInt32BE(at));
        if (type(child) === 'trak' && !trak) {
          trak = true;
          children.push(box('trak', child.subarray(8), placeBox()));
        } else children.push(child);
      }
      return Buffer.concat([box('moov', ...children, placeBox(), appleMeta()), xmpBox()]);
    }),
  );
}
