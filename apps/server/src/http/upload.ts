import type { FastifyMultipartOptions } from '@fastify/multipart';
import { AVATAR_MAX_BYTES } from '@teltlk/protocol';
import type { FastifyRequest } from 'fastify';
import { AppError, invalidField } from '../errors.js';
import { toAppError } from './errors.js';

/** An avatar upload (a person's or a group's): one image, and no room for anything else. */
export const AVATAR_UPLOAD: FastifyMultipartOptions = {
  limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 11 },
};

/**
 * The bytes of the multipart field `file` of an upload endpoint; too large a file fails
 * with 413 inside toBuffer.
 */
export async function uploadedFile(request: FastifyRequest): Promise<Buffer> {
  try {
    const file = await request.file();
    if (!file || file.fieldname !== 'file') throw invalidField('file', 'required');
    return await file.toBuffer();
  } catch (error) {
    // The multipart parser reports a broken body (no boundary, cut short) without a status.
    throw toAppError(error) ?? new AppError('MALFORMED_REQUEST');
  }
}
