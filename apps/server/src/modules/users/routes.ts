import multipart from '@fastify/multipart';
import {
  AVATAR_MAX_BYTES,
  changePasswordBody,
  changeTeltlkIdBody,
  meSchema,
  settingsSchema,
  updateProfileBody,
  updateSettingsBody,
} from '@teltlk/protocol';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError, invalidField } from '../../errors.js';
import { authOf, clientOf } from '../../http/auth.js';
import { toAppError } from '../../http/errors.js';
import { byAddress, byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import { withPlaceChecks } from '../meta/countries.js';

const tags = ['me'];
const security = [{ bearer: [] }];

/** The caller's own account: behind `requireSession`. */
export async function userRoutes(
  app: App,
  { services: { users }, limits }: AppContext,
): Promise<void> {
  const reads = limitBy(limits, ['accountReadPerUser', byUser]);
  const changes = limitBy(limits, ['accountWritePerUser', byUser]);
  app.get(
    '/me',
    {
      schema: { tags, summary: 'Your profile', security, response: { 200: meSchema } },
      onRequest: reads,
    },
    (request) => users.me(authOf(request)),
  );
  app.patch(
    '/me',
    {
      schema: {
        tags,
        summary: 'Edit your profile',
        security,
        body: withPlaceChecks(updateProfileBody),
        response: { 200: meSchema },
      },
      onRequest: changes,
    },
    (request) => users.updateProfile(authOf(request), request.body),
  );
  app.put(
    '/me/teltlk-id',
    {
      schema: {
        tags,
        summary: 'Change your Teltlk ID (once a month)',
        security,
        body: changeTeltlkIdBody,
        response: { 200: meSchema },
      },
      onRequest: limitBy(limits, ['teltlkIdPerUser', byUser]),
    },
    (request) => users.changeTeltlkId(authOf(request), request.body.teltlkId),
  );
  app.put(
    '/me/password',
    {
      schema: {
        tags,
        summary: 'Change your password',
        security,
        body: changePasswordBody,
        response: { 204: z.null() },
      },
      // The current password is checked like a sign-in, so it counts like one too.
      onRequest: limitBy(limits, ['accountWritePerUser', byUser], ['loginPerAddress', byAddress]),
      config: { sensitive: { level: 'account', proof: 'inline' } },
    },
    async (request, reply) => {
      await users.changePassword(authOf(request), request.body, clientOf(request));
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/me/settings',
    {
      schema: { tags, summary: 'Your settings', security, response: { 200: settingsSchema } },
      onRequest: reads,
    },
    (request) => users.settings(authOf(request)),
  );
  app.patch(
    '/me/settings',
    {
      schema: {
        tags,
        summary: 'Change settings',
        security,
        body: updateSettingsBody,
        response: { 200: settingsSchema },
      },
      onRequest: changes,
    },
    (request) => users.updateSettings(authOf(request), request.body),
  );

  // Multipart parsing is registered for this route only, so JSON routes refuse form uploads with 415.
  await app.register(async (upload: App) => {
    await upload.register(multipart, {
      limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 11 },
    });
    upload.post(
      '/me/avatar',
      {
        schema: {
          tags,
          summary: 'Upload an avatar (multipart field "file": a JPEG, PNG, WebP or GIF image)',
          security,
          consumes: ['multipart/form-data'],
          response: { 200: meSchema },
        },
        onRequest: limitBy(limits, ['uploadPerUser', byUser]),
      },
      async (request) => users.setAvatar(authOf(request), await readUpload(request)),
    );
  });
}

/** The bytes of the multipart field `file`; too large a file fails with 413 inside toBuffer. */
async function readUpload(request: FastifyRequest): Promise<Buffer> {
  try {
    const file = await request.file();
    if (!file || file.fieldname !== 'file') throw invalidField('file', 'required');
    return await file.toBuffer();
  } catch (error) {
    // The multipart parser reports a broken body (no boundary, cut short) without a status.
    throw toAppError(error) ?? new AppError('MALFORMED_REQUEST');
  }
}
