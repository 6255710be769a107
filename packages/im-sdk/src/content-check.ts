import { sendableContentSchema, type SendableContent } from '@teltlk/protocol';
import { ApiError } from '@teltlk/client';

/**
 * Checks what a person sends against the protocol's schema before it is stored for
 * sending, so a message the server would refuse never waits in the outbox. The engine
 * loads this module when a conversation opens, not with the first screen: it brings zod,
 * which a chat list has no use for.
 */
export function checkSendable(content: unknown): SendableContent {
  const parsed = sendableContentSchema.safeParse(content);
  if (!parsed.success) {
    const blank = parsed.error.issues.some((issue) => issue.message === 'blankMessage');
    throw new ApiError(blank ? 'BLANK_MESSAGE' : 'VALIDATION_FAILED', 400);
  }
  return parsed.data;
}
