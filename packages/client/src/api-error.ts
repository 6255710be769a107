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

/**
 * A call the server refused until the session proved who it is (STEP_UP_REQUIRED), when
 * the person was asked and chose not to: they know why it stopped, so the app shows no
 * error for it.
 */
export class StepUpCancelled extends ApiError {
  constructor(refusal: ApiError) {
    super(refusal.code, refusal.status, refusal.params);
    this.name = 'StepUpCancelled';
  }
}
