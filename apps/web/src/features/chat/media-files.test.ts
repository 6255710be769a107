import { describe, expect, it } from 'vitest';
import { pastedKind } from './composer';
import { formatBytes, photoBox, splitPhotos } from './media-files';
import { nextZoom, zoomLimits } from './zoom';

const file = (name: string, type: string) => new File(['x'], name, { type });

describe('photos and files in the chat', () => {
  it('fits a photo in its bubble at its own shape, never smaller than a tap', () => {
    expect(photoBox(4000, 3000)).toEqual({ width: 220, height: 165 });
    expect(photoBox(3000, 4000)).toEqual({ width: 195, height: 260 });
    expect(photoBox(100, 50)).toEqual({ width: 100, height: 72 });
    expect(photoBox(5000, 100)).toEqual({ width: 220, height: 72 });
  });

  it('writes sizes as people read them, in the locale', () => {
    expect(formatBytes(532, 'en-US')).toBe('532 byte');
    expect(formatBytes(48 * 1024, 'en-US')).toBe('48 kB');
    expect(formatBytes(3.46 * 1024 * 1024, 'en-US')).toBe('3.5 MB');
    expect(formatBytes(1536, 'zh-CN')).toBe('1.5 kB');
  });

  it('sends pasted or dropped pictures as photos where photos may go, else as files', () => {
    const photos = [file('a.png', 'image/png'), file('b.jpg', 'image/jpeg')];
    const mixed = [...photos, file('c.pdf', 'application/pdf')];
    expect(pastedKind(photos, ['image', 'file'])).toBe('image');
    expect(pastedKind(mixed, ['image', 'file'])).toBe('file');
    expect(pastedKind(photos, ['file'])).toBe('file');
    expect(pastedKind(mixed, ['image'])).toBeNull();
    expect(pastedKind(photos, ['location', 'card'])).toBeNull();
    // A format the server does not take as a photo (HEIC) is a file.
    expect(pastedKind([file('d.heic', 'image/heic')], ['image', 'file'])).toBe('file');
    expect(splitPhotos(mixed).others.map((each) => each.name)).toEqual(['c.pdf']);
  });

  it('zooms the viewer from 1 to 4 and no further', () => {
    expect(nextZoom(1, 1.25)).toBe(1.25);
    expect(nextZoom(3.5, 1.25)).toBe(zoomLimits.max);
    expect(nextZoom(1.1, 0.8)).toBe(zoomLimits.min);
    expect(nextZoom(2, 0.5)).toBe(1);
  });
});

describe('voice messages', () => {
  it('draws the recording as bars, the loudest full height, fitted to the bubble', async () => {
    const { waveformBars, waveformOf } = await import('./voice-recorder');
    const levels = Array.from({ length: 96 }, (_, i) => (i < 48 ? 0.1 : 0.4));
    const stored = waveformOf(levels);
    const bars = waveformBars(stored, 48);
    expect(bars).toHaveLength(48);
    expect(Math.max(...bars)).toBe(1);
    expect(bars[0]).toBeCloseTo(0.25, 1);
    expect(waveformBars(stored, 8).map((bar) => Math.round(bar * 4) / 4)).toEqual([
      0.25, 0.25, 0.25, 0.25, 1, 1, 1, 1,
    ]);
    expect(waveformBars(undefined, 8)).toEqual([]);
    expect(waveformBars('%%%', 8)).toEqual([]);
  });

  it('writes lengths as a clock does', async () => {
    const { clockDuration } = await import('./media-files');
    expect(clockDuration(1800)).toBe('0:02');
    expect(clockDuration(65_000)).toBe('1:05');
    expect(clockDuration(3_723_000)).toBe('1:02:03');
  });
});
