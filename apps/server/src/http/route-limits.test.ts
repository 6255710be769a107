import { channel } from 'node:diagnostics_channel';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../modules/limits/rules.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { limitClassesOf } from './rate-limit.js';

/** Routes (exactly as registered) that may go without a limit class of their own, and why. */
const UNLIMITED: Record<string, string> = {
  'GET /healthz':
    "load balancers' health checks, every few seconds from a few addresses: answered from memory",
  'GET /ws':
    'the socket has limits of its own: sockets per address, user and session, and a class per frame (realtime/limits.ts)',
  'GET /*': "the web app's files: the same bytes for everyone, read from disk",
};

/** A HEAD route is what its GET route is. */
const unlimited = (route: string) => route.replace(/^HEAD /, 'GET ') in UNLIMITED;

/** Whether a route declares the bearer token in its schema: a route behind the session. */
const signedIn = (route: RouteOptions) =>
  Array.isArray((route.schema as { security?: unknown } | undefined)?.security);

describe('rate-limit classes of routes', () => {
  let t: TestApp;
  let webDir: string;
  /** Every route the app registered, as its options (read once every onRoute hook ran). */
  const routes: { name: string; options: RouteOptions }[] = [];

  beforeAll(async () => {
    // A built web app, so that its static files' routes are registered too.
    webDir = await mkdtemp(join(tmpdir(), 'teltlk-web-'));
    await mkdir(join(webDir, 'assets'));
    await writeFile(join(webDir, 'index.html'), '<!doctype html>');
    const initialization = channel('fastify.initialization');
    const collect = (message: unknown) => {
      const { fastify } = message as { fastify: FastifyInstance };
      fastify.addHook('onRoute', (route: RouteOptions) => {
        for (const method of [route.method].flat()) {
          routes.push({ name: `${method} ${route.url}`, options: route });
        }
      });
    };
    initialization.subscribe(collect);
    try {
      t = await createTestApp({ env: { WEB_DIST_DIR: webDir, API_DOCS: 'true' } });
    } finally {
      initialization.unsubscribe(collect);
    }
  });

  afterAll(async () => {
    await t?.close();
    await rm(webDir, { recursive: true, force: true });
  });

  const classesOf = (route: RouteOptions) =>
    [route.onRequest, route.preHandler].flat().flatMap((hook) => limitClassesOf(hook));

  it('gives every route a limit class of its own, in its own hooks', () => {
    const names = routes.map((route) => route.name);
    expect(names.length).toBeGreaterThan(100);
    // What the allow-list stands for is there: the web app's files, the socket, the docs.
    expect(names).toEqual(
      expect.arrayContaining(['GET /ws', 'GET /healthz', 'GET /*', 'GET /docs', 'GET /files/*']),
    );
    const bare = routes
      .filter(({ name, options }) => !unlimited(name) && classesOf(options).length === 0)
      .map(({ name }) => name);
    expect(bare, 'routes with no limit class of their own').toEqual([]);
    const stale = Object.keys(UNLIMITED).filter((entry) => !names.includes(entry));
    expect(stale, 'allow-list entries for routes the app does not have').toEqual([]);
  });

  it('counts a signed-in route per person, and names only classes that exist', () => {
    const notPerUser = routes
      .filter(({ options }) => signedIn(options))
      .filter(({ options }) => !classesOf(options).some((name) => name.endsWith('PerUser')))
      .map(({ name }) => name);
    expect(notPerUser, 'signed-in routes with no per-user class').toEqual([]);
    const unknown = routes.flatMap(({ options }) =>
      classesOf(options).filter((name) => !(name in LIMITS)),
    );
    expect(unknown).toEqual([]);
  });
});
