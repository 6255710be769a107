import {
  ERRORS,
  formatMessage,
  type ErrorBody,
  type ErrorCode,
  type FieldIssue,
} from '@teltlk/protocol';

type ErrorParams = Record<string, string | number>;

/** An error the client is meant to see: a protocol code, its status and message. */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly params?: ErrorParams,
    readonly issues?: FieldIssue[],
  ) {
    super(formatMessage(ERRORS[code].message, params));
    this.status = ERRORS[code].status;
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.params ? { params: this.params } : {}),
        ...(this.issues ? { issues: this.issues } : {}),
      },
    };
  }
}

/** A single-field validation failure raised by a service rather than a schema. */
export function invalidField(path: string, rule: string): AppError {
  return new AppError('VALIDATION_FAILED', undefined, [{ path, rule }]);
}
