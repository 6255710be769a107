import { MESSAGE_TEXT_MAX_LENGTH } from '@teltlk/protocol';

/** The counter shows from here on: below, it would only distract. */
export const LENGTH_COUNTER_FROM = 4500;

export interface LengthState {
  /** The length the server will check. */
  length: number;
  max: number;
  /** Whether the counter shows. */
  counted: boolean;
  /** Whether the server would refuse the text, so the composer keeps it. */
  over: boolean;
}

/**
 * Where a draft stands against the message limit, counted as the server counts it: the
 * trimmed text that is sent, in UTF-16 code units (so an emoji may count as two).
 */
export function lengthState(text: string, max = MESSAGE_TEXT_MAX_LENGTH): LengthState {
  const length = text.trim().length;
  return { length, max, counted: length >= LENGTH_COUNTER_FROM, over: length > max };
}
