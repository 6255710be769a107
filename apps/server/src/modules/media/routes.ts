import {
  addFavouriteBody,
  favouriteParams,
  favouritesResult,
  mediaIdSchema,
  mediaLimitsSchema,
  mediaUrlsBody,
  mediaUrlsResult,
  uploadedMediaSchema,
} from '@teltlk/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { authOf } from '../../http/auth.js';
import { byAddress, byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import type { ByteRange } from './storage.js';

const tags = ['media'];
const security = [{ bearer: [] }];

/** Media of chats (behind `requireSession`): limits, stored media, signed addresses, uploads. */
export async function mediaRoutes(app: App, { services: { media }, uploads, limits }: AppContext) {
  app.get(
    '/media/limits',
    {
      schema: {
        tags,
        summary: 'Largest photo and file, and the daily upload total',
        security,
        response: { 200: mediaLimitsSchema },
      },
      onRequest: limitBy(limits, ['accountReadPerUser', byUser]),
    },
    () => media.limits(),
  );
  app.get(
    '/media/:id',
    {
      schema: {
        tags,
        summary: 'A stored media you uploaded or can see in a chat',
        security,
        params: z.object({ id: mediaIdSchema }),
        response: { 200: uploadedMediaSchema },
      },
      onRequest: limitBy(limits, ['mediaInfoPerUser', byUser]),
    },
    (request) => media.get(authOf(request).userId, request.params.id),
  );
  app.post(
    '/media/urls',
    {
      schema: {
        tags,
        summary: 'Short-lived addresses of media you can see',
        security,
        body: mediaUrlsBody,
        response: { 200: mediaUrlsResult },
      },
      onRequest: limitBy(limits, ['mediaUrlsPerUser', byUser]),
    },
    (request) => media.urls(authOf(request).userId, request.body.ids),
  );

  const favouriteLimit = limitBy(limits, ['faceFavouritePerUser', byUser]);
  app.get(
    '/faces/favourites',
    {
      schema: {
        tags,
        summary: 'Your favourite stickers (photos you kept), newest first',
        security,
        response: { 200: favouritesResult },
      },
      onRequest: limitBy(limits, ['accountReadPerUser', byUser]),
    },
    (request) => media.favourites(authOf(request).userId),
  );
  app.post(
    '/faces/favourites',
    {
      schema: {
        tags,
        summary: 'Keep a photo you can see as a sticker',
        security,
        body: addFavouriteBody,
        response: { 200: favouritesResult },
      },
      onRequest: favouriteLimit,
    },
    (request) => media.addFavourite(authOf(request).userId, request.body.mediaId),
  );
  app.delete(
    '/faces/favourites/:mediaId',
    {
      schema: {
        tags,
        summary: 'Remove a favourite sticker',
        security,
        params: favouriteParams,
        response: { 200: favouritesResult },
      },
      onRequest: favouriteLimit,
    },
    (request) => media.removeFavourite(authOf(request).userId, request.params.mediaId),
  );

  // The tus protocol reads its own bodies: the chunks stream to disk as they come.
  await app.register((tus: App, _options, done: () => void) => {
    tus.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) =>
      done(null),
    );
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      const { userId } = authOf(request);
      reply.hijack();
      await uploads.handle(userId, request.raw, reply.raw);
    };
    const doc = (summary: string) => ({ tags, summary, security, hide: false });
    // The chunks are photos and videos already compressed, and tus answers carry no body:
    // nothing to compress or decompress on the way.
    const raw = { compress: false, decompress: false } as const;
    tus.post(
      '/uploads',
      {
        schema: doc('Begin a resumable upload (tus 1.0.0; metadata kind and name)'),
        onRequest: limitBy(limits, ['mediaUploadPerUser', byUser]),
        ...raw,
      },
      handle,
    );
    for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
      tus.route({
        method,
        url: '/uploads/:id',
        schema: {
          ...doc(`${method} of a resumable upload (tus 1.0.0)`),
          params: z.object({ id: mediaIdSchema }),
        },
        onRequest: limitBy(limits, ['mediaChunkPerUser', byUser]),
        ...raw,
        handler: handle,
      });
    }
    done();
  });
}

const variantParams = z.object({
  id: mediaIdSchema,
  variant: z.enum(['original', 'thumb']),
});
const signedQuery = z.object({
  e: z.string().regex(/^\d{1,12}$/),
  s: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

/**
 * Media bytes by signed address (no session: an <img> or <video> sends no bearer token).
 * The address names one object until it expires; byte ranges are served, so a video
 * seeks and a download resumes.
 */
export function mediaFileRoutes(app: App, { services: { media }, limits }: AppContext): void {
  app.get(
    '/media/:id/:variant',
    {
      schema: {
        tags,
        summary: 'A media object by its signed address (byte ranges served)',
        params: variantParams,
        querystring: signedQuery,
      },
      onRequest: limitBy(limits, ['mediaReadPerAddress', byAddress]),
    },
    async (request, reply) => {
      const { id, variant } = request.params;
      const address = { id, variant, expires: request.query.e, signature: request.query.s };
      const found = await media.find(address);
      if (!found) throw new AppError('MEDIA_NOT_FOUND');
      const { row, key, size, mime } = found;
      const etag = `"${id}-${variant}"`;
      const maxAge = Math.max(0, Number(request.query.e) - Math.floor(Date.now() / 1000));
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
    },
  );
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
