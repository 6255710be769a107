import { z } from 'zod';
import { conversationIdSchema, messageSchema } from './chat.js';

/** Longest search a person types. */
export const SEARCH_QUERY_MAX_LENGTH = 100;
/** Largest page of hits one search returns. */
export const SEARCH_LIMIT_MAX = 50;

/**
 * A search of the messages the caller can still see, over texts, file names and place
 * names, newest first: in one conversation, or across all of theirs. Letters match
 * whatever their case.
 */
export const searchMessagesQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, { error: 'required' })
    .max(SEARCH_QUERY_MAX_LENGTH, { error: 'searchLength' }),
  conversationId: conversationIdSchema.optional(),
  /** The `next` of the page before. */
  cursor: z
    .string()
    .regex(/^[0-9a-z.]{1,80}$/, { error: 'cursor' })
    .optional(),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(20),
});
export type SearchMessagesQuery = z.infer<typeof searchMessagesQuery>;

export const searchMessagesResult = z.object({
  /** Hits, newest first. */
  messages: z.array(messageSchema),
  /** The cursor of the next page; null when there is none. */
  next: z.string().nullable(),
});
export type SearchMessagesResult = z.infer<typeof searchMessagesResult>;

/**
 * Where `query` occurs in `text`, letters of any case alike: [start, end) pairs of UTF-16
 * offsets, for highlighting a hit.
 */
export function matchRanges(text: string, query: string): [number, number][] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [];
  const haystack = text.toLocaleLowerCase();
  // Lower-casing keeps the length of nearly every text; where it does not, no ranges.
  if (haystack.length !== text.length) return [];
  const ranges: [number, number][] = [];
  for (
    let at = haystack.indexOf(needle);
    at !== -1;
    at = haystack.indexOf(needle, at + needle.length)
  ) {
    ranges.push([at, at + needle.length]);
  }
  return ranges;
}
