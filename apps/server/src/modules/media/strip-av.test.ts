import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileTypeFromFile } from 'file-type';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { PLACE, recording, withPlaces, xmpBox } from '../../test/media.js';
import { oggCrc } from './strip-ogg.js';
import { stripRecording } from './strip-av.js';

/** ffmpeg, where it is installed (CI installs it), decodes what was stripped. */
const FFMPEG = spawnSync('ffmpeg', ['-version']).status === 0;

/** Names the recordings of media/make.sh carry, beside the place. */
const NAMES = ['Ada at home', 'Ada Lovelace', 'at home.srt', 'hidden in mdat'];

/** Each recording, and where the place is in it. */
const RECORDINGS: [string, string, (bytes: Buffer) => Buffer][] = [
  ['clip.mp4', 'udta/©xyz, meta keys, XMP and mdat', withPlaces],
  ['voice.m4a', 'udta/©xyz, meta keys, XMP and mdat', withPlaces],
  ['clip-fragmented.mp4', 'loci, and XMP after the fragments', (b) => Buffer.concat([b, xmpBox()])],
  ['clip.mov', '©xyz, and a text track of places', (b) => b],
  ['clip.webm', 'Tags and Title', (b) => b],
  ['voice.webm', 'Tags, sizes unknown as browsers record', (b) => b],
  ['clip.mkv', 'Tags, an attachment and a subtitle track', (b) => b],
  ['voice.ogg', 'an Opus comment', (b) => b],
  ['voice-vorbis.ogg', 'a Vorbis comment', (b) => b],
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teltlk-strip-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A staged upload, with the type its bytes show (or, spoilt, showed before). */
async function staged(
  name: string,
  bytes: Buffer,
  mime?: string,
): Promise<{ path: string; mime: string }> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, mime: mime ?? (await fileTypeFromFile(path))!.mime };
}

/** What ffmpeg decodes of the picture and the sound: a checksum per frame. */
function decoded(path: string): string {
  const run = spawnSync(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-map', '0:v?', '-map', '0:a?'].concat(['-f', 'framemd5', '-']),
  );
  expect(run.stderr.toString()).toBe('');
  return run.stdout.toString().replace(/^#.*\n/gm, '');
}

/** Every Ogg page's checksum, each checked. */
function oggPagesValid(bytes: Buffer): boolean {
  for (let at = 0; at < bytes.length;) {
    const segments = bytes[at + 26]!;
    const lacing = bytes.subarray(at + 27, at + 27 + segments);
    const page = Buffer.from(
      bytes.subarray(at, at + 27 + segments + lacing.reduce((a, b) => a + b, 0)),
    );
    const crc = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    if (oggCrc(page) !== crc) return false;
    at += page.length;
  }
  return true;
}

describe('voice and video stripped in place', () => {
  it.each(RECORDINGS)('%s loses %s, and plays as before', async (name, _, hide) => {
    const input = hide(await recording(name));
    expect(input.includes(PLACE)).toBe(true);
    const original = await staged(`original-${name}`, input);
    const { path, mime } = await staged(name, input);
    await stripRecording(path, mime);
    const output = await readFile(path);
    // Nothing moved: same length, every index still right.
    expect(output.length).toBe(input.length);
    for (const hidden of [PLACE, ...NAMES]) expect(output.includes(hidden), hidden).toBe(false);
    // Read again, it is all described to its last byte, and there is nothing left to take.
    await stripRecording(path, mime);
    expect((await readFile(path)).equals(output)).toBe(true);
    if (name.endsWith('.ogg')) expect(oggPagesValid(output)).toBe(true);
    if (FFMPEG) {
      // Every frame of picture and sound decodes as it did.
      expect(decoded(path)).toBe(decoded(original.path));
    }
  });

  it('refuses a recording cut short, or with bytes its container does not describe', async () => {
    const cases: [string, (bytes: Buffer) => Buffer][] = [
      ['clip.mp4', (b) => b.subarray(0, b.length - 100)],
      ['clip.mp4', (b) => Buffer.concat([b, Buffer.from('after')])],
      ['clip-fragmented.mp4', (b) => b.subarray(0, b.length - 10)],
      // A sample outside any mdat: the first chunk offset pointed past the file.
      ['clip.mov', (b) => pointPast(b)],
      ['clip.webm', (b) => b.subarray(0, b.length - 7)],
      ['voice.webm', (b) => b.subarray(0, b.length - 3)],
      ['voice.webm', (b) => Buffer.concat([b, Buffer.from([0x42, 0x42])])],
      ['voice.ogg', (b) => b.subarray(0, b.length - 3)],
      ['voice.ogg', (b) => Buffer.concat([b, Buffer.from('OggS')])],
      // A stream of a kind not known (it could carry anything).
      [
        'voice.ogg',
        (b) => Buffer.from(b.toString('latin1').replace('OpusHead', 'OpusHeaD'), 'latin1'),
      ],
    ];
    for (const [name, spoil] of cases) {
      const whole = await staged(name, await recording(name));
      const input = spoil(await recording(name));
      const { path, mime } = await staged(`spoilt-${name}`, input, whole.mime);
      const refusal = await stripRecording(path, mime).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal, name).toBeInstanceOf(AppError);
      expect((refusal as AppError).code).toBe('MEDIA_TYPE_UNSUPPORTED');
      // Nothing was changed.
      expect((await readFile(path)).equals(input), name).toBe(true);
    }
    // A container with nowhere to look for metadata: refused by its type.
    const mp3 = await staged('voice.mp3', Buffer.from('ID3\x04\0\0\0\0\0\0'), 'audio/mpeg');
    await expect(stripRecording(mp3.path, 'audio/mpeg')).rejects.toMatchObject({
      code: 'MEDIA_TYPE_UNSUPPORTED',
    });
  });
});

/** The QuickTime film with its first chunk offset pointing past the end of the file. */
function pointPast(mov: Buffer): Buffer {
  const copy = Buffer.from(mov);
  const stco = copy.indexOf('stco');
  copy.writeUInt32BE(copy.length + 1000, stco + 12);
  return copy;
}
