import { errorMessage, isHandledError, type FallbackKey } from './error-message';
import { showToast } from './toast';
import { messageText } from './use-message';

/**
 * Tells the user why an action failed, in their language, with the screen's fallback for
 * server errors. A session that ended is left to the API client, which signs out and says so,
 * and a step-up given up needs no word.
 */
export function toastFailure(error: unknown, fallback?: FallbackKey): void {
  if (!isHandledError(error)) showToast(messageText(errorMessage(error, fallback)));
}

/** For actions that change something: server errors read 'Modification failed'. */
export function toastModifyFailure(error: unknown): void {
  toastFailure(error, 'modify');
}
