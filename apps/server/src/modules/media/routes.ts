import type { favouriteEndpoints, mediaEndpoints } from '@teltlk/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import type { Call, Handlers, Serving } from '../../http/endpoints.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { MediaService } from './service.js';
import type { ByteRange } from './storage.js';
import type { Uploads } from './uploads.js';

/** Media of chats: limits, stored media, signed addresses and their bytes, uploads. */
export function mediaHandlers({
  services: { media },
  uploads,
}: AppContext): Handlers<typeof mediaEndpoints> {
  return {
    limits: () => media.limits(),
    media: ({ auth, params }) => media.get(auth.userId, params.id),
    urls: ({ auth, body }) => media.urls(auth.userId, body.ids),
    object: (call) => sendObject(media, call),
    beginUpload: (call) => viaTus(uploads, call),
    uploadOffset: (call) => viaTus(uploads, call),
    uploadChunk: (call) => viaTus(uploads, call),
    cancelUpload: (call) => viaTus(uploads, call),
  };
}

// The tus protocol reads its own bodies: the chunks stream to disk as they come. They are
// photos and videos already compressed, and tus answers carry no body: nothing to
// compress or decompress on the way.
const tus: Serving = { raw: { contentTypes: ['application/offset+octet-stream'] } };

export const mediaServing: Partial<Record<keyof typeof mediaEndpoints, Serving>> = {
  beginUpload: tus,
  uploadOffset: tus,
  uploadChunk: tus,
  cancelUpload: tus,
};

/** The signed-in person's favourite stickers. */
export function favouriteHandlers({
  services: { media },
}: AppContext): Handlers<typeof favouriteEndpoints> {
  return {
    favourites: ({ auth }) => media.favourites(auth.userId),
    add: ({ auth, body }) => media.addFavourite(auth.userId, body.mediaId),
    remove: ({ auth, params }) => media.removeFavourite(auth.userId, params.mediaId),
  };
}

/** Hands a request of the upload path to the tus server, which answers it itself. */
async function viaTus(
  uploads: Uploads,
  { auth, request, reply }: { auth: AuthInfo; request: FastifyRequest; reply: FastifyReply },
): Promise<void> {
  reply.hijack();
  await uploads.handle(auth.userId, request.raw, reply.raw);
}

/**
 * A media object by its signed address. The address names one object until it expires;
 * byte ranges are served, so a video seeks and a download resumes.
 */
async function sendObject(
  media: MediaService,
  { params, query, request, reply }: Call<typeof mediaEndpoints.object>,
): Promise<FastifyReply> {
  const { id, variant } = params;
  const address = { id, variant, expires: query.e, signature: query.s };
  const found = await media.find(address);
  if (!found) throw new AppError('MEDIA_NOT_FOUND');
  const { row, key, size, mime } = found;
  const etag = `"${id}-${variant}"`;
  const maxAge = Math.max(0, Number(query.e) - Math.floor(Date.now() / 1000));
  reply
    .header('etag', etag)
    .header('cache-control', `private, max-age=${maxAge}, immutable`)
    .header('accept-ranges', 'bytes')
    .header('content-type', mime);
  if (row.kind === 'file') {
    // Never shown by the browser as a page of this site, whatever it holds.
    reply
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeRFC5987(row.name)}`)
      .header('content-security-policy', "sandbox; default-src 'none'");
  } else reply.header('content-disposition', 'inline');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  // Thumbnails are small and served whole.
  const rangeHeader = size === null ? undefined : request.headers.range;
  const range = rangeHeader && size !== null ? parseRange(rangeHeader, size) : undefined;
  if (range === null) {
    return reply.code(416).header('content-range', `bytes */${size}`).send();
  }
  const object = await media.read(key, range);
  if (!object) throw new AppError('MEDIA_NOT_FOUND');
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${object.size}`)
      .header('content-length', range.end - range.start + 1);
  } else reply.header('content-length', object.size);
  return reply.send(object.body);
}

/**
 * One byte range of `Range: bytes=a-b`, `a-` or `-n` within `size`; undefined when the
 * header asks for none we serve (several ranges: the whole object), null when it cannot
 * be satisfied.
 */
export function parseRange(header: string, size: number): ByteRange | null | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  if (size === 0) return null;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return null;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || start > end) return null;
  return { start, end };
}

function encodeRFC5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
