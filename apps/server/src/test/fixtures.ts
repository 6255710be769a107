import sharp from 'sharp';
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
