import { unreadable, type StagedFile } from './staged-file.js';

/*
 * ISO base media files (MP4, M4A, QuickTime, 3GP). Boxes are kept by name where they
 * play a part in showing the picture or the sound; any other box (udta with ©xyz, meta
 * with Apple's location keys, XMP in a uuid box, makers' own) becomes a `free` box of
 * the same size with zeros inside. Only picture and sound tracks stay: a text, timecode
 * or timed-metadata track (a camera's GPS log) goes with its samples. Within mdat, the
 * bytes no remaining sample points at are zeroed. Creation and modification times are
 * zeroed, and handler names emptied.
 */

/** Boxes kept where they are found; the others are blanked. */
const KEPT_TOP = new Set(['ftyp', 'styp', 'moov', 'moof', 'mdat', 'mfra', 'sidx', 'ssix']);
const KEPT_IN: Record<string, Set<string>> = {
  moov: new Set(['mvhd', 'trak', 'mvex', 'iods']),
  trak: new Set(['tkhd', 'tref', 'edts', 'mdia', 'tapt']),
  mdia: new Set(['mdhd', 'hdlr', 'minf', 'elng']),
  minf: new Set(['vmhd', 'smhd', 'hmhd', 'nmhd', 'sthd', 'gmhd', 'hdlr', 'dinf', 'stbl']),
  moof: new Set(['mfhd', 'traf', 'pssh']),
  traf: new Set(['tfhd', 'tfdt', 'trun', 'sbgp', 'sgpd', 'subs', 'saiz', 'saio', 'senc']),
};
/** Padding: kept, its content zeroed. */
const PADDING = new Set(['free', 'skip', 'wide']);
/** Tracks that are shown or heard. */
const KEPT_HANDLERS = new Set(['vide', 'soun']);
/** An index (moov, moof) larger than this is not a phone's. */
const INDEX_MAX_BYTES = 64 * 1024 * 1024;

interface Box {
  type: string;
  at: number;
  /** End of the size and type fields (a 64-bit size included): where `free` padding starts. */
  headerEnd: number;
  /** Where the content starts (after a uuid box's own type). */
  dataAt: number;
  end: number;
}

/** The box whose header is at `at` of `bytes` (which sit at `base` in the file), within `limit`. */
function boxIn(bytes: Buffer, at: number, limit: number, base = 0): Box {
  if (at + 8 > limit) unreadable('box header cut short');
  let size = bytes.readUInt32BE(at - base);
  const type = bytes.toString('latin1', at - base + 4, at - base + 8);
  let headerEnd = at + 8;
  if (size === 1) {
    if (at + 16 > limit) unreadable('box header cut short');
    size = Number(bytes.readBigUInt64BE(at - base + 8));
    headerEnd = at + 16;
  } else if (size === 0) {
    size = limit - at;
  }
  const dataAt = type === 'uuid' ? headerEnd + 16 : headerEnd;
  const end = at + size;
  if (!Number.isSafeInteger(end) || end < dataAt || end > limit) unreadable(`box ${type} overruns`);
  return { type, at, headerEnd, dataAt, end };
}

/** The boxes of an index held in memory (`index` sits at `base` in the file), from `start` to `end`. */
function childrenOf(index: Buffer, base: number, start: number, end: number): Box[] {
  const boxes: Box[] = [];
  for (let at = start; at < end;) {
    const box = boxIn(index, at, end, base);
    boxes.push(box);
    at = box.end;
  }
  return boxes;
}

/** A track as its index describes it. */
interface Track {
  id: number;
  kept: boolean;
  /** Its chunks: where each starts, and how long it is (null: up to the next chunk). */
  chunks: { at: number; length: number | null }[];
  /** Fragments: the sample size a trun leaves out (from trex). */
  defaultSampleSize: number;
}

/** An index box read into memory, changed there, and written back whole. */
class Index {
  constructor(
    readonly bytes: Buffer,
    readonly base: number,
  ) {}

  u8(at: number): number {
    return this.bytes.readUInt8(at - this.base);
  }
  u32(at: number): number {
    return this.bytes.readUInt32BE(at - this.base);
  }
  i32(at: number): number {
    return this.bytes.readInt32BE(at - this.base);
  }
  u64(at: number): number {
    const value = Number(this.bytes.readBigUInt64BE(at - this.base));
    if (!Number.isSafeInteger(value)) unreadable('offset out of range');
    return value;
  }
  text(at: number, length: number): string {
    return this.bytes.toString('latin1', at - this.base, at - this.base + length);
  }
  children(box: Box): Box[] {
    return childrenOf(this.bytes, this.base, box.dataAt, box.end);
  }
  zero(start: number, end: number): void {
    this.bytes.fill(0, start - this.base, end - this.base);
  }
  /** A box becomes `free`, its content zeros. */
  blank(box: Box): void {
    this.bytes.write('free', box.at + 4 - this.base, 'latin1');
    this.zero(box.headerEnd, box.end);
  }
  /** The boxes of a container kept or blanked by its list; padding zeroed. */
  sorted(box: Box): Box[] {
    const kept = KEPT_IN[box.type]!;
    return this.children(box).filter((child) => {
      if (PADDING.has(child.type)) this.zero(child.dataAt, child.end);
      else if (!kept.has(child.type)) this.blank(child);
      return kept.has(child.type);
    });
  }
  /** A full box's creation and modification times (version 0: 32 bits each, 1: 64). */
  zeroTimes(box: Box): void {
    const wide = this.u8(box.dataAt) === 1;
    this.zero(box.dataAt + 4, box.dataAt + 4 + (wide ? 16 : 8));
  }
}

/** Strips an ISO base media file in place (see above). */
export async function stripIsoBmff(file: StagedFile): Promise<void> {
  const top: Box[] = [];
  for (let at = 0; at < file.size;) {
    const box = boxIn(await file.peek(at, 16), at, file.size, at);
    top.push(box);
    at = box.end;
  }
  const moovs = top.filter((box) => box.type === 'moov');
  if (moovs.length !== 1) unreadable('not one moov');
  const mdats: [number, number][] = [];
  for (const box of top) {
    if (box.type === 'mdat') mdats.push([box.dataAt, box.end]);
    else if (PADDING.has(box.type)) file.zero(box.dataAt, box.end);
    else if (!KEPT_TOP.has(box.type)) {
      file.zero(box.headerEnd, box.end);
      file.write(box.at + 4, Buffer.from('free', 'latin1'));
    }
  }

  const moov = await readIndex(file, moovs[0]!);
  const tracks = tracksOf(moov, moovs[0]!);
  file.write(moov.base, moov.bytes);
  if (![...tracks.values()].some((track) => track.kept)) unreadable('no picture or sound');

  // Samples in fragments (as browsers record): each trun's bytes.
  const played: [number, number][] = [];
  for (const box of top) {
    if (box.type !== 'moof') continue;
    const moof = await readIndex(file, box);
    played.push(...fragmentSamples(moof, box, tracks));
    file.write(moof.base, moof.bytes);
  }
  played.push(...chunkRanges(tracks, mdats));
  zeroUnplayed(file, mdats, played);
}

async function readIndex(file: StagedFile, box: Box): Promise<Index> {
  if (box.end - box.at > INDEX_MAX_BYTES) unreadable('index too large');
  return new Index(Buffer.from(await file.read(box.at, box.end - box.at)), box.at);
}

/** The tracks of the movie box, each read and cleaned; a track neither shown nor heard is blanked. */
function tracksOf(moov: Index, box: Box): Map<number, Track> {
  const tracks = new Map<number, Track>();
  const defaults = new Map<number, number>();
  for (const child of moov.sorted(box)) {
    if (child.type === 'mvhd') moov.zeroTimes(child);
    if (child.type === 'mvex') {
      for (const trex of moov.children(child)) {
        if (trex.type === 'trex')
          defaults.set(moov.u32(trex.dataAt + 4), moov.u32(trex.dataAt + 16));
        else if (PADDING.has(trex.type)) moov.zero(trex.dataAt, trex.end);
      }
    }
    if (child.type !== 'trak') continue;
    const track = trackOf(moov, child);
    if (tracks.has(track.id)) unreadable('two tracks of one id');
    tracks.set(track.id, track);
    if (!track.kept) moov.blank(child);
  }
  for (const [id, size] of defaults) {
    const track = tracks.get(id);
    if (track) track.defaultSampleSize = size;
  }
  return tracks;
}

function trackOf(moov: Index, trak: Box): Track {
  let id: number | null = null;
  let handler = '';
  let stbl: Box | null = null;
  for (const child of moov.sorted(trak)) {
    if (child.type === 'tkhd') {
      moov.zeroTimes(child);
      id = moov.u32(child.dataAt + (moov.u8(child.dataAt) === 1 ? 20 : 12));
    }
    if (child.type !== 'mdia') continue;
    for (const part of moov.sorted(child)) {
      if (part.type === 'mdhd') moov.zeroTimes(part);
      if (part.type === 'hdlr') {
        handler = moov.text(part.dataAt + 8, 4);
        emptyName(moov, part);
      }
      if (part.type !== 'minf') continue;
      for (const inner of moov.sorted(part)) {
        if (inner.type === 'hdlr') emptyName(moov, inner);
        if (inner.type === 'stbl') stbl = inner;
      }
    }
  }
  if (id === null || !stbl) unreadable('track without header or sample table');
  const kept = KEPT_HANDLERS.has(handler);
  return { id, kept, chunks: chunksOf(moov, stbl, handler === 'soun'), defaultSampleSize: 0 };
}

/** A handler's name (a string after 24 bytes of fields) becomes zeros: empty in both styles. */
function emptyName(moov: Index, hdlr: Box): void {
  if (hdlr.dataAt + 24 > hdlr.end) unreadable('short handler');
  moov.zero(hdlr.dataAt + 24, hdlr.end);
}

/**
 * Where a track's chunks lie, from its sample table: chunk offsets, samples per chunk and
 * sample sizes. A sound track whose samples all have one size is read as QuickTime's old
 * uncompressed sound may mean it (sizes per frame, not per sample), up to the next chunk.
 */
function chunksOf(moov: Index, stbl: Box, sound: boolean): Track['chunks'] {
  const tables = new Map(moov.children(stbl).map((box) => [box.type, box]));
  const stco = tables.get('stco') ?? tables.get('co64');
  const stsc = tables.get('stsc');
  const stsz = tables.get('stsz') ?? tables.get('stz2');
  if (!stco || !stsc || !stsz) unreadable('sample table incomplete');
  const wide = stco.type === 'co64';
  const chunkCount = moov.u32(stco.dataAt + 4);
  if (stco.dataAt + 8 + chunkCount * (wide ? 8 : 4) > stco.end) unreadable('stco overruns');
  const offsets = Array.from({ length: chunkCount }, (_, i) =>
    wide ? moov.u64(stco.dataAt + 8 + i * 8) : moov.u32(stco.dataAt + 8 + i * 4),
  );
  const sizeOf = sampleSizes(moov, stsz);
  const runs = moov.u32(stsc.dataAt + 4);
  if (stsc.dataAt + 8 + runs * 12 > stsc.end) unreadable('stsc overruns');
  const chunks: Track['chunks'] = [];
  let sample = 0;
  for (let run = 0; run < runs; run += 1) {
    const entry = stsc.dataAt + 8 + run * 12;
    const first = moov.u32(entry);
    const next = run + 1 < runs ? moov.u32(entry + 12) : chunkCount + 1;
    const perChunk = moov.u32(entry + 4);
    if (first < 1 || next < first || next > chunkCount + 1) unreadable('stsc out of order');
    for (let chunk = first; chunk < next; chunk += 1) {
      let length: number | null = 0;
      if (sizeOf.constant !== null) {
        length = sound ? null : sizeOf.constant * perChunk;
      } else {
        if (sample + perChunk > sizeOf.count) unreadable('more samples in chunks than sizes');
        for (let i = 0; i < perChunk; i += 1) length += sizeOf.size(sample + i);
      }
      sample += perChunk;
      chunks.push({ at: offsets[chunk - 1]!, length });
    }
  }
  return chunks;
}

/** A track's sample sizes: one for all, or one each (stsz, or stz2's packed fields). */
function sampleSizes(
  moov: Index,
  box: Box,
): { constant: number | null; count: number; size: (i: number) => number } {
  const count = moov.u32(box.dataAt + 8);
  if (box.type === 'stsz') {
    const constant = moov.u32(box.dataAt + 4);
    if (constant !== 0) return { constant, count, size: () => constant };
    if (box.dataAt + 12 + count * 4 > box.end) unreadable('stsz overruns');
    return { constant: null, count, size: (i) => moov.u32(box.dataAt + 12 + i * 4) };
  }
  const bits = moov.u8(box.dataAt + 7);
  if (bits !== 4 && bits !== 8 && bits !== 16) unreadable('stz2 field size');
  if (box.dataAt + 12 + Math.ceil((count * bits) / 8) > box.end) unreadable('stz2 overruns');
  const from = box.dataAt + 12;
  return {
    constant: null,
    count,
    size: (i) =>
      bits === 16
        ? moov.bytes.readUInt16BE(from - moov.base + i * 2)
        : bits === 8
          ? moov.u8(from + i)
          : (moov.u8(from + (i >> 1)) >> (i % 2 === 0 ? 4 : 0)) & 0xf,
  };
}

/**
 * The bytes of the kept tracks' chunks. A chunk of unknown length runs to the next chunk
 * of any track, or to the end of its mdat.
 */
function chunkRanges(tracks: Map<number, Track>, mdats: [number, number][]): [number, number][] {
  const starts = [...tracks.values()].flatMap((track) => track.chunks.map((chunk) => chunk.at));
  const bounds = [...new Set([...starts, ...mdats.map(([, end]) => end)])].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const track of tracks.values()) {
    if (!track.kept) continue;
    for (const { at, length } of track.chunks) {
      if (length === 0) continue;
      ranges.push([at, length === null ? nextBound(bounds, at) : at + length]);
    }
  }
  return ranges;
}

/** The first of the sorted `bounds` past `at`. */
function nextBound(bounds: number[], at: number): number {
  let low = 0;
  let high = bounds.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (bounds[middle]! > at) high = middle;
    else low = middle + 1;
  }
  if (low === bounds.length) unreadable('chunk outside mdat');
  return bounds[low]!;
}

/** tfhd's flags: which optional fields follow the track id. */
const TFHD_BASE_OFFSET = 0x1;
const TFHD_DESCRIPTION = 0x2;
const TFHD_DURATION = 0x8;
const TFHD_SIZE = 0x10;
const TFHD_BASE_IS_MOOF = 0x20000;
/** trun's flags: which fields it and each of its samples carry. */
const TRUN_DATA_OFFSET = 0x1;
const TRUN_FIRST_FLAGS = 0x4;
const TRUN_SAMPLE_DURATION = 0x100;
const TRUN_SAMPLE_SIZE = 0x200;
const TRUN_SAMPLE_FLAGS = 0x400;
const TRUN_SAMPLE_OFFSET = 0x800;

/**
 * The bytes a movie fragment's runs of samples take, its boxes sorted like the movie's.
 * A fragment of a track that was taken out is refused rather than guessed at: browsers
 * record picture and sound alone.
 */
function fragmentSamples(moof: Index, box: Box, tracks: Map<number, Track>): [number, number][] {
  const ranges: [number, number][] = [];
  // Without an explicit base, a track fragment's data follows the previous one's.
  let previousEnd = box.at;
  for (const traf of moof.sorted(box)) {
    if (traf.type !== 'traf') continue;
    const parts = moof.sorted(traf);
    const tfhd = parts.find((part) => part.type === 'tfhd');
    if (!tfhd) unreadable('traf without tfhd');
    const flags = moof.u32(tfhd.dataAt) & 0xffffff;
    const track = tracks.get(moof.u32(tfhd.dataAt + 4));
    if (!track?.kept) unreadable('fragment of a track not kept');
    let at = tfhd.dataAt + 8;
    let base = flags & TFHD_BASE_IS_MOOF ? box.at : previousEnd;
    if (flags & TFHD_BASE_OFFSET) {
      base = moof.u64(at);
      at += 8;
    }
    if (flags & TFHD_DESCRIPTION) at += 4;
    if (flags & TFHD_DURATION) at += 4;
    const defaultSize = flags & TFHD_SIZE ? moof.u32(at) : track.defaultSampleSize;
    let next = base;
    for (const trun of parts) {
      if (trun.type !== 'trun') continue;
      const runFlags = moof.u32(trun.dataAt) & 0xffffff;
      const count = moof.u32(trun.dataAt + 4);
      let field = trun.dataAt + 8;
      if (runFlags & TRUN_DATA_OFFSET) {
        next = base + moof.i32(field);
        field += 4;
      }
      if (runFlags & TRUN_FIRST_FLAGS) field += 4;
      const perSample =
        [TRUN_SAMPLE_DURATION, TRUN_SAMPLE_SIZE, TRUN_SAMPLE_FLAGS, TRUN_SAMPLE_OFFSET].filter(
          (bit) => runFlags & bit,
        ).length * 4;
      if (field + count * perSample > trun.end) unreadable('trun overruns');
      const sizeAt = runFlags & TRUN_SAMPLE_DURATION ? 4 : 0;
      let length = 0;
      for (let i = 0; i < count; i += 1) {
        length +=
          runFlags & TRUN_SAMPLE_SIZE ? moof.u32(field + i * perSample + sizeAt) : defaultSize;
      }
      if (length > 0) ranges.push([next, next + length]);
      next += length;
    }
    previousEnd = next;
  }
  return ranges;
}

/** Zeroes every byte of mdat that no kept sample is in; a sample outside mdat is refused. */
function zeroUnplayed(file: StagedFile, mdats: [number, number][], played: [number, number][]) {
  const sorted = played.sort((a, b) => a[0] - b[0]);
  if (sorted.length === 0) unreadable('no samples');
  for (const [start, end] of sorted) {
    if (!mdats.some(([from, to]) => start >= from && end <= to)) unreadable('sample outside mdat');
  }
  for (const [from, to] of mdats) {
    let at = from;
    for (const [start, end] of sorted) {
      if (end <= from || start >= to) continue;
      file.zero(at, start);
      at = Math.max(at, end);
    }
    file.zero(at, to);
  }
}
