import { toFieldIssues, type ErrorCode } from '@teltlk/protocol';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../errors.js';

/** Fastify's and its plugins' own errors, by the status they carry. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'MALFORMED_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  // @fastify/multipart answers a non-multipart request with 406.
  406: 'UNSUPPORTED_MEDIA_TYPE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/**
 * fastify-type-provider-zod flattens zod issues for Fastify; rebuilding the ZodError lets the
 * shared `toFieldIssues` map them to the rule keys clients translate.
 */
function validationError(validation: FastifyError['validation']): AppError {
  const issues = (validation ?? []).map((item) => ({
    ...item.params,
    code: item.keyword,
    path: item.instancePath.split('/').filter(Boolean),
    message: item.message ?? '',
  }));
  const fieldIssues = toFieldIssues(new z.ZodError(issues as z.core.$ZodIssue[]));
  // One broken rule can be reported by several checks (both case checks of a password, say).
  const unique = fieldIssues.filter(
    (issue, index) =>
      fieldIssues.findIndex((other) => other.path === issue.path && other.rule === issue.rule) ===
      index,
  );
  return new AppError('VALIDATION_FAILED', undefined, unique);
}

/** Any error as the AppError the client sees; null when it is a bug (a 500). */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) return validationError(error.validation);
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status !== 'number' || status >= 500) return null;
  return new AppError(CODE_BY_STATUS[status] ?? 'MALFORMED_REQUEST');
}

export function handleError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const known = toAppError(error);
  if (known) {
    if (known.status >= 500) request.log.warn({ errorCode: known.code }, known.message);
    const seconds = known.params?.seconds;
    if (known.status === 429 && typeof seconds === 'number') reply.header('retry-after', seconds);
    return reply.code(known.status).send(known.toBody());
  }
  request.log.error({ err: error }, 'unexpected error');
  const internal = new AppError('INTERNAL');
  return reply.code(internal.status).send(internal.toBody());
}

export function handleNotFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const error = new AppError('NOT_FOUND');
  return reply.code(error.status).send(error.toBody());
}
