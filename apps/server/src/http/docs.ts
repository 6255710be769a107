import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { APP_VERSION } from '@teltlk/protocol';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { RateLimiter } from '../modules/limits/limiter.js';
import { byAddress, limitBy, limitEveryRoute } from './rate-limit.js';
import type { App } from './types.js';

/**
 * The OpenAPI document, generated from the routes' zod schemas. `app.swagger()` builds it
 * always (tests walk it); `serve` puts it at /openapi.json and as a UI at /docs, which
 * otherwise answer 404 like any unknown path.
 */
export async function apiDocs(app: App, serve: boolean, limits: RateLimiter): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Teltlk API',
        version: APP_VERSION,
        description:
          'Errors leave as `{ "error": { "code", "message", "params"?, "issues"? } }`; codes and statuses are in packages/protocol/src/errors.ts.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  if (!serve) return;
  const reads = limitBy(limits, ['docsPerAddress', byAddress]);
  await app.register(async (scope) => {
    limitEveryRoute(scope, reads);
    await scope.register(swaggerUi, {
      routePrefix: '/docs',
      // The validator badge would load an image from another host, which the CSP forbids.
      uiConfig: { validatorUrl: null },
      // Swagger UI sets a few inline styles; allow those on its own pages only, scripts stay 'self'.
      transformStaticCSP: (header) =>
        header.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
    });
  });
  app.get('/openapi.json', { schema: { hide: true }, onRequest: reads }, () => app.swagger());
}
