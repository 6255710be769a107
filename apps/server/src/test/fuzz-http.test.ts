import type { RunningPiSandbox } from '@teltlk/pi-sandbox';
import { type ErrorBody, ERRORS } from '@teltlk/protocol';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbWatch } from './db-digest.js';
import { FakeProvider } from './fake-provider.js';
import { MemorySfu } from './fake-sfu.js';
import {
  type FuzzRequest,
  isHidden,
  operationsOf,
  readApp,
  routerPath,
} from './fuzz-http-operations.js';
import {
  caseArbitrary,
  describeRequest,
  EDGE_ANSWERS,
  exampleOf,
  expectErrorShape,
  HUGE_UPLOAD,
  JSON_TYPE,
  MULTIPART,
  probed,
  RAW_BODIES,
  requestOf,
} from './fuzz-http-requests.js';
import { FuzzWorld, warningLog, WRITTEN_BY_REFUSALS } from './fuzz-world.js';
import { Inputs, seedFor } from './fuzz.js';
import { createTestApp, dialects, randomIp, type TestApp } from './harness.js';
import { piEnv, startClockedSandbox } from './pi-sandbox.js';

/**
 * Walks every operation of the OpenAPI document with generated inputs (valid-looking,
 * at and past each bound, of the wrong type, huge, odd Unicode, missing and extra
 * fields) and raw bodies (broken JSON, other content types, over the body limit), as
 * the owner of some data, as others and as nobody. Every answer must be below 500, every
 * refusal a known error in the `{ error: { code, message } }` shape, and a refusal must
 * leave the database as it was. FUZZ_SEED and FUZZ_RUNS replay or widen a run.
 */

// Test knobs, read here like the harness reads TEST_DATABASE_URL; they do not configure the server.
const SEED = Number(process.env.FUZZ_SEED ?? 0x7e17);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

const { doc, routes } = await readApp();
const operations = operationsOf(doc);

/** Sends requests and checks each answer, and that refusals wrote nothing. */
class Checker {
  private readonly watch: DbWatch;
  private ready = false;
  /** Answers that came from past the edge: a success or an error of the operation's own. */
  reached = 0;
  /** Whether a request other than a read was accepted, and may have changed the world. */
  changedWorld = false;

  constructor(
    private readonly t: TestApp,
    private readonly world: FuzzWorld,
    private readonly logged: string[],
  ) {
    this.watch = new DbWatch(t.ctx.db, t.ctx.dialect, WRITTEN_BY_REFUSALS);
  }

  async run(request: FuzzRequest): Promise<LightMyRequestResponse> {
    if (!this.ready) await this.watch.reset();
    this.ready = true;
    const response = await this.t.app.inject({ ...request, remoteAddress: randomIp() });
    // Work a request started (sends' later writes, calls, translations) is done before the
    // database is compared.
    await this.t.ctx.services.messages.drain();
    await this.t.ctx.services.calls.drain();
    await this.t.ctx.services.translations.drain();
    const changes = await this.watch.changes();
    const logged = this.logged.splice(0);
    const what = describeRequest(request, response);
    expect(response.statusCode, what).toBeLessThan(500);
    expect(logged.length, `logged:\n${logged.join('\n')}\n${what}`).toBe(0);
    if (response.statusCode < 400) {
      this.reached += 1;
      if (request.method !== 'GET' && request.method !== 'HEAD') this.changedWorld = true;
      // Only an accepted request can have ended a session.
      if (await this.world.keepSignedIn()) this.ready = false;
      return response;
    }
    if (request.method === 'HEAD') return response;
    // The landing site's own refusals are pages for people (HTML), the rest is the API's.
    const page =
      /^\/home(\/|$)/.test(request.url) &&
      /^text\/html/.test(String(response.headers['content-type']));
    if (page) this.reached += 1;
    else {
      expectErrorShape(response, what);
      if (!EDGE_ANSWERS.has(response.json<ErrorBody>().error.code)) this.reached += 1;
    }
    expect(
      changes.length,
      `refused, yet the database changed:\n${changes.join('\n')}\n${what}`,
    ).toBe(0);
    return response;
  }
}

// ------------------------------------------------------------------------- suites

describe('the fuzzer reaches every route', () => {
  it('finds operations in the document', () => {
    expect(operations.length).toBeGreaterThan(10);
  });

  it('has every route in the document or listed as hidden with a reason', () => {
    const documented = new Set(operations.map((op) => `${op.method} ${routerPath(op.path)}`));
    const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.path));
    const unreached = routes
      // Fastify answers HEAD for every GET by itself.
      .filter((route) => !(route.method === 'HEAD' && gets.has(route.path)))
      .filter((route) => !documented.has(`${route.method} ${route.path}`) && !isHidden(route))
      .map((route) => `${route.method} ${route.path}`);
    expect(unreached).toEqual([]);
  });
});

describe.each(dialects)('HTTP fuzz on $dialect', ({ dialect }) => {
  let t: TestApp;
  const logged: string[] = [];

  // Pi's Platform API, played locally: Pi's routes run as they would against Pi.
  let pi: RunningPiSandbox | undefined;

  beforeAll(async () => {
    const started = await startClockedSandbox();
    pi = started.sandbox;
    t = await createTestApp({
      dialect,
      logger: warningLog(logged),
      translationProviders: [new FakeProvider()],
      env: piEnv(pi),
      // Group calls' rooms: without an SFU their route answers 503 by design.
      sfu: new MemorySfu(),
    });
    started.clock.use(t.clock);
  });
  afterAll(async () => {
    await t?.close();
    await pi?.close();
  });

  // A world is used again by the next operation if nothing but reads were accepted in it.
  let shared: FuzzWorld | null = null;

  it.each(operations)('$key', async (op) => {
    const world = (shared ??= await FuzzWorld.create(t));
    const checker = new Checker(t, world, logged);
    const seed = seedFor(SEED, op.key);
    // Probes first, while the world is whole: each text and number place of a valid request.
    const examples = new Inputs(world.pool, true);
    for (const c of probed(op, examples, seed)) await checker.run(requestOf(op, world, c));

    try {
      await fc.assert(
        fc.asyncProperty(caseArbitrary(op, new Inputs(world.pool)), async (c) => {
          await checker.run(requestOf(op, world, c));
        }),
        { seed, numRuns: RUNS, endOnFailure: true },
      );
    } catch (error) {
      throw new Error(`${op.key} failed (FUZZ_SEED=${SEED}, seed ${seed}):\n${String(error)}`, {
        cause: error,
      });
    }

    // Raw bodies on an otherwise valid-looking request of the owner's.
    const base = requestOf(op, world, { ...exampleOf(op, examples, seed), body: undefined });
    let takesUploads = false;
    for (const raw of RAW_BODIES) {
      const headers = { ...base.headers, ...(raw.type ? { 'content-type': raw.type } : {}) };
      const response = await checker.run({ ...base, headers, payload: raw.payload });
      if (raw.type === MULTIPART && response.statusCode !== ERRORS.UNSUPPORTED_MEDIA_TYPE.status) {
        takesUploads = true;
      }
    }
    if (takesUploads) {
      await checker.run({
        ...base,
        headers: { ...base.headers, 'content-type': MULTIPART },
        payload: HUGE_UPLOAD,
      });
    }
    // The same path with a method it does not have, and HEAD for a GET.
    const methods = new Set(
      operations.filter((other) => other.path === op.path).map((other) => other.method),
    );
    const other = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'].find((method) => !methods.has(method))!;
    await checker.run({ ...base, method: other as InjectOptions['method'] });
    if (op.method === 'GET') await checker.run({ ...base, method: 'HEAD' });

    if (checker.changedWorld) shared = null;
    expect(checker.reached, `no request got past validation to ${op.key}`).toBeGreaterThan(0);
  });

  it("the landing site's form, whatever its body", async () => {
    const checker = new Checker(t, (shared ??= await FuzzWorld.create(t)), logged);
    const form = 'application/x-www-form-urlencoded';
    const bodies = [
      '',
      'lang=en_US',
      'lang=xx&name=%ff&email=a&kind=nope&message=',
      `name=${'a'.repeat(200)}&email=a%40b.c&kind=media&message=hi`,
      'name=A&email=a%40b.c&kind=media&message=%00',
      'name[]=A&email=a%40b.c&kind=media&message=hi',
      '%%%&&&===',
      'x'.repeat(20_000),
    ];
    for (const payload of bodies) {
      await checker.run({
        method: 'POST',
        url: '/home/cooperate',
        headers: { 'content-type': form },
        payload,
      });
    }
    await checker.run({
      method: 'POST',
      url: '/home/cooperate',
      headers: { 'content-type': JSON_TYPE },
      payload: '{"name":"A"}',
    });
  });

  it('hidden routes and paths that are no route', async () => {
    const world = (shared ??= await FuzzWorld.create(t));
    const checker = new Checker(t, world, logged);
    const token = { authorization: `Bearer ${world.token('owner')}` };
    const urls = [
      '/openapi.json',
      '/openapi.json?x=%zz',
      '/docs',
      '/docs/',
      '/docs/json',
      '/docs/yaml',
      '/docs/static/%2e%2e/%2e%2e/package.json',
      '/docs/static/..%2f..%2fpackage.json',
      '/docs/static/%00',
      '/dev/outbox',
      '/dev/outbox?x=%3Cscript%3E',
      '/ws',
      '/files/',
      '/files/..%2f..%2fetc%2fpasswd',
      '/files/%2e%2e/%2e%2e/etc/passwd',
      '/files/.env',
      '/files/%00',
      '/files/a%ff',
      '/files/avatars/nothing.webp',
      '/',
      '/index.html',
      '/%ff',
      '/..%2f..%2fetc%2fpasswd',
      `/${'a'.repeat(10_000)}`,
      '/api',
      '/api/v1',
      '/api/v1/',
      '/api/v1/nothing',
      '/api/v2/me',
      '/api/v1/me/',
      '/api/v1//me',
      '/API/V1/ME',
      '/api/v1/me%00',
      '/api/v1/me?%',
      '/home',
      '/home/',
      '/home/en',
      '/home/zh-tw/privacy/',
      '/home/..%2f..%2fpackage.json',
      '/home/%2e%2e/%2e%2e/etc/passwd/',
      '/home/%00/',
      '/home/download/android',
      '/home/download/%ff',
      '/home/cooperate',
    ];
    for (const url of urls) {
      for (const method of ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'] as const) {
        await checker.run({ method, url, headers: {} });
        await checker.run({
          method,
          url,
          headers: { ...token, 'content-type': JSON_TYPE },
          payload: '{"a":1}',
        });
      }
    }
  });
});
