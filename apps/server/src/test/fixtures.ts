import { singleConversationId } from '@teltlk/protocol';
import sharp from 'sharp';
import { expect } from 'vitest';
import { newId } from '../lib/random.js';
import type { RegisteredUser, TestApp } from './harness.js';

/** A small image as the multipart upload of the field `file`. */
export async function imageUpload(): Promise<{
  payload: Buffer;
  headers: Record<string, string>;
}> {
  const image = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: 20, g: 90, b: 200 } },
  })
    .png()
    .toBuffer();
  const boundary = '----teltlk-image-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="g.png"\r\n` +
        `Content-Type: image/png\r\n\r\n`,
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The session-less form services take: tests act as a user without a request. */
export function authOf(user: RegisteredUser): { userId: string; sessionId: string } {
  return { userId: user.user.id, sessionId: 'test' };
}

/** Makes two users friends: `a` asks, `b` accepts. */
export async function befriend(t: TestApp, a: RegisteredUser, b: RegisteredUser): Promise<void> {
  const { contacts } = t.ctx.services;
  const request = await contacts.sendRequest(authOf(a), { userId: b.user.id });
  if (request.status === 'pending') await contacts.acceptRequest(authOf(b), request.id);
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * The API as a test's users call it, on the app `app()` gives (made in beforeAll): a
 * call, the body of its 200 answer, a message sent, a one-to-one chat between friends.
 */
export function userApi(app: () => TestApp) {
  let sent = 0;
  const call = (user: RegisteredUser, method: Method, url: string, body?: unknown) =>
    app().call(method, `/api/v1${url}`, { token: user.token, body });
  const ok = <T = unknown>(response: Awaited<ReturnType<typeof call>>): T => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const send = (from: RegisteredUser, conversationId: string, content: unknown) =>
    call(from, 'POST', '/messages', {
      conversationId,
      clientMsgId: `test-${Date.now().toString(36)}-${(sent += 1)}`,
      content,
    });
  /** Makes `a` and `b` friends; answers their chat's id. */
  const friends = async (a: RegisteredUser, b: RegisteredUser): Promise<string> => {
    await befriend(app(), a, b);
    return singleConversationId(a.user.id, b.user.id);
  };
  /** Two new users who are friends, and their chat. */
  const pair = async (): Promise<[RegisteredUser, RegisteredUser, string]> => {
    const [a, b] = await Promise.all([app().register(), app().register()]);
    return [a, b, await friends(a, b)];
  };
  return { call, ok, send, friends, pair };
}

/**
 * A media row as an upload leaves it, for tests of who may use it (its bytes are never
 * read): a 64-pixel PNG photo, or a PDF file.
 */
export async function storedMedia(
  t: TestApp,
  owner: RegisteredUser,
  kind: 'image' | 'file' = 'image',
): Promise<string> {
  const id = newId();
  const image = kind === 'image';
  await t.ctx.db
    .insertInto('media')
    .values({
      id,
      owner_id: owner.user.id,
      kind,
      mime: image ? 'image/png' : 'application/pdf',
      size: 10,
      name: 'x',
      width: image ? 64 : null,
      height: image ? 64 : null,
      placeholder: null,
      duration_ms: null,
      waveform: null,
      poster_id: null,
      original_key: `test/${id}`,
      thumb_key: null,
      created_at: t.clock.now(),
    })
    .execute();
  return id;
}
