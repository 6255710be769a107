import type { AddressInfo } from 'node:net';
import {
  UPLOADS_PATH,
  singleConversationId,
  type ErrorBody,
  type MediaUrlsResult,
  type UploadedMedia,
} from '@teltlk/protocol';
import sharp from 'sharp';
import { Upload, type DetailedError } from 'tus-js-client';
import { expect } from 'vitest';
import type { Dialect } from '../db/database.js';
import { createTestApp, type RegisteredUser, type TestApp } from './harness.js';

let counter = 0;
export const clientId = () => `media-${Date.now().toString(36)}-${(counter += 1)}`;

/** A photo as a phone takes it: turned by EXIF (orientation 6), with camera metadata. */
export async function phonePhoto(width = 64, height = 32): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } },
  })
    .jpeg()
    .withMetadata({ orientation: 6, exif: { IFD0: { Make: 'PhoneMaker', Artist: 'Ada' } } })
    .toBuffer();
}

export interface Uploaded {
  media: UploadedMedia;
  url: string;
}

/** The refusal of an upload, as the tus client reports it: status and the API's error body. */
export interface Refusal {
  status: number;
  code: string;
}

export function refusalOf(error: Error | DetailedError): Refusal {
  const response = (error as DetailedError).originalResponse;
  if (!response) throw error;
  const body = JSON.parse(response.getBody()) as ErrorBody;
  return { status: response.getStatus(), code: body.error.code };
}

/**
 * The media tests' calls, as people of the app made by `app`, listening at `base` (the
 * uploads go over the network, as the web app sends them).
 */
export function mediaApi(app: () => TestApp, base: () => string) {
  /**
   * Uploads through the tus protocol as the web app does, in small chunks, the first with
   * the request that begins the upload.
   */
  function upload(
    user: RegisteredUser,
    data: Buffer,
    metadata: Record<string, string>,
    options: { chunkSize?: number; uploadUrl?: string; stopAfter?: number } = {},
  ): Promise<Uploaded> {
    return new Promise((resolve, reject) => {
      let chunks = 0;
      const tus: Upload = new Upload(data, {
        endpoint: base() + UPLOADS_PATH,
        ...(options.uploadUrl ? { uploadUrl: options.uploadUrl } : {}),
        headers: { authorization: `Bearer ${user.token}` },
        metadata,
        chunkSize: options.chunkSize ?? 16 * 1024,
        uploadDataDuringCreation: true,
        retryDelays: null,
        onChunkComplete: () => {
          chunks += 1;
          if (options.stopAfter !== undefined && chunks >= options.stopAfter) {
            void tus.abort().then(() => reject(new Error(`stopped:${tus.url}`)));
          }
        },
        onSuccess: ({ lastResponse }) =>
          resolve({ media: JSON.parse(lastResponse.getBody()) as UploadedMedia, url: tus.url! }),
        onError: reject,
      });
      tus.start();
    });
  }

  async function sendContent(user: RegisteredUser, conversationId: string, content: unknown) {
    return app().call('POST', '/api/v1/messages', {
      token: user.token,
      body: { conversationId, clientMsgId: clientId(), content },
    });
  }

  async function urlsFor(user: RegisteredUser, ids: string[]): Promise<MediaUrlsResult> {
    const response = await app().call('POST', '/api/v1/media/urls', {
      token: user.token,
      body: { ids },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MediaUrlsResult>();
  }

  return { upload, sendContent, urlsFor };
}

/**
 * The media tests' app, listening on a port, with small caps (photos 1 MB, files 2 MB, a
 * day 3 MB): Ada and Bob are friends with a conversation, Eve a stranger to both.
 */
export async function mediaWorld(dialect: Dialect) {
  const t = await createTestApp({
    dialect,
    env: { MEDIA_IMAGE_MAX_MB: '1', MEDIA_FILE_MAX_MB: '2', MEDIA_DAILY_MB: '3' },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const [ada, bob, eve] = await Promise.all([t.register(), t.register(), t.register()]);
  const { contacts } = t.ctx.services;
  const request = await contacts.sendRequest(
    { userId: ada.user.id, sessionId: 'test' },
    { userId: bob.user.id },
  );
  await contacts.acceptRequest({ userId: bob.user.id, sessionId: 'test' }, request.id);
  return { t, base, ada, bob, eve, adaBob: singleConversationId(ada.user.id, bob.user.id) };
}
