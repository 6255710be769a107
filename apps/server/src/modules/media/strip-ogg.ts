import { unreadable, type StagedFile } from './staged-file.js';

/*
 * Ogg (Opus, Vorbis, Theora). A stream's second packet is its comment header: the
 * vendor string, then the user comments (LOCATION=…, ARTIST=…, cover pictures). It is
 * written again at the same length with the vendor and no comments, zeros after them
 * (which the three formats' decoders leave unread), in the pages it lies in; each of those
 * pages gets its checksum again. No page moves, so their numbers and granules stay right.
 * Every page must follow the one before to the end of the file: bytes between pages,
 * which players skip over, would be a place nobody sees.
 */

const CAPTURE = Buffer.from('OggS', 'latin1');
const HEADER_BYTES = 27;
const BEGINNING_OF_STREAM = 0x02;

/** What a stream's first packet starts with, and what its comment header must start with. */
const CODECS = [
  {
    head: Buffer.from('OpusHead', 'latin1'),
    tags: Buffer.from('OpusTags', 'latin1'),
    framing: false,
  },
  {
    head: Buffer.from('\x01vorbis', 'latin1'),
    tags: Buffer.from('\x03vorbis', 'latin1'),
    framing: true,
  },
  {
    head: Buffer.from('\x80theora', 'latin1'),
    tags: Buffer.from('\x81theora', 'latin1'),
    framing: false,
  },
];
type Codec = (typeof CODECS)[number];

/** Where a piece of a packet lies: in which page (its start and length), at which offset, how long. */
interface Piece {
  page: number;
  pageLength: number;
  at: number;
  length: number;
}

/** A logical stream while its headers are read. */
interface Stream {
  codec: Codec | null;
  /** Complete packets seen. */
  packets: number;
  /** The packet being gathered (of the first two only). */
  pieces: Piece[];
}

/** Strips an Ogg file in place (see above). */
export async function stripOgg(file: StagedFile): Promise<void> {
  const streams = new Map<number, Stream>();
  const comments: { codec: Codec; pieces: Piece[] }[] = [];
  for (let at = 0; at < file.size;) {
    const header = await file.read(at, HEADER_BYTES);
    if (!header.subarray(0, 4).equals(CAPTURE) || header[4] !== 0) unreadable('not an Ogg page');
    const flags = header[5]!;
    const serial = header.readUInt32LE(14);
    const lacing = [...(await file.read(at + HEADER_BYTES, header[26]!))];
    const pageLength = HEADER_BYTES + lacing.length + lacing.reduce((a, b) => a + b, 0);
    if (at + pageLength > file.size) unreadable('page cut short');
    let stream = streams.get(serial);
    if (flags & BEGINNING_OF_STREAM) {
      if (stream) unreadable('stream begun twice');
      stream = { codec: null, packets: 0, pieces: [] };
      streams.set(serial, stream);
    }
    if (!stream) unreadable('page of no stream');
    let data = at + HEADER_BYTES + lacing.length;
    let pieceAt = data;
    for (const [index, value] of lacing.entries()) {
      data += value;
      // A lacing value under 255 ends a packet; one of 255 at the page's end goes on in the next.
      const ends = value < 255;
      if (!ends && index < lacing.length - 1) continue;
      if (stream.packets < 2)
        stream.pieces.push({ page: at, pageLength, at: pieceAt, length: data - pieceAt });
      pieceAt = data;
      if (!ends) continue;
      if (stream.packets === 0) stream.codec = await codecOf(file, stream.pieces);
      else if (stream.packets === 1) comments.push({ codec: stream.codec!, pieces: stream.pieces });
      stream.packets += 1;
      stream.pieces = [];
    }
    at += pageLength;
  }
  for (const stream of streams.values()) {
    if (stream.packets < 2) unreadable('stream without its comment header');
  }
  await rewriteComments(file, comments);
}

async function codecOf(file: StagedFile, pieces: Piece[]): Promise<Codec> {
  const packet = await gather(file, pieces);
  const codec = CODECS.find(({ head }) => packet.subarray(0, head.length).equals(head));
  if (!codec) unreadable('a stream of an unknown kind');
  return codec;
}

async function gather(file: StagedFile, pieces: Piece[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (const { at, length } of pieces) parts.push(Buffer.from(await file.read(at, length)));
  return Buffer.concat(parts);
}

/** The comment headers emptied, written back into their pages, each page's checksum made again. */
async function rewriteComments(
  file: StagedFile,
  comments: { codec: Codec; pieces: Piece[] }[],
): Promise<void> {
  const pages = new Map<number, Buffer>();
  for (const { codec, pieces } of comments) {
    const packet = await gather(file, pieces);
    if (!packet.subarray(0, codec.tags.length).equals(codec.tags)) unreadable('no comment header');
    const emptied = emptyComments(packet, codec);
    let offset = 0;
    for (const piece of pieces) {
      let page = pages.get(piece.page);
      if (!page) {
        page = Buffer.from(await file.read(piece.page, piece.pageLength));
        pages.set(piece.page, page);
      }
      emptied.copy(page, piece.at - piece.page, offset, offset + piece.length);
      offset += piece.length;
    }
  }
  for (const [at, page] of pages) {
    page.writeUInt32LE(0, 22);
    page.writeUInt32LE(oggCrc(page), 22);
    file.write(at, page);
  }
}

/** A comment header of the same length: its vendor string, no comments, zeros. */
function emptyComments(packet: Buffer, codec: Codec): Buffer {
  const vendorAt = codec.tags.length;
  if (vendorAt + 4 > packet.length) unreadable('comment header cut short');
  const countAt = vendorAt + 4 + packet.readUInt32LE(vendorAt);
  // Vorbis ends its header with a framing bit, which must be set.
  if (countAt + 4 + (codec.framing ? 1 : 0) > packet.length) unreadable('comment header cut short');
  const emptied = Buffer.alloc(packet.length);
  packet.copy(emptied, 0, 0, countAt);
  if (codec.framing) emptied[countAt + 4] = 1;
  return emptied;
}

/** Ogg's CRC-32: polynomial 0x04c11db7, not reflected, starting from zero. */
const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 24;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  return crc >>> 0;
});

export function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}
