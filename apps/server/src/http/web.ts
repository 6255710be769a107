import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The built web app at `/`. Vite names files under /assets/ by their content hash, so they
 * are cached for a year; index.html is revalidated on every load so a new build shows at once.
 */
export async function webRoutes(app: FastifyInstance, root: string): Promise<void> {
  if (!existsSync(root)) {
    app.get('/', { schema: { hide: true } }, (_request, reply) =>
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
    index: 'index.html',
    cacheControl: false,
    setHeaders(reply, path) {
      const hashed = relative(root, path).startsWith(`assets${sep}`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
