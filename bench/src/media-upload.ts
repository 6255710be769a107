import { performance } from 'node:perf_hooks';
import {
  UPLOADS_PATH,
  singleConversationId,
  type Message,
  type UploadedMedia,
} from '@teltlk/protocol';
import sharp from 'sharp';
import { Upload } from 'tus-js-client';
import { WebSocket } from 'ws';
import { befriend, call, registerAccounts, type Account } from './accounts.js';
import { startTeltlk, type ServerProcess } from './server-process.js';
import { cpuMsOf, median, quantile } from './stats.js';

/**
 * Photo messages as phones send them: `clients` people each upload a different 4 MB
 * JPEG at the same moment (the tus protocol, 1 MB chunks, the first with the request
 * that begins the upload, as the web app does), then send it to a friend whose socket is
 * open. Figures:
 * - the server's CPU time per photo (reading the upload, stripping its metadata, making
 *   its thumbnail and placeholder, storing it, sending the message), against sharp making
 *   the same thumbnail alone, in this process, for the same photos, right after each
 *   round (the baseline); the ratio is the median of the rounds' ratios;
 * - the time from the start of an upload until its recipient has the message.
 */

export interface MediaOptions {
  clients: number;
  repeats: number;
  /** Size of each photo, about. */
  photoBytes: number;
}

export const MEDIA_DEFAULTS: MediaOptions = {
  clients: 20,
  // The median of five rounds: one round's ratio strays by a tenth either way.
  repeats: 5,
  photoBytes: 4 * 1024 * 1024,
};

export interface MediaFigures {
  serverCpuMsPerPhoto: number;
  baselineCpuMsPerPhoto: number;
  ratio: number;
  p50: number;
  p99: number;
  photoBytes: number;
}

/** Uncounted rounds before the measured ones. */
const WARMUP_ROUNDS = 4;

/**
 * A phone photo of about `bytes`: 12 MP, a scene of gradients with fine grain (which is
 * what makes photos large), turned by EXIF and carrying the camera's metadata. Each seed
 * draws a different one, so nothing is answered from a cache.
 */
async function phonePhoto(seed: number, bytes: number): Promise<Buffer> {
  const width = 4032;
  const height = 3024;
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed * 2654435761 + 1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      const grain = (state >> 16) % 48;
      const at = (y * width + x) * 3;
      pixels[at] = ((x * 255) / width + seed * 37 + grain) & 255;
      pixels[at + 1] = ((y * 255) / height + grain) & 255;
      pixels[at + 2] = (((x + y) * 128) / width + seed * 11 + grain) & 255;
    }
  }
  // The quality that lands near the size asked for.
  let quality = 80;
  for (;;) {
    const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .withMetadata({ orientation: 6, exif: { IFD0: { Make: 'Phone', Model: `Cam ${seed}` } } })
      .toBuffer();
    if (jpeg.length >= bytes * 0.9 || quality >= 98) return jpeg;
    quality += 4;
  }
}

/** CPU time of this process, in milliseconds (every thread, libvips' included). */
function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const thumbnail = (photo: Buffer) =>
  sharp(photo)
    .rotate()
    .resize(480, 480, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 })
    .toBuffer();

/**
 * The baseline: sharp making each photo's thumbnail alone, one after another, while the
 * server is idle. It is measured again after each round, on that round's photos, so that
 * the machine's pace (a shared machine's speed drifts over a minute) weighs on both sides
 * of each round's ratio alike.
 */
async function thumbnailsAlone(photos: readonly Buffer[]): Promise<number> {
  const before = ownCpuMs();
  for (const photo of photos) await thumbnail(photo);
  return (ownCpuMs() - before) / photos.length;
}

function upload(baseUrl: string, token: string, photo: Buffer, name: string) {
  return new Promise<UploadedMedia>((resolve, reject) => {
    new Upload(photo, {
      endpoint: baseUrl + UPLOADS_PATH,
      headers: { authorization: `Bearer ${token}` },
      metadata: { kind: 'image', name },
      chunkSize: 1024 * 1024,
      uploadDataDuringCreation: true,
      retryDelays: null,
      onSuccess: ({ lastResponse }) => resolve(JSON.parse(lastResponse.getBody()) as UploadedMedia),
      onError: reject,
    }).start();
  });
}

/** A recipient's socket: calls `onMessage` with each pushed message. */
function recipientSocket(wsUrl: string, token: string, onMessage: (message: Message) => void) {
  return new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
    ws.once('open', () => ws.send(JSON.stringify({ t: 'auth', token })));
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { t: string; message?: Message };
      if (frame.t === 'hello') resolve(ws);
      if (frame.t === 'message' && frame.message) onMessage(frame.message);
    });
    ws.once('error', reject);
    ws.once('close', () => reject(new Error('recipient socket closed')));
  });
}

export async function benchMediaUpload(options: MediaOptions): Promise<MediaFigures> {
  const { clients, repeats } = options;
  // Rounds before the measured ones warm the server up (its code compiled, its caches
  // filled, as on a server that has been running) and are not counted. After one, V8 was
  // still optimizing the upload path in the measured rounds (6 ms a photo in a profile of
  // them; 4 ms after two).
  const rounds = WARMUP_ROUNDS + repeats;
  const photos = await Promise.all(
    Array.from({ length: clients * rounds }, (_, seed) => phonePhoto(seed + 1, options.photoBytes)),
  );
  const photoBytes = median(photos.map((photo) => photo.length));
  await thumbnail(photos[0]!);

  let server: ServerProcess | null = null;
  const sockets: WebSocket[] = [];
  try {
    server = await startTeltlk();
    const { baseUrl, wsUrl } = server;
    const accounts = await registerAccounts(baseUrl, clients * 2);
    const pairs: { sender: Account; recipient: Account }[] = [];
    for (let index = 0; index < clients; index += 1) {
      const sender = accounts[index * 2]!;
      const recipient = accounts[index * 2 + 1]!;
      await befriend(baseUrl, sender, recipient);
      pairs.push({ sender, recipient });
    }
    const arrived = new Map<string, () => void>();
    for (const { recipient } of pairs) {
      sockets.push(
        await recipientSocket(wsUrl, recipient.token, (message) => {
          if (message.content.kind === 'image') arrived.get(message.content.image.id)?.();
        }),
      );
    }

    const latencies: number[] = [];
    const cpuPerPhoto: number[] = [];
    const baselinePerPhoto: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const counted = round >= WARMUP_ROUNDS;
      const cpuBefore = await cpuMsOf(server.pid);
      await Promise.all(
        pairs.map(async ({ sender, recipient }, index) => {
          const started = performance.now();
          const photo = photos[round * clients + index]!;
          const media = await upload(baseUrl, sender.token, photo, `IMG_${round}_${index}.jpg`);
          if (media.kind !== 'image') throw new Error('the upload was not stored as a photo');
          const received = new Promise<void>((resolve) => arrived.set(media.image.id, resolve));
          await call<Message>(baseUrl, 'POST', '/messages', {
            token: sender.token,
            body: {
              conversationId: singleConversationId(sender.userId, recipient.userId),
              clientMsgId: `media-${round}-${index}`,
              content: media,
            },
          });
          await received;
          if (counted) latencies.push(performance.now() - started);
        }),
      );
      const serverCpu = ((await cpuMsOf(server.pid)) - cpuBefore) / clients;
      if (!counted) continue;
      const baselineCpu = await thumbnailsAlone(
        photos.slice(round * clients, (round + 1) * clients),
      );
      cpuPerPhoto.push(serverCpu);
      baselinePerPhoto.push(baselineCpu);
      ratios.push(serverCpu / baselineCpu);
    }
    latencies.sort((a, b) => a - b);
    return {
      serverCpuMsPerPhoto: median(cpuPerPhoto),
      baselineCpuMsPerPhoto: median(baselinePerPhoto),
      ratio: median(ratios),
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      photoBytes,
    };
  } finally {
    for (const socket of sockets) socket.terminate();
    await server?.stop();
  }
}
