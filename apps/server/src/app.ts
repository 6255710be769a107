import { AppError } from './errors.js';
import {
  APP_VERSION,
  JSON_BODY_LIMIT_BYTES,
  authEndpoints,
  callEndpoints,
  contactEndpoints,
  devEndpoints,
  deviceLoginEndpoints,
  eventEndpoints,
  favouriteEndpoints,
  groupEndpoints,
  growthEndpoints,
  healthResult,
  mediaEndpoints,
  messageEndpoints,
  metaEndpoints,
  moneyEndpoints,
  nftEndpoints,
  paymentEndpoints,
  piEndpoints,
  pushEndpoints,
  securityEndpoints,
  sessionEndpoints,
  translationEndpoints,
  userEndpoints,
  walletEndpoints,
} from '@teltlk/protocol';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { TrustProxy } from './config.js';
import type { AppContext } from './context.js';
import { requireSession } from './http/auth.js';
import { requireStepUp } from './http/step-up.js';
import { serveAll } from './http/endpoints.js';
import { securityHandlers } from './modules/security/routes.js';
import { apiDocs } from './http/docs.js';
import { handleError, handleNotFound } from './http/errors.js';
import { refuseNul } from './http/nul.js';
import { byAddress, limitBy } from './http/rate-limit.js';
import { DebugRequestLog } from './http/request-log.js';
import { piSources, sfuSources, securityHeaders } from './http/security.js';
import { piHandlers, piServing } from './modules/pi/routes.js';
import { walletHandlers } from './modules/wallet/routes.js';
import { paymentHandlers } from './modules/payments/routes.js';
import { moneyHandlers } from './modules/money/routes.js';
import { nftHandlers } from './modules/nft/routes.js';
import { growthHandlers } from './modules/growth/routes.js';
import { deviceLoginHandlers } from './modules/devices/routes.js';
import { pushHandlers } from './modules/push/routes.js';
import { callHandlers } from './modules/calls/routes.js';
import type { App } from './http/types.js';
import { webRoutes } from './http/web.js';
import { landingRoutes } from './modules/landing/routes.js';
import { authHandlers, authServing, sessionHandlers } from './modules/auth/routes.js';
import { contactHandlers, contactServing } from './modules/contacts/routes.js';
import { devHandlers, devPageRoutes, devServing } from './modules/dev/routes.js';
import { eventHandlers } from './modules/events/routes.js';
import { fileRoutes } from './modules/files/routes.js';
import { groupHandlers, groupServing } from './modules/groups/routes.js';
import { favouriteHandlers, mediaHandlers, mediaServing } from './modules/media/routes.js';
import { messageHandlers, messageServing } from './modules/messages/routes.js';
import { translationHandlers } from './modules/translation/routes.js';
import { metaHandlers } from './modules/meta/routes.js';
import { userHandlers, userServing } from './modules/users/routes.js';
import { gatewayRoutes } from './realtime/gateway.js';

/** Below about a kilobyte compression saves less than it costs (a packet holds ~1.4 KB). */
const API_COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * X-Forwarded-For is read only from the proxies named: by hop count (the nearest n hops are
 * proxies; Fastify's types take it as a function) or by address.
 */
function trustProxyOption(
  trust: TrustProxy,
): false | string[] | ((ip: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_ip, hop) => hop < trust : trust;
}

/**
 * JSON answers of the API over API_COMPRESS_THRESHOLD_BYTES go out compressed (lists of
 * chats, messages, members). Only here: the socket is no HTTP answer, files are stored
 * images, and the web app is compressed once at build time (web.ts). Request bodies are
 * not decompressed: a small compressed body could expand past the body limit's intent.
 */
async function apiCompression(api: App): Promise<void> {
  await api.register(fastifyCompress, {
    threshold: API_COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: /^application\/json(?:;|$)/,
    globalDecompression: false,
  });
}

/** The HTTP application over a built context; the caller listens (or injects, in tests). */
export async function buildApp(ctx: AppContext): Promise<App> {
  const logger: FastifyBaseLogger = ctx.logger;
  const timeouts = ctx.serverTimeouts;
  const app = Fastify({
    loggerInstance: logger,
    logController: new DebugRequestLog(),
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // Slow or silent clients cannot hold connections open (see ServerTimeouts).
    connectionTimeout: timeouts.connectionTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    http: {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    // Keep-alive sockets would hold a graceful shutdown open until they time out.
    forceCloseConnections: 'idle',
    // Undecodable URLs and the like are answered before routing; give them the same error shape.
    frameworkErrors: (error, request, reply) => void handleError(error, request, reply),
  }).withTypeProvider<ZodTypeProvider>();
  // JSON only: Fastify would otherwise hand text/plain bodies to the schemas as strings.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(handleNotFound);
  app.decorateRequest('auth', null);
  refuseNul(app);

  await securityHeaders(app, piSources(ctx.config.pi), sfuSources(ctx.config.calls));
  await apiDocs(app, ctx.config.apiDocs, ctx.limits);

  app.get('/healthz', { schema: { tags: ['meta'], response: { 200: healthResult } } }, () => ({
    status: 'ok' as const,
    version: APP_VERSION,
  }));

  await app.register(
    async (api: App) => {
      // A floor under every class of its own: no address calls the API without end.
      api.addHook('onRequest', limitBy(ctx.limits, ['apiPerAddress', byAddress]));
      // Under maintenance every call is refused with the spec's message, except what
      // tells clients so (versions) and the country list of the sign-in page.
      api.addHook('onRequest', async (request) => {
        if (request.url.startsWith('/api/v1/meta/')) return;
        if ((await ctx.services.flags.maintenance()) !== null) throw new AppError('MAINTENANCE');
      });
      await apiCompression(api);
      // Everything registered in here needs a session; new routes are protected by default.
      await api.register(async (secured: App) => {
        secured.addHook('onRequest', requireSession(ctx.services.sessions));
        // After the session is known: sensitive routes proven by a step-up on it.
        secured.addHook('onRequest', requireStepUp(ctx.services.stepUp));
        const scopes = { public: api, session: secured, limits: ctx.limits };
        await serveAll(scopes, securityEndpoints, securityHandlers(ctx));
        await serveAll(scopes, authEndpoints, authHandlers(ctx), authServing);
        await serveAll(scopes, sessionEndpoints, sessionHandlers(ctx));
        await serveAll(scopes, userEndpoints, userHandlers(ctx), userServing);
        await serveAll(scopes, metaEndpoints, metaHandlers(ctx));
        if (ctx.outbox) await serveAll(scopes, devEndpoints, devHandlers(ctx.outbox), devServing);
        await serveAll(scopes, eventEndpoints, eventHandlers(ctx));
        await serveAll(scopes, contactEndpoints, contactHandlers(ctx), contactServing);
        await serveAll(scopes, messageEndpoints, messageHandlers(ctx), messageServing);
        await serveAll(scopes, translationEndpoints, translationHandlers(ctx));
        await serveAll(scopes, groupEndpoints, groupHandlers(ctx), groupServing);
        await serveAll(scopes, mediaEndpoints, mediaHandlers(ctx), mediaServing);
        await serveAll(scopes, favouriteEndpoints, favouriteHandlers(ctx));
        await serveAll(scopes, piEndpoints, piHandlers(ctx), piServing);
        await serveAll(scopes, walletEndpoints, walletHandlers(ctx));
        await serveAll(scopes, paymentEndpoints, paymentHandlers(ctx));
        await serveAll(scopes, moneyEndpoints, moneyHandlers(ctx));
        await serveAll(scopes, nftEndpoints, nftHandlers(ctx));
        await serveAll(scopes, growthEndpoints, growthHandlers(ctx));
        await serveAll(scopes, deviceLoginEndpoints, deviceLoginHandlers(ctx));
        await serveAll(scopes, pushEndpoints, pushHandlers(ctx));
        await serveAll(scopes, callEndpoints, callHandlers(ctx));
      });
    },
    { prefix: '/api/v1' },
  );

  if (ctx.outbox) devPageRoutes(app, ctx.outbox, ctx.limits);
  // The socket authenticates by its first frame, not by a header, so it sits outside the API.
  await gatewayRoutes(app, ctx);
  await fileRoutes(app, ctx.files, ctx.limits);
  await landingRoutes(app, ctx);
  await webRoutes(app, ctx.config.webDistDir, ctx.limits);
  return app;
}
