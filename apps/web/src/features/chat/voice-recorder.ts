import { VOICE_MAX_MS, WAVEFORM_BARS } from '@teltlk/protocol';

/** Recording formats, best first: Opus in WebM (Chromium, Firefox) or Ogg, AAC in MP4 (Safari). */
const VOICE_TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4'];
/** How often the loudness is sampled for the waveform. */
const LEVEL_EVERY_MS = 50;
/** Shorter than this is a slip of the finger, not a message. */
export const VOICE_MIN_MS = 800;

/** A finished recording: its bytes, length and waveform (WAVEFORM_BARS bytes, base64). */
export interface Recording {
  blob: Blob;
  name: string;
  durationMs: number;
  waveform: string;
}

/** Why recording could not start: no recorder in this browser, or no microphone allowed. */
export class RecorderProblem extends Error {
  constructor(readonly reason: 'unsupported' | 'denied') {
    super(`voice recording ${reason}`);
  }
}

/** The recording type this browser can make, or null when it records none of them. */
export function voiceType(): string | null {
  if (typeof MediaRecorder === 'undefined' || !navigator.mediaDevices?.getUserMedia) return null;
  return VOICE_TYPES.find((type) => MediaRecorder.isTypeSupported(type)) ?? null;
}

/**
 * Levels sampled while recording, as WAVEFORM_BARS bars of loudness (the loudest of each
 * stretch), scaled so the loudest bar is full height.
 */
export function waveformOf(levels: readonly number[]): string {
  const bars = new Uint8Array(WAVEFORM_BARS);
  if (levels.length > 0) {
    const peak = Math.max(...levels, 1e-6);
    for (let bar = 0; bar < WAVEFORM_BARS; bar += 1) {
      const from = Math.floor((bar * levels.length) / WAVEFORM_BARS);
      const to = Math.max(from + 1, Math.floor(((bar + 1) * levels.length) / WAVEFORM_BARS));
      const loudest = Math.max(...levels.slice(from, to));
      bars[bar] = Math.round(Math.min(1, loudest / peak) * 255);
    }
  }
  let binary = '';
  for (const byte of bars) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The bars of a stored waveform, 0–1 each, as `count` bars (the loudest of each stretch);
 * empty when there is none.
 */
export function waveformBars(waveform: string | undefined, count: number): number[] {
  if (!waveform) return [];
  let stored: number[];
  try {
    stored = Array.from(atob(waveform), (char) => char.charCodeAt(0) / 255);
  } catch {
    return [];
  }
  if (stored.length <= count) return stored;
  return Array.from({ length: count }, (_, bar) => {
    const from = Math.floor((bar * stored.length) / count);
    const to = Math.max(from + 1, Math.floor(((bar + 1) * stored.length) / count));
    return Math.max(...stored.slice(from, to));
  });
}

/**
 * One voice message being recorded: the microphone, MediaRecorder in a format the browser
 * has, and the loudness sampled for the waveform. Stops by itself at VOICE_MAX_MS.
 */
export class VoiceRecorder {
  private recorder: MediaRecorder | null = null;
  private stream: MediaStream | null = null;
  private audio: AudioContext | null = null;
  private sampler: ReturnType<typeof setInterval> | null = null;
  private limit: ReturnType<typeof setTimeout> | null = null;
  private readonly chunks: Blob[] = [];
  private readonly levels: number[] = [];
  private startedAt = 0;
  private finished: Promise<Recording | null> | null = null;

  /** Called when the recording stopped by itself at the limit. */
  onLimit: (() => void) | null = null;

  /** Starts recording; rejects with a RecorderProblem when it cannot. */
  async start(): Promise<void> {
    const type = voiceType();
    if (!type) throw new RecorderProblem('unsupported');
    // Made within the press that starts the recording: a context made later may stay
    // suspended (no gesture), and hear nothing for the waveform.
    this.audio = new AudioContext();
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      this.release();
      throw new RecorderProblem('denied');
    }
    await this.audio.resume().catch(() => {});
    const analyser = this.audio.createAnalyser();
    analyser.fftSize = 512;
    this.audio.createMediaStreamSource(this.stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    this.sampler = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      this.levels.push(Math.sqrt(sum / samples.length));
    }, LEVEL_EVERY_MS);
    const recorder = new MediaRecorder(this.stream, { mimeType: type });
    this.recorder = recorder;
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.chunks.push(event.data);
    };
    this.finished = new Promise((resolve) => {
      recorder.onstop = () => {
        const durationMs = Math.min(Date.now() - this.startedAt, VOICE_MAX_MS);
        const blob = new Blob(this.chunks, { type: recorder.mimeType || type });
        const extension = blob.type.includes('mp4')
          ? 'm4a'
          : blob.type.includes('ogg')
            ? 'ogg'
            : 'webm';
        resolve({
          blob,
          name: `voice.${extension}`,
          durationMs,
          waveform: waveformOf(this.levels),
        });
      };
    });
    this.startedAt = Date.now();
    recorder.start();
    this.limit = setTimeout(() => this.onLimit?.(), VOICE_MAX_MS);
  }

  /** Milliseconds recorded so far. */
  elapsed(): number {
    return this.startedAt ? Date.now() - this.startedAt : 0;
  }

  /** Stops and answers the recording (null when nothing was recorded). */
  async stop(): Promise<Recording | null> {
    if (!this.recorder || !this.finished) return null;
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    const recording = await this.finished;
    this.release();
    return recording;
  }

  /** Stops and throws the recording away. */
  cancel(): void {
    if (this.recorder && this.recorder.state !== 'inactive') this.recorder.stop();
    this.release();
  }

  private release(): void {
    if (this.sampler) clearInterval(this.sampler);
    if (this.limit) clearTimeout(this.limit);
    this.sampler = this.limit = null;
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    void this.audio?.close().catch(() => {});
    this.stream = null;
    this.audio = null;
  }
}
