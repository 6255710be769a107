import { channel } from 'node:diagnostics_channel';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { fileRoutes } from '../modules/files/routes.js';
import { landingRoutes } from '../modules/landing/routes.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { OFF_CONTRACT, type OffContractModule } from './off-contract.js';

/** How each module of the list registers its routes. */
const REGISTRARS: Record<OffContractModule, (app: FastifyInstance, ctx: AppContext) => unknown> = {
  landing: (app, ctx) => landingRoutes(app, ctx),
  files: (app, ctx) => fileRoutes(app, ctx.files, ctx.limits),
};

/** `METHOD /url` of each route `app` registers from now on, but HEADs of its GETs. */
function routesOf(app: FastifyInstance, into: Set<string>): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) into.add(`${method} ${route.url}`);
  });
}

const withoutHeadsOfGets = (routes: Set<string>) =>
  [...routes].filter(
    (route) => !route.startsWith('HEAD ') || !routes.has(route.replace(/^HEAD /, 'GET ')),
  );

describe('routes off the contract', () => {
  let t: TestApp;
  const routes = new Set<string>();
  let documented: Set<string>;

  beforeAll(async () => {
    const initialization = channel('fastify.initialization');
    const collect = (message: unknown) =>
      routesOf((message as { fastify: FastifyInstance }).fastify, routes);
    initialization.subscribe(collect);
    try {
      t = await createTestApp({ env: { API_DOCS: 'true' } });
    } finally {
      initialization.unsubscribe(collect);
    }
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
    documented = new Set(
      Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map(
          (method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        ),
      ),
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  const listed = Object.values(OFF_CONTRACT).flatMap((entries) => Object.keys(entries));

  it('are routes the app has, outside the API and its docs', () => {
    expect(listed.filter((route) => !routes.has(route))).toEqual([]);
    expect(listed.filter((route) => route.split(' ')[1]!.startsWith('/api/'))).toEqual([]);
    expect(listed.filter((route) => documented.has(route))).toEqual([]);
  });

  for (const module of Object.keys(OFF_CONTRACT) as OffContractModule[]) {
    it(`are every route of ${module}, each listed once`, async () => {
      const app = Fastify({ logger: false });
      const own = new Set<string>();
      routesOf(app, own);
      try {
        await REGISTRARS[module](app, t.ctx);
        await app.ready();
      } finally {
        await app.close();
      }
      expect(withoutHeadsOfGets(own).sort()).toEqual(Object.keys(OFF_CONTRACT[module]).sort());
    });
  }
});
