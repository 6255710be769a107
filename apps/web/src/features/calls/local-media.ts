import type { CallMedia } from '@teltlk/protocol';

/** Why this device's microphone or camera could not be had, as the screens say it. */
export type MediaProblem = 'denied' | 'missing' | 'busy' | 'unsupported';

export class MediaUnavailable extends Error {
  constructor(readonly problem: MediaProblem) {
    super(`media unavailable: ${problem}`);
    this.name = 'MediaUnavailable';
  }
}

const VIDEO: MediaTrackConstraints = {
  width: { ideal: 640 },
  height: { ideal: 480 },
  frameRate: { ideal: 24, max: 30 },
};

/** The camera facing this way (phones); desktops have one and ignore it. */
export function cameraConstraints(facing: 'user' | 'environment'): MediaTrackConstraints {
  return { ...VIDEO, facingMode: facing };
}

function problemOf(error: unknown): MediaProblem {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'missing';
  if (name === 'NotReadableError' || name === 'AbortError') return 'busy';
  return 'unsupported';
}

/**
 * The microphone, and the camera for a video call. `ask` is the platform's own permission
 * step (the Pi Browser's native request) before the browser's; false: refused.
 */
export async function localMedia(
  media: CallMedia,
  ask: (media: CallMedia) => Promise<boolean>,
): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new MediaUnavailable('unsupported');
  if (!(await ask(media))) throw new MediaUnavailable('denied');
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
      video: media === 'video' ? cameraConstraints('user') : false,
    });
  } catch (error) {
    throw new MediaUnavailable(problemOf(error));
  }
}

/** Whether this device has more than one camera (the switch is shown). */
export async function cameraCount(): Promise<number> {
  if (!navigator.mediaDevices?.enumerateDevices) return 0;
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices.filter((device) => device.kind === 'videoinput').length;
}

/** Screen sharing: desktops whose browser offers it (phones do not). */
export function canShareScreen(): boolean {
  return (
    typeof navigator.mediaDevices?.getDisplayMedia === 'function' &&
    !/Android|iPhone|iPad|Mobile/i.test(navigator.userAgent)
  );
}

/** Whether audio output can be switched (speaker / earpiece or headset) here. */
export function canPickOutput(): boolean {
  return typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
}
