import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { finished } from 'node:stream';
import { Server, type ServerOptions } from '@tus/server';
import {
  MEDIA_KINDS,
  UPLOADS_PATH,
  isErrorCode,
  type ErrorBody,
  type ErrorCode,
  type MediaKind,
} from '@teltlk/protocol';
import { NodeRequest, sendNodeResponse } from 'srvx/node';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.js';
import { newId } from '../../lib/random.js';
import { UPLOAD_EXPIRY_MS, type MediaService } from './service.js';
import { StagingStore } from './staging-store.js';

type TusRequest = Parameters<NonNullable<ServerOptions['onIncomingRequest']>>[0];

/**
 * Resumable uploads (the tus protocol 1.0.0: creation, expiration, termination), staged
 * on this node's disk under `<DATA_DIR>/uploads` until they finish, then checked and
 * moved into the media storage by MediaService. Each upload belongs to the person who
 * began it; anyone else is told it does not exist. The size is declared when the upload
 * begins and checked against the kind's limit and the day's total before any byte is
 * taken; the type is decided by the bytes once they are all there.
 *
 * Staging is per node: behind a load balancer, the requests of an upload must reach the
 * node that began it (sticky sessions on the upload path).
 */
export class Uploads {
  private readonly owners = new WeakMap<IncomingMessage, string>();
  private readonly datastore: StagingStore;
  private readonly server: Server;

  constructor(
    private readonly deps: { media: MediaService; dataDir: string; logger: FastifyBaseLogger },
  ) {
    this.datastore = new StagingStore({
      directory: join(deps.dataDir, 'uploads'),
      expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
      // However an upload leaves the staging (stored, refused, cancelled, expired), it is
      // no longer under way.
      onRemove: (uploadId) => deps.media.release(uploadId),
    });
    const limits = deps.media.limits();
    this.server = new Server({
      path: UPLOADS_PATH,
      datastore: this.datastore,
      relativeLocation: true,
      // Same origin only: the app and its API share an address.
      allowedOrigins: [],
      namingFunction: () => newId(),
      // A bound for every request; each kind's own limit is checked when the upload begins.
      maxSize: Math.max(limits.image, limits.file),
      disableTerminationForFinishedUploads: true,
      onIncomingRequest: (req, id) => this.checkOwner(req, id),
      onUploadCreate: async (req, upload) => {
        const userId = this.ownerOf(req);
        const kind = upload.metadata?.kind;
        if (!isMediaKind(kind)) throw new AppError('VALIDATION_FAILED');
        // The size is declared up front, so limits hold before any byte is stored.
        if (upload.size === undefined) throw new AppError('MALFORMED_REQUEST');
        await deps.media.checkNewUpload(userId, kind, upload.size, upload.id);
        return { metadata: { ...upload.metadata, kind, owner: userId } };
      },
      onUploadFinish: async (req, upload) => {
        const userId = this.ownerOf(req);
        const kind = upload.metadata?.kind;
        if (!isMediaKind(kind)) throw new AppError('VALIDATION_FAILED');
        this.datastore.markFinished(upload.id);
        try {
          const metadata = upload.metadata ?? {};
          const media = await deps.media.store(userId, {
            id: upload.id,
            kind,
            name: metadata.name ?? 'file',
            path: join(deps.dataDir, 'uploads', upload.id),
            ...optional({
              durationMs: metadata.durationMs,
              waveform: metadata.waveform,
              width: metadata.width,
              height: metadata.height,
              posterId: metadata.poster,
            }),
          });
          return {
            // A request that began the upload answers as one (with its address), all done.
            status_code: req.method === 'POST' ? 201 : 200,
            headers: { 'Content-Type': 'application/json; charset=utf-8' },
            body: JSON.stringify(media),
          };
        } finally {
          // Stored or refused, the staged bytes are done with. Answering a request that
          // began an upload and finished it at once, tus reads the upload's description
          // again after this hook, so that one is removed once its answer is out.
          const res = req.method === 'POST' ? nodeResponseOf(req) : undefined;
          if (res && !res.writableFinished) res.once('close', () => void this.discard(upload.id));
          else await this.discard(upload.id);
        }
      },
      onResponseError: (_req, error) => this.errorBody(error),
    });
  }

  /**
   * Hands a request of the upload path (already authenticated) to the tus server, and
   * its answer back; a refusal goes out in the API's error shape whatever raised it.
   */
  async handle(userId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.owners.set(req, userId);
    const response = await this.server.handleWeb(uploadRequestOf(req, res));
    await sendNodeResponse(
      res,
      response.status >= 400 ? await this.asApiError(response) : response,
    );
  }

  /**
   * A refusal as the API words it: the bodies made by `errorBody` pass as they are; the
   * protocol's own checks (a missing Tus-Resumable header, a malformed one) answer plain
   * text, which becomes the code for their status.
   */
  private async asApiError(response: Response): Promise<Response> {
    const text = await response.text();
    let body = text;
    try {
      if (!isErrorCode((JSON.parse(text) as ErrorBody).error.code)) throw new Error('no code');
    } catch {
      body = this.errorBody({ status_code: response.status, body: text }).body;
    }
    const headers = new Headers(response.headers);
    headers.set('content-type', 'application/json; charset=utf-8');
    headers.set('content-length', String(Buffer.byteLength(body)));
    return new Response(response.status === 204 ? null : body, {
      status: response.status,
      headers,
    });
  }

  /** Removes an upload's staged bytes and description; a failure is logged, not raised. */
  private async discard(uploadId: string): Promise<void> {
    await this.datastore.remove(uploadId).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, uploadId }, 'could not remove a staged upload');
    });
  }

  /** Drops uploads begun more than a day ago and never finished. */
  async removeExpired(): Promise<number> {
    const removed = await this.server.cleanUpExpiredUploads();
    // Also those whose staged bytes were lost (another node's, a disk wiped).
    await this.deps.media.releaseExpired();
    return removed;
  }

  private ownerOf(req: TusRequest): string {
    const raw = req.runtime?.node?.req as IncomingMessage | undefined;
    const userId = raw && this.owners.get(raw);
    if (!userId) throw new AppError('UNAUTHENTICATED');
    return userId;
  }

  /** Someone else's upload looks absent, as does one that is gone. */
  private async checkOwner(req: TusRequest, id: string): Promise<void> {
    const userId = this.ownerOf(req);
    if (req.method === 'POST') return;
    const owner = await this.datastore.ownerOf(id).catch(() => null);
    if (owner !== userId) throw new AppError('NOT_FOUND');
  }

  /**
   * Every refusal in the API's error shape, whatever raised it. The protocol's own
   * refusals keep their status, each with a code of its own (a client resumes after 409
   * and 423, gives up on 404 and 410).
   */
  private errorBody(error: Error | { status_code: number; body: string }): {
    status_code: number;
    body: string;
  } {
    if (error instanceof AppError) {
      return { status_code: error.status, body: JSON.stringify(error.toBody()) };
    }
    const status = 'status_code' in error ? error.status_code : 500;
    if (status >= 500) this.deps.logger.warn({ err: error }, 'upload failed');
    const known = new AppError(
      TUS_CODES[status] ?? (status >= 500 ? 'INTERNAL' : 'MALFORMED_REQUEST'),
    );
    return { status_code: known.status, body: JSON.stringify(known.toBody()) };
  }
}

type Bytes = Uint8Array<ArrayBuffer>;

/** Bytes of a request body waiting in its stream before the request is paused. */
const BODY_WATER_BYTES = 64 * 1024;

/**
 * A request of the upload path whose body streams the Node request's own chunks. srvx's
 * (`Readable.toWeb`) copies each chunk, since a Buffer may be a slice of a shared pool;
 * the HTTP parser gives each chunk of a body memory of its own, so here they pass as
 * they are, and an upload's bytes are copied once less on their way to the disk.
 */
function uploadRequestOf(req: IncomingMessage, res: ServerResponse) {
  const request = new NodeRequest({ req, res });
  let body: ReadableStream<Bytes> | null = null;
  const bodiless = request.method === 'GET' || request.method === 'HEAD';
  Object.defineProperty(request, 'body', {
    get: () => (body ??= bodiless ? null : bodyStreamOf(req)),
  });
  return request;
}

/** A Node request's body as a web stream of its chunks, paused while the reader lags. */
function bodyStreamOf(req: IncomingMessage): ReadableStream<Bytes> {
  let ended = false;
  return new ReadableStream<Bytes>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (ended) return;
          // A socket's chunks are never shared memory.
          controller.enqueue(
            new Uint8Array(chunk.buffer as ArrayBuffer, chunk.byteOffset, chunk.byteLength),
          );
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        // A body cut short (a dropped connection) ends the stream with an error.
        finished(req, (error) => {
          if (ended) return;
          ended = true;
          if (error) controller.error(error);
          else controller.close();
        });
      },
      pull() {
        req.resume();
      },
      cancel(reason: unknown) {
        ended = true;
        req.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: BODY_WATER_BYTES, size: (chunk) => chunk.byteLength },
  );
}

/** The Node response a tus request is answered on. */
function nodeResponseOf(req: TusRequest): ServerResponse | undefined {
  return req.runtime?.node?.res as ServerResponse | undefined;
}

/** The tus protocol's refusals, by status, as API codes of the same status. */
const TUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'MALFORMED_REQUEST',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'UPLOAD_CONFLICT',
  410: 'UPLOAD_EXPIRED',
  412: 'UPLOAD_UNSUPPORTED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  423: 'UPLOAD_BUSY',
};

/** The fields that are set (upload metadata values may be null or missing). */
function optional<T extends Record<string, string | null | undefined>>(
  fields: T,
): { [K in keyof T]?: string } {
  return Object.fromEntries(
    Object.entries(fields).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  ) as { [K in keyof T]?: string };
}

function isMediaKind(value: unknown): value is MediaKind {
  return typeof value === 'string' && (MEDIA_KINDS as readonly string[]).includes(value);
}
