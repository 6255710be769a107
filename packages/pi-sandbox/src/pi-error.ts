import type { PiPayment } from '@teltlk/pi-sdk/contract';

/** An answer of the emulator: status, JSON body, and headers besides the content type. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export class PiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly payment?: PiPayment,
  ) {
    super(message);
  }

  toAnswer(): Answer {
    return {
      status: this.status,
      body: {
        error: this.code,
        error_message: this.message,
        ...(this.payment ? { payment: this.payment } : {}),
      },
    };
  }
}
