import { ApiError, type MediaUploader } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import { UPLOADS_PATH, type UploadedMedia } from '@teltlk/protocol';
import { useAuthStore } from '../app/auth-store';
import { api } from './client';

/** Bytes per request: a chunk on a slow mobile uplink (~200 kbit/s) takes under a minute. */
const CHUNK_BYTES = 1024 * 1024;
/** Waits between tries after a dropped connection, before the engine's own backoff takes over. */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000];

/** The media id of an upload's address (its last segment). */
function mediaIdOf(url: string): string {
  return url.split('/').pop() ?? '';
}

/**
 * Uploads by the tus protocol (tus-js-client, loaded with the first upload): chunked,
 * resumed after a dropped connection, and after a reload at the address the engine kept.
 * An upload that had finished before the reload is found by its id instead of being sent
 * twice.
 */
export const mediaUploader: MediaUploader = {
  async upload(job, events, signal) {
    if (job.url) {
      const stored = await api
        .call(routes.media.media, { params: { id: mediaIdOf(job.url) } })
        .catch(() => null);
      if (stored) return stored;
    }
    const { Upload } = await import('tus-js-client');
    return new Promise<UploadedMedia>((resolve, reject) => {
      const upload = new Upload(job.blob, {
        endpoint: new URL(UPLOADS_PATH, window.location.href).href,
        ...(job.url ? { uploadUrl: new URL(job.url, window.location.href).href } : {}),
        metadata: { ...job.metadata, kind: job.kind, name: job.name },
        chunkSize: CHUNK_BYTES,
        // The first chunk goes with the request that begins the upload: a round trip less,
        // and a small file done in one request.
        uploadDataDuringCreation: true,
        retryDelays: RETRY_DELAYS_MS,
        // The engine keeps the address itself (with the bytes, in the outbox).
        storeFingerprintForResuming: false,
        onBeforeRequest: (request) => {
          const token = useAuthStore.getState().token;
          if (token) request.setHeader('Authorization', `Bearer ${token}`);
        },
        onUploadUrlAvailable: () => {
          if (upload.url) events.onUrl(new URL(upload.url).pathname);
        },
        onProgress: (sent, total) => events.onProgress(sent, total),
        onSuccess: ({ lastResponse }) => {
          try {
            resolve(JSON.parse(lastResponse.getBody()) as UploadedMedia);
          } catch {
            reject(new ApiError('NETWORK_ERROR', 0));
          }
        },
        onError: (error) => {
          const response = 'originalResponse' in error ? error.originalResponse : null;
          reject(
            response
              ? api.errorOf(response.getStatus(), response.getBody())
              : new ApiError('NETWORK_ERROR', 0),
          );
        },
      });
      signal.addEventListener('abort', () => {
        void upload.abort();
        reject(new ApiError('NETWORK_ERROR', 0));
      });
      upload.start();
    });
  },
};
