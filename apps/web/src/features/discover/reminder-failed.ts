import { ApiError } from '@teltlk/im-sdk';
import { toastFailure } from '../../ui/failure-toast';
import { showToast } from '../../ui/toast';

/**
 * A reminder that did not go (switching reminders, reminding a member): the server's own
 * reason when it gave one (too soon, already mining), else the spec's 'Mining reminder failed'.
 */
export function reminderFailed(error: unknown, text: string): void {
  if (error instanceof ApiError && error.status < 500) toastFailure(error);
  else showToast(text);
}
