import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { RateLimiter } from '../modules/limits/limiter.js';
import { byAddress, limitBy } from './rate-limit.js';

/**
 * The built web app at `/`. Vite names files under /assets/ by their content hash, so they
 * are cached for a year; index.html is revalidated on every load so a new build shows at once.
 *
 * The build writes Brotli (.br) and gzip (.gz) copies beside each compressible file; the
 * one the browser accepts is sent (Brotli first), with `Vary: Accept-Encoding` on every
 * answer, compressed or not, so shared caches keep them apart. Files without a copy (small
 * ones, images) and clients that accept neither get the file itself.
 */
export async function webRoutes(
  app: FastifyInstance,
  root: string,
  limits: RateLimiter,
): Promise<void> {
  if (!existsSync(root)) {
    const page = limitBy(limits, ['publicInfoPerAddress', byAddress]);
    app.get('/', { schema: { hide: true }, onRequest: page }, (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send(
          `Teltlk server is running, but the web app is not built (${root} is missing).\nRun \`npm run build\` and restart.\n`,
        ),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // A list, not a string: with preCompressed the plugin finds `/`'s index only in a list.
    index: ['index.html'],
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, path) {
      const hashed = relative(root, path).startsWith(`assets${sep}`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
