import { ERRORS, formatMessage, type ErrorCode, type FieldIssue } from '@teltlk/protocol';

/**
 * A failed call, carrying the server's stable error code. A module of its own, without
 * the client's response schemas, so code that only tells errors apart stays small.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    readonly params?: Record<string, string | number>,
    readonly issues?: FieldIssue[],
  ) {
    super(formatMessage(ERRORS[code].message, params));
    this.name = 'ApiError';
  }
}
