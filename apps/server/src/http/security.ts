import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

const SELF = "'self'";

/**
 * Security headers for every response. The policy fits the built web app (own scripts and
 * styles only, images also from data: and blob: URLs for previews, sockets to this host)
 * and the API docs at /docs, which load only their own files too.
 */
export async function securityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: [SELF],
        baseUri: [SELF],
        scriptSrc: [SELF],
        scriptSrcAttr: ["'none'"],
        styleSrc: [SELF],
        imgSrc: [SELF, 'data:', 'blob:'],
        mediaSrc: [SELF, 'blob:'],
        fontSrc: [SELF, 'data:'],
        connectSrc: [SELF, 'ws:', 'wss:'],
        workerSrc: [SELF, 'blob:'],
        manifestSrc: [SELF],
        objectSrc: ["'none'"],
        frameAncestors: [SELF],
        formAction: [SELF],
      },
    },
  });
}
