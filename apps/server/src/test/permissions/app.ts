import { channel } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { RouteSensitivity } from '../../http/step-up.js';
import { createCast, type Cast } from '../cast.js';
import { FakeProvider } from '../fake-provider.js';
import { MemorySfu } from '../fake-sfu.js';
import type { Dialect } from '../../db/database.js';
import { createTestApp, type TestApp } from '../harness.js';
import { piEnv, startClockedSandbox } from '../pi-sandbox.js';
import { usePiSandbox } from './arrange.js';

/** The app a matrix suite tries, its cast, and the routes it registered. */
export interface MatrixApp {
  readonly t: TestApp;
  readonly w: Cast;
  /** `METHOD /url` of every route the app registered. */
  readonly routes: ReadonlySet<string>;
  /** Each sensitive route and what proves it (its `config.sensitive`). */
  readonly sensitiveRoutes: ReadonlyMap<string, RouteSensitivity>;
}

/**
 * Starts the matrix's app on a dialect before the suite it is called in (a local Pi
 * sandbox beside it, listening, since uploads (tus) and sockets are tried over real
 * connections) and closes it after.
 *
 * The route table is read as Fastify builds it: an onRoute hook attached through Fastify's
 * `fastify.initialization` diagnostics channel sees every route as it is registered,
 * hidden ones (docs, files, the socket, the web app) included, with nothing in the app
 * built for the test. The OpenAPI document would miss the hidden routes, and printRoutes
 * is a picture of the router's tree, not a list.
 */
export function matrixApp(dialect: Dialect): MatrixApp {
  let t: TestApp | undefined;
  let w: Cast | undefined;
  let closeSandbox: (() => Promise<void>) | undefined;
  const routes = new Set<string>();
  const sensitiveRoutes = new Map<string, RouteSensitivity>();
  const heads = new Set<string>();

  beforeAll(async () => {
    const initialization = channel('fastify.initialization');
    const collect = (message: unknown) => {
      const { fastify } = message as { fastify: FastifyInstance };
      fastify.addHook('onRoute', (route: RouteOptions) => {
        const sensitive = route.config?.sensitive;
        for (const method of [route.method].flat()) {
          if (method === 'HEAD') heads.add(route.url);
          else routes.add(`${method} ${route.url}`);
          if (sensitive && method !== 'HEAD')
            sensitiveRoutes.set(`${method} ${route.url}`, sensitive);
        }
      });
    };
    initialization.subscribe(collect);
    const started = await startClockedSandbox();
    usePiSandbox(started.sandbox);
    closeSandbox = () => started.sandbox.close();
    try {
      t = await createTestApp({
        dialect,
        translationProviders: [new FakeProvider()],
        env: piEnv(started.sandbox),
        // Group calls' rooms, so that who gets one is tried (Janus has a test of its own).
        sfu: new MemorySfu(),
      });
    } finally {
      initialization.unsubscribe(collect);
    }
    started.clock.use(t.clock);
    // A HEAD route runs its GET route's hooks and handler; one of its own needs a row.
    for (const url of heads) if (!routes.has(`GET ${url}`)) routes.add(`HEAD ${url}`);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    w = await createCast(t);
  });

  afterAll(async () => {
    await t?.ctx.services.translations.drain();
    await t?.close();
    await closeSandbox?.();
  });

  return {
    get t() {
      if (!t) throw new Error('the matrix app starts before the suite');
      return t;
    },
    get w() {
      if (!w) throw new Error('the matrix app starts before the suite');
      return w;
    },
    routes,
    sensitiveRoutes,
  };
}
