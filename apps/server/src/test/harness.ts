import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ERRORS,
  type AuthResult,
  type Channel,
  type StoredCodePurpose,
  type ErrorBody,
  type ErrorCode,
  type RegisterBody,
} from '@teltlk/protocol';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { expect } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createContext, type AppContext, type ContextOverrides } from '../context.js';
import type { Dialect } from '../db/database.js';
import type { App } from '../http/types.js';
import type { Clock } from '../lib/clock.js';

/**
 * Integration tests boot the real app in-process: SQLite in a fresh temp folder always,
 * and PostgreSQL in a fresh schema when TEST_DATABASE_URL is set.
 */

// The harness is test code; reading the environment here does not configure the server.
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** The dialects to run integration suites on: `describe.each(dialects)`. */
export const dialects: { dialect: Dialect }[] = [
  { dialect: 'sqlite' },
  ...(TEST_DATABASE_URL ? [{ dialect: 'postgres' as const }] : []),
];

/** A clock that stands still until a test moves it. */
export class TestClock implements Clock {
  constructor(private time = Date.UTC(2025, 0, 15, 12, 0, 0)) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

export interface TestAppOptions extends Omit<ContextOverrides, 'clock'> {
  dialect?: Dialect;
  /** Extra environment for loadConfig, e.g. NODE_ENV or WEB_DIST_DIR. */
  env?: Record<string, string>;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Client address; each call gets a random one by default so per-address limits stay out of the way. */
  ip?: string;
}

export interface RegisteredUser extends AuthResult {
  channel: Channel;
  destination: string;
  password: string;
}

export interface TestApp {
  app: App;
  ctx: AppContext;
  clock: TestClock;
  dataDir: string;
  call(
    method: InjectOptions['method'],
    url: string,
    options?: CallOptions,
  ): Promise<LightMyRequestResponse>;
  /** The newest code the dev outbox holds for a destination and purpose. */
  codeFor(destination: string, purpose: StoredCodePurpose): string;
  /** Registers through the public API: send code, read it, verify, register. */
  register(options?: RegisterOptions): Promise<RegisteredUser>;
  close(): Promise<void>;
}

export interface RegisterOptions extends Partial<Omit<RegisterBody, 'ticket'>> {
  channel?: Channel;
  destination?: string;
}

export const PASSWORD = 'Passw0rd!';

export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

let emailCounter = 0;
export function uniqueEmail(): string {
  emailCounter += 1;
  return `user${emailCounter}.${randomBytes(3).toString('hex')}@example.com`;
}

/** A valid mainland-China mobile number (libphonenumber checks real ranges). */
export function uniquePhone(): string {
  return `+86138${String(randomInt(10 ** 8)).padStart(8, '0')}`;
}

async function createPostgresSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(8).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const separator = TEST_DATABASE_URL.includes('?') ? '&' : '?';
  // Every pooled connection starts with this search_path, so test files share a database safely.
  const url = `${TEST_DATABASE_URL}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    url,
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { dialect = 'sqlite', env = {}, ...overrides } = options;
  const dataDir = await mkdtemp(join(tmpdir(), 'teltlk-test-'));
  const postgres = dialect === 'postgres' ? await createPostgresSchema() : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    // Codes are read from the dev outbox, which production refuses.
    ...(env.NODE_ENV === 'production' ? {} : { DEV_OUTBOX: 'true' }),
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  });
  const clock = new TestClock();
  const ctx = createContext(config, {
    clock,
    logger: pino({ level: 'silent' }),
    // Real argon2id, just cheap enough for hundreds of hashes per run.
    passwordHashing: { memoryCost: 1024, timeCost: 1 },
    // A frozen clock never refills a bucket: limits are raised unless a test is about them.
    rateLimits: { scale: 10_000 },
    // Tests never reach a real provider unless they pass a fake one.
    email: null,
    sms: null,
    ...overrides,
  });
  await ctx.migrate();
  const app = await buildApp(ctx);
  await app.ready();

  const call: TestApp['call'] = (
    method,
    url,
    { body, token, headers = {}, ip = randomIp() } = {},
  ) =>
    app.inject({
      method,
      url,
      remoteAddress: ip,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });

  const codeFor: TestApp['codeFor'] = (destination, purpose) => {
    const message = ctx.outbox
      ?.list()
      .find((m) => m.kind === 'code' && m.destination === destination && m.purpose === purpose);
    if (message?.kind !== 'code') {
      throw new Error(`no ${purpose} code for ${destination} in the outbox`);
    }
    return message.code;
  };

  const register: TestApp['register'] = async (input = {}) => {
    const {
      channel = 'email',
      destination = channel === 'email' ? uniqueEmail() : uniquePhone(),
      ...rest
    } = input;
    const sent = await call('POST', '/api/v1/auth/codes', {
      body: { purpose: 'register', channel, destination },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const code = codeFor(destination, 'register');
    const verified = await call('POST', '/api/v1/auth/codes/verify', {
      body: { purpose: 'register', channel, destination, code },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const body: RegisterBody = {
      ticket: verified.json<{ ticket: string }>().ticket,
      nickname: 'Tester',
      password: PASSWORD,
      country: 'CN',
      motherTongue: 'zh',
      ...rest,
    };
    const registered = await call('POST', '/api/v1/auth/register', { body });
    expect(registered.statusCode, registered.body).toBe(200);
    return { ...registered.json<AuthResult>(), channel, destination, password: body.password };
  };

  return {
    app,
    ctx,
    clock,
    dataDir,
    call,
    codeFor,
    register,
    async close() {
      await app.close();
      await ctx.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Asserts the protocol's error shape, status and code; returns the error for further checks. */
export function expectError(response: LightMyRequestResponse, code: ErrorCode): ErrorBody['error'] {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  const { error } = response.json<ErrorBody>();
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  return error;
}
