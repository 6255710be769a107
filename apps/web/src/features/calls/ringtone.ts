/** One ring: two short tone bursts, then quiet, over this period. */
const RING_PERIOD_MS = 3_000;
const VIBRATE_PATTERN = [800, 400, 800];

/**
 * The ringing of an incoming call (or the ring-back a caller hears): a tone made on the
 * spot (no sound file to download) and the vibration, each as the person's settings say.
 * A muted chat still rings: a call is answered now or never. Returns the stop.
 */
export function ring(options: {
  sound: boolean;
  vibrate: boolean;
  ringBack?: boolean;
}): () => void {
  let context: AudioContext | null = null;
  const timers: ReturnType<typeof setInterval>[] = [];
  const burst = () => {
    if (!context) return;
    const start = context.currentTime;
    const tones = options.ringBack
      ? [[425, 0, 1]]
      : [
          [880, 0, 0.4],
          [660, 0.5, 0.4],
        ];
    for (const [frequency, offset, length] of tones as [number, number, number][]) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(options.ringBack ? 0.04 : 0.12, start + offset + 0.03);
      gain.gain.setValueAtTime(options.ringBack ? 0.04 : 0.12, start + offset + length - 0.05);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + length);
      tone.connect(gain).connect(context.destination);
      tone.start(start + offset);
      tone.stop(start + offset + length + 0.02);
    }
  };
  if (options.sound) {
    try {
      context = new AudioContext();
      void context.resume().catch(() => undefined);
      burst();
      timers.push(setInterval(burst, RING_PERIOD_MS));
    } catch {
      // No audio here (or not yet allowed): the screen still shows the call.
    }
  }
  // Browsers refuse (and complain of) vibration before the person has touched the page.
  const touched = !('userActivation' in navigator) || navigator.userActivation.hasBeenActive;
  const vibrating =
    options.vibrate && !options.ringBack && touched && typeof navigator.vibrate === 'function';
  if (vibrating) {
    navigator.vibrate(VIBRATE_PATTERN);
    timers.push(setInterval(() => navigator.vibrate(VIBRATE_PATTERN), RING_PERIOD_MS));
  }
  return () => {
    for (const timer of timers) clearInterval(timer);
    if (vibrating) navigator.vibrate(0);
    void context?.close().catch(() => undefined);
    context = null;
  };
}
