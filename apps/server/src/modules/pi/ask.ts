import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import { PiApiError, PiUnreachable } from './platform.js';

/**
 * Runs a Platform API call; Pi being away or refusing becomes the person's error. Codes a
 * caller wants to handle itself (`already_completed`…) are passed through as PiApiError.
 */
export async function askPi<T>(
  logger: Logger,
  call: () => Promise<T>,
  passThrough: readonly string[] = [],
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PiUnreachable) {
      logger.warn({ err: error }, 'Pi Platform API unreachable');
      throw new AppError('PI_UNREACHABLE');
    }
    if (error instanceof PiApiError) {
      if (passThrough.includes(error.code)) throw error;
      if (error.code === 'payment_not_found') throw new AppError('NOT_FOUND');
      logger.warn({ err: error }, 'Pi Platform API refused');
      throw new AppError('PI_UNAVAILABLE');
    }
    throw error;
  }
}
