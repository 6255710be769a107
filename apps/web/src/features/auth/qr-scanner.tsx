import { useEffect, useRef, useState } from 'react';
import { useSecurityTexts } from '../../i18n/security';

/** Frames looked at per second: enough to catch a code at once, light on a cheap phone. */
const SCAN_INTERVAL_MS = 200;
/** Frames are scaled to this width for the decoder written in JavaScript. */
const DECODE_WIDTH = 640;

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = (new (options: { formats: string[] }) => BarcodeDetectorLike) & {
  getSupportedFormats(): Promise<string[]>;
};

/** Reads a QR code off a video frame: the browser's own detector where it has one. */
type Decoder = (video: HTMLVideoElement) => Promise<string | null>;

async function makeDecoder(): Promise<Decoder> {
  const native = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (native && (await native.getSupportedFormats()).includes('qr_code')) {
    const detector = new native({ formats: ['qr_code'] });
    return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
  }
  // No detector (Firefox, desktop Linux and Windows): a small decoder, fetched only here.
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return (video) => {
    if (!context || video.videoWidth === 0) return Promise.resolve(null);
    const scale = Math.min(1, DECODE_WIDTH / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    const found = jsQR(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' });
    return Promise.resolve(found?.data ?? null);
  };
}

/**
 * The back camera, looking for a QR code; `onScan` gets the text of each one it reads
 * (the parent decides whether it is one of ours). The camera stops when it unmounts.
 */
export function QrScanner({ onScan }: { onScan: (text: string) => void }) {
  const { t: ts } = useSecurityTexts();
  const video = useRef<HTMLVideoElement>(null);
  const latest = useRef(onScan);
  latest.current = onScan;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    const start = async () => {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error('no camera');
      stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'environment' },
        audio: false,
      });
      if (stopped) return;
      const element = video.current!;
      element.srcObject = stream;
      await element.play();
      const decode = await makeDecoder();
      const look = async () => {
        if (stopped) return;
        const text = await decode(element).catch(() => null);
        if (stopped) return;
        if (text) latest.current(text);
        timer = window.setTimeout(() => void look(), SCAN_INTERVAL_MS);
      };
      void look();
    };
    start().catch(() => {
      if (!stopped) setFailed(true);
    });
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  if (failed) {
    return (
      <p className="tt-alert" role="alert">
        {ts('device.cameraFailed')}
      </p>
    );
  }
  return (
    <div className="tt-scanner">
      <video ref={video} muted playsInline aria-label={ts('device.cameraLabel')} />
      <span className="tt-scanner-frame" aria-hidden />
    </div>
  );
}
