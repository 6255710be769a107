import { unreadable, type StagedFile } from './staged-file.js';

/*
 * Matroska and WebM. Tags (a place, names), Attachments, Chapters and any element not
 * known to play a part become Void elements of the same size, zeroed; so do the
 * segment's Title, date and file names, the tracks' names, and tracks that are neither
 * picture nor sound (subtitles, a camera's log), with their blocks. The muxing and writing
 * applications stay (a program's name, not the person's). The clusters are walked to
 * their end, also where a recording browser left their sizes unknown, and the seek
 * entries that pointed at what went are voided too. A CRC-32 over something changed
 * would no longer match, so it goes as well.
 */

const EBML = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const VOID = 0xec;
const CRC32 = 0xbf;
const SEEK_HEAD = 0x114d9b74;
const SEEK = 0x4dbb;
const SEEK_ID = 0x53ab;
const INFO = 0x1549a966;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const TRACK_NUMBER = 0xd7;
const TRACK_TYPE = 0x83;
/** Track types kept: video and audio. */
const KEPT_TRACK_TYPES = new Set([1, 2]);
const SIMPLE_BLOCK = 0xa3;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;
const CLUSTER = 0x1f43b675;
const CUES = 0x1c53bb6b;
const ATTACHMENTS = 0x1941a469;
const CHAPTERS = 0x1043a770;
const TAGS = 0x1254c367;

/** What a segment keeps; the rest is voided. */
const KEPT_IN_SEGMENT = new Set([SEEK_HEAD, INFO, TRACKS, CLUSTER, CUES]);
/** The segment's elements: one of them ends a cluster of unknown size. */
const SEGMENT_LEVEL = new Set([...KEPT_IN_SEGMENT, ATTACHMENTS, CHAPTERS, TAGS, EBML, SEGMENT]);
/** Info kept: timestamp scale, duration, muxing and writing application, segment UUID. */
const KEPT_IN_INFO = new Set([0x2ad7b1, 0x4489, 0x4d80, 0x5741, 0x73a4]);
/** A track's own name, and its link to an attachment. */
const VOIDED_IN_TRACK = new Set([0x536e, 0x7446]);
/** A cluster's timestamp, blocks and their bookkeeping. */
const KEPT_IN_CLUSTER = new Set([0xe7, 0x5854, 0xa7, 0xab, 0xa3, 0xa0, 0xaf]);

interface Element {
  id: number;
  at: number;
  dataAt: number;
  end: number;
  unknownSize: boolean;
}

/** The element at `at`, within `limit` (where one of unknown size ends, for now). */
async function elementAt(file: StagedFile, at: number, limit: number): Promise<Element> {
  const head = await file.peek(at, 12);
  const first = head[0] ?? 0;
  const idLength = Math.clz32(first) - 23;
  if (first === 0 || idLength > 4 || head.length < idLength + 1) unreadable('element id');
  const id = head.readUIntBE(0, idLength);
  const sizeFirst = head[idLength]!;
  const sizeLength = Math.clz32(sizeFirst) - 23;
  if (sizeFirst === 0 || head.length < idLength + sizeLength) unreadable('element size');
  let size = sizeFirst & (0xff >> sizeLength);
  let allOnes = size === 0xff >> sizeLength;
  for (let i = 1; i < sizeLength; i += 1) {
    const byte = head[idLength + i]!;
    size = size * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  const dataAt = at + idLength + sizeLength;
  const end = allOnes ? limit : dataAt + size;
  if (end > limit) unreadable('element overruns');
  return { id, at, dataAt, end, unknownSize: allOnes };
}

/** The children of a master element of known size. */
async function childrenOf(file: StagedFile, parent: Element): Promise<Element[]> {
  if (parent.unknownSize) unreadable('unknown size');
  const children: Element[] = [];
  for (let at = parent.dataAt; at < parent.end;) {
    const child = await elementAt(file, at, parent.end);
    if (child.unknownSize) unreadable('unknown size');
    children.push(child);
    at = child.end;
  }
  return children;
}

/** The header of a Void element `length` bytes long in all (its content zeros). */
function voidHeader(length: number): Buffer {
  for (let sizeLength = 1; sizeLength <= 8; sizeLength += 1) {
    let size = length - 1 - sizeLength;
    if (size < 0) break;
    if (size >= 2 ** (7 * sizeLength) - 1) continue;
    const header = Buffer.alloc(1 + sizeLength);
    header[0] = VOID;
    for (let i = sizeLength; i >= 1; i -= 1) {
      header[i] = size % 256;
      size = Math.floor(size / 256);
    }
    header[1]! |= 0x80 >> (sizeLength - 1);
    return header;
  }
  return unreadable('no void fits');
}

/** Replaces an element by a Void of the same size. */
function voided(file: StagedFile, element: Element): void {
  file.zero(element.at, element.end);
  file.write(element.at, voidHeader(element.end - element.at));
}

/** Zeroes a Void's content; answers whether there was anything in it. */
async function emptied(file: StagedFile, element: Element): Promise<boolean> {
  for (let at = element.dataAt; at < element.end; at += 64 * 1024) {
    const bytes = await file.read(at, Math.min(64 * 1024, element.end - at));
    if (bytes.some((byte) => byte !== 0)) {
      file.zero(element.dataAt, element.end);
      return true;
    }
  }
  return false;
}

/**
 * Walks a master element's children: a Void is emptied, the others kept or voided as
 * `keep` says (it may look inside them, answering whether it changed anything there);
 * when anything changed, its CRC-32 goes too.
 */
async function sortChildren(
  file: StagedFile,
  children: Element[],
  keep: (child: Element) => Promise<boolean> | boolean,
): Promise<boolean> {
  let changed = false;
  let crc: Element | null = null;
  for (const child of children) {
    if (child.id === CRC32) crc = child;
    else if (child.id === VOID) changed = (await emptied(file, child)) || changed;
    else if (!(await keep(child))) {
      voided(file, child);
      changed = true;
    }
  }
  if (changed && crc) voided(file, crc);
  return changed;
}

/** Strips a Matroska or WebM file in place (see above). */
export async function stripMatroska(file: StagedFile): Promise<void> {
  let segments = 0;
  for (let at = 0; at < file.size;) {
    const element = await elementAt(file, at, file.size);
    if (at === 0 && element.id !== EBML) unreadable('no EBML header');
    if (element.id === EBML) await checkDocType(file, element);
    else if (element.id === SEGMENT) {
      await stripSegment(file, element);
      segments += 1;
    } else if (element.id === VOID) await emptied(file, element);
    else unreadable('unknown top-level element');
    at = element.end;
  }
  if (segments === 0) unreadable('no segment');
}

async function checkDocType(file: StagedFile, header: Element): Promise<void> {
  const docType = (await childrenOf(file, header)).find((child) => child.id === DOC_TYPE);
  const name = docType && (await file.read(docType.dataAt, docType.end - docType.dataAt));
  const type = name?.toString('latin1').replace(/\0+$/, '');
  if (type !== 'webm' && type !== 'matroska') unreadable('not Matroska');
}

async function stripSegment(file: StagedFile, segment: Element): Promise<void> {
  /** The numbers of the tracks taken out, once the tracks were read. */
  let removed: Set<number> | null = null;
  for (let at = segment.dataAt; at < segment.end;) {
    let element = await elementAt(file, at, segment.end);
    if (element.id === CLUSTER) {
      if (!removed) unreadable('a cluster before the tracks');
      element = await stripCluster(file, element, segment.end, removed);
    } else if (element.unknownSize) unreadable('unknown size');
    else if (element.id === VOID) await emptied(file, element);
    else if (element.id === SEEK_HEAD) await stripSeekHead(file, element);
    else if (element.id === INFO) {
      await sortChildren(file, await childrenOf(file, element), (child) =>
        KEPT_IN_INFO.has(child.id),
      );
    } else if (element.id === TRACKS) {
      if (removed) unreadable('tracks twice');
      removed = await stripTracks(file, element);
    } else if (!KEPT_IN_SEGMENT.has(element.id)) voided(file, element);
    at = element.end;
  }
}

/** An unsigned integer element's value. */
async function uintOf(file: StagedFile, element: Element): Promise<number> {
  const length = element.end - element.dataAt;
  if (length < 1 || length > 6) unreadable('integer of odd length');
  return (await file.read(element.dataAt, length)).readUIntBE(0, length);
}

/** The track a block belongs to: the number its data starts with, as a variable-size integer. */
async function trackOfBlock(file: StagedFile, block: Element): Promise<number> {
  const head = await file.peek(block.dataAt, 8);
  const first = head[0] ?? 0;
  const length = Math.clz32(first) - 23;
  if (first === 0 || head.length < length) unreadable('block track number');
  let number = first & (0xff >> length);
  for (let i = 1; i < length; i += 1) number = number * 256 + head[i]!;
  return number;
}

/** Seek entries that point at what is voided are voided too. */
async function stripSeekHead(file: StagedFile, seekHead: Element): Promise<void> {
  await sortChildren(file, await childrenOf(file, seekHead), async (seek) => {
    if (seek.id !== SEEK) return false;
    const target = (await childrenOf(file, seek)).find((child) => child.id === SEEK_ID);
    if (!target || target.end - target.dataAt > 4) return false;
    const id = (await file.read(target.dataAt, target.end - target.dataAt)).readUIntBE(
      0,
      target.end - target.dataAt,
    );
    return KEPT_IN_SEGMENT.has(id);
  });
}

/**
 * Each track keeps what plays it; one that is neither picture nor sound is voided whole.
 * Answers the numbers of those.
 */
async function stripTracks(file: StagedFile, tracks: Element): Promise<Set<number>> {
  const removed = new Set<number>();
  let kept = 0;
  let changedInside = false;
  const changed = await sortChildren(file, await childrenOf(file, tracks), async (entry) => {
    if (entry.id !== TRACK_ENTRY) return false;
    const children = await childrenOf(file, entry);
    const number = children.find((child) => child.id === TRACK_NUMBER);
    const type = children.find((child) => child.id === TRACK_TYPE);
    if (!number || !type) unreadable('track without number or type');
    if (!KEPT_TRACK_TYPES.has(await uintOf(file, type))) {
      removed.add(await uintOf(file, number));
      return false;
    }
    kept += 1;
    changedInside =
      (await sortChildren(file, children, (child) => !VOIDED_IN_TRACK.has(child.id))) ||
      changedInside;
    return true;
  });
  if (kept === 0) unreadable('no picture or sound');
  // A name voided inside a track entry changes what the Tracks' CRC-32 covers.
  if (!changed && changedInside) {
    const crc = (await childrenOf(file, tracks)).find((child) => child.id === CRC32);
    if (crc) voided(file, crc);
  }
  return removed;
}

/**
 * Walks a cluster's children; one of unknown size (a recording browser's) ends where the
 * next element of the segment begins. Answers the cluster with its end.
 */
async function stripCluster(
  file: StagedFile,
  cluster: Element,
  limit: number,
  removed: Set<number>,
): Promise<Element> {
  const children: Element[] = [];
  let at = cluster.dataAt;
  while (at < cluster.end) {
    const child = await elementAt(file, at, cluster.end);
    if (cluster.unknownSize && SEGMENT_LEVEL.has(child.id)) break;
    if (child.unknownSize) unreadable('unknown size in a cluster');
    children.push(child);
    at = child.end;
  }
  const walked = { ...cluster, end: cluster.unknownSize ? at : cluster.end };
  if (walked.end > limit) unreadable('cluster overruns');
  await sortChildren(file, children, async (child) => {
    if (!KEPT_IN_CLUSTER.has(child.id)) return false;
    if (removed.size === 0) return true;
    if (child.id === SIMPLE_BLOCK) return !removed.has(await trackOfBlock(file, child));
    if (child.id !== BLOCK_GROUP) return true;
    const block = (await childrenOf(file, child)).find((part) => part.id === BLOCK);
    if (!block) unreadable('block group without a block');
    return !removed.has(await trackOfBlock(file, block));
  });
  return walked;
}
