import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { byAddress, limitBy, limitEveryRoute } from '../../http/rate-limit.js';
import type { RateLimiter } from '../limits/limiter.js';
import { FILES_URL_PREFIX, type FileStore } from './store.js';

/** Serves stored files. Names are random and never reused, so they may be cached for long. */
export async function fileRoutes(
  app: FastifyInstance,
  files: FileStore,
  limits: RateLimiter,
): Promise<void> {
  mkdirSync(files.root, { recursive: true });
  await app.register(async (scope) => {
    limitEveryRoute(scope, limitBy(limits, ['fileReadPerAddress', byAddress]));
    await scope.register(fastifyStatic, {
      root: files.root,
      prefix: FILES_URL_PREFIX,
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      maxAge: '30d',
      immutable: true,
    });
  });
}
