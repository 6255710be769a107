import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { FILES_URL_PREFIX, type FileStore } from './store.js';

/** Serves stored files. Names are random and never reused, so they may be cached for long. */
export async function fileRoutes(app: FastifyInstance, files: FileStore): Promise<void> {
  mkdirSync(files.root, { recursive: true });
  await app.register(fastifyStatic, {
    root: files.root,
    prefix: FILES_URL_PREFIX,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    maxAge: '30d',
    immutable: true,
  });
}
