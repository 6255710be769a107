import { IDBFactory } from 'fake-indexeddb';
import type { UploadedMedia } from '@teltlk/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@teltlk/client';
import type { ImEngine } from './engine.js';
import { PENDING_MEDIA_ID } from './engine.js';
import { FakeServer } from './fake-server.js';
import { FakeSocket } from './fake-socket.js';
import { CONV, testEngine } from './test-fixtures.js';
import type { ConversationHandle } from './types.js';
import type { MediaUploader, UploadEvents, UploadJob } from './uploads.js';

/**
 * A stand-in for the resumable upload the web app makes: each call is a step the test
 * lets through (or fails) by hand, and it records where each upload resumed from.
 */
class StepUploader implements MediaUploader {
  readonly calls: { job: UploadJob; events: UploadEvents; signal: AbortSignal }[] = [];
  private waiting: { resolve(media: UploadedMedia): void; reject(error: unknown): void }[] = [];

  upload(job: UploadJob, events: UploadEvents, signal: AbortSignal): Promise<UploadedMedia> {
    this.calls.push({ job, events, signal });
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      signal.addEventListener('abort', () => reject(new ApiError('NETWORK_ERROR', 0)));
    });
  }

  finish(media: UploadedMedia): void {
    this.waiting.shift()!.resolve(media);
  }

  fail(code: string): void {
    this.waiting.shift()!.reject(new ApiError(code as never, 413));
  }
}

const STORED: UploadedMedia = {
  kind: 'image',
  image: { id: 'abcdefghij0123456789', width: 30, height: 20, size: 321, mime: 'image/jpeg' },
};

let server: FakeServer;
let indexedDB: IDBFactory;
const engines: ImEngine[] = [];

beforeEach(() => {
  FakeSocket.reset();
  server = new FakeServer();
  indexedDB = new IDBFactory();
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.stop();
  FakeSocket.reset();
});

async function started(uploader: MediaUploader): Promise<ImEngine> {
  const engine = testEngine(server, indexedDB, { uploader });
  engines.push(engine);
  await engine.start();
  await vi.waitFor(() => expect(['syncing', 'ready']).toContain(engine.getSnapshot().status));
  return engine;
}

const photo = () => ({
  kind: 'image' as const,
  blob: new Blob([new Uint8Array(300)], { type: 'image/jpeg' }),
  name: 'IMG_1.jpg',
  width: 30,
  height: 20,
});

const only = (handle: ConversationHandle) => handle.getSnapshot().messages[0];

describe('media messages', () => {
  it('shows a photo at once, sends it once the upload is done, naming the stored media', async () => {
    const uploader = new StepUploader();
    const engine = await started(uploader);
    const handle = engine.conversation(CONV);
    const local = await handle.sendMedia(photo());
    expect(local.content).toMatchObject({ kind: 'image', image: { id: PENDING_MEDIA_ID } });
    // Shown waiting from the start, before its upload's turn.
    expect(engine.uploadProgress(local.clientMsgId)).toEqual({
      sent: 0,
      total: 300,
      paused: false,
    });
    await vi.waitFor(() => expect(uploader.calls).toHaveLength(1));
    expect(uploader.calls[0]!.job).toMatchObject({ kind: 'image', name: 'IMG_1.jpg', url: null });
    expect(await engine.pendingMedia(local.clientMsgId)).toBeInstanceOf(Blob);

    uploader.calls[0]!.events.onProgress(150, 300);
    expect(engine.uploadProgress(local.clientMsgId)).toEqual({
      sent: 150,
      total: 300,
      paused: false,
    });
    // Nothing goes on the socket while the bytes are on their way.
    expect(server.frames.filter((frame) => frame.t === 'send')).toEqual([]);

    uploader.finish(STORED);
    await vi.waitFor(() => expect(only(handle)?.status).toBe('sent'));
    expect(server.messages[0]?.content).toEqual(STORED);
    expect(only(handle)?.content).toEqual(STORED);
    expect(engine.uploadProgress(local.clientMsgId)).toBeNull();
    expect(await engine.pendingMedia(local.clientMsgId)).toBeNull();
  });

  it('goes on where it stopped after a reload', async () => {
    const uploader = new StepUploader();
    const first = await started(uploader);
    const local = await first.conversation(CONV).sendMedia(photo());
    await vi.waitFor(() => expect(uploader.calls).toHaveLength(1));
    uploader.calls[0]!.events.onUrl('/api/v1/uploads/abc');
    await first.stop();
    engines.splice(engines.indexOf(first), 1);
    FakeSocket.reset();
    server = Object.assign(new FakeServer(), { messages: server.messages, events: server.events });

    const again = new StepUploader();
    const second = await started(again);
    await vi.waitFor(() => expect(again.calls).toHaveLength(1));
    expect(again.calls[0]!.job.url).toBe('/api/v1/uploads/abc');
    expect(second.uploadProgress(local.clientMsgId)).toMatchObject({ paused: false });
    again.finish(STORED);
    const handle = second.conversation(CONV);
    await vi.waitFor(() => expect(only(handle)?.status).toBe('sent'));
    expect(server.messages).toHaveLength(1);
  });

  it('marks a refused upload failed with its reason, and starts it again on retry', async () => {
    const uploader = new StepUploader();
    const engine = await started(uploader);
    const handle = engine.conversation(CONV);
    const local = await handle.sendMedia(photo());
    await vi.waitFor(() => expect(uploader.calls).toHaveLength(1));
    uploader.fail('MEDIA_TOO_LARGE');
    await vi.waitFor(() => expect(only(handle)?.status).toBe('failed'));
    expect(only(handle)?.error).toBe('MEDIA_TOO_LARGE');
    expect(uploader.calls).toHaveLength(1);

    handle.retry(local.clientMsgId);
    await vi.waitFor(() => expect(uploader.calls).toHaveLength(2));
    expect(only(handle)?.status).toBe('sending');
    uploader.finish(STORED);
    await vi.waitFor(() => expect(only(handle)?.status).toBe('sent'));
    expect(server.messages).toHaveLength(1);
  });

  it('pauses and resumes an upload, and cancels one for good', async () => {
    const uploader = new StepUploader();
    const engine = await started(uploader);
    const handle = engine.conversation(CONV);
    const local = await handle.sendMedia(photo());
    await vi.waitFor(() => expect(uploader.calls).toHaveLength(1));
    await engine.pauseUpload(local.clientMsgId);
    expect(uploader.calls[0]!.signal.aborted).toBe(true);
    expect(engine.uploadProgress(local.clientMsgId)).toMatchObject({ paused: true });
    await engine.resumeUpload(local.clientMsgId);
    await vi.waitFor(() => expect(uploader.calls).toHaveLength(2));

    await engine.cancelUpload(local.clientMsgId);
    expect(uploader.calls[1]!.signal.aborted).toBe(true);
    await vi.waitFor(() => expect(handle.getSnapshot().messages).toEqual([]));
    expect(await engine.pendingMedia(local.clientMsgId)).toBeNull();
    expect(server.messages).toEqual([]);
  });

  it('uploads a video after its poster, naming the poster, and a voice with its length', async () => {
    const uploader = new StepUploader();
    const engine = await started(uploader);
    const handle = engine.conversation(CONV);
    const poster = {
      blob: new Blob([new Uint8Array(50)], { type: 'image/jpeg' }),
      width: 64,
      height: 36,
    };
    const local = await handle.sendMedia({
      kind: 'video',
      blob: new Blob([new Uint8Array(500)], { type: 'video/webm' }),
      name: 'clip.webm',
      width: 640,
      height: 360,
      durationMs: 2500,
      poster,
    });
    expect(engine.uploadProgress(local.clientMsgId)).toMatchObject({ total: 550 });
    await vi.waitFor(() => expect(uploader.calls).toHaveLength(1));
    expect(uploader.calls[0]!.job).toMatchObject({ kind: 'image', metadata: {} });
    const posterMedia = { ...STORED.image, id: 'poster00000000000000' };
    uploader.finish({ kind: 'image', image: posterMedia });
    await vi.waitFor(() => expect(uploader.calls).toHaveLength(2));
    expect(uploader.calls[1]!.job).toMatchObject({
      kind: 'video',
      metadata: { poster: 'poster00000000000000', durationMs: '2500', width: '640', height: '360' },
    });
    const video = {
      kind: 'video' as const,
      video: {
        id: 'video000000000000000',
        width: 640,
        height: 360,
        durationMs: 2500,
        size: 500,
        mime: 'video/webm',
        poster: posterMedia,
      },
    };
    uploader.finish(video);
    await vi.waitFor(() => expect(server.messages).toHaveLength(1));
    expect(server.messages[0]?.content).toEqual(video);

    await handle.sendMedia({
      kind: 'voice',
      blob: new Blob([new Uint8Array(80)], { type: 'audio/webm' }),
      name: 'voice.webm',
      durationMs: 1800,
      waveform: 'AAEC',
    });
    await vi.waitFor(() => expect(uploader.calls).toHaveLength(3));
    expect(uploader.calls[2]!.job).toMatchObject({
      kind: 'voice',
      metadata: { durationMs: '1800', waveform: 'AAEC' },
    });
  });

  it('says media cannot be sent when the engine has no uploader', async () => {
    const engine = testEngine(server, indexedDB);
    engines.push(engine);
    await engine.start();
    await expect(engine.conversation(CONV).sendMedia(photo())).rejects.toMatchObject({
      code: 'FEATURE_UNAVAILABLE',
    });
  });
});
