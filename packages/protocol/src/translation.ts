import { z } from 'zod';
import { conversationIdSchema, MESSAGE_TEXT_MAX_LENGTH } from './chat.js';
import { translationSchema } from './chat-events.js';
import { endpoint } from './contract.js';
import { motherTongueSchema } from './validation.js';

/**
 * Translation of messages into each reader's mother tongue (ARCHITECTURE.md): a message's
 * source language is detected when it is sent and stored with it; a translation is made
 * once per (message, target language), stored, and reaches clients as its own
 * `translation` frame after the message (the schemas of translations and that frame are in
 * chat.ts). Delivery never waits for it.
 */

/** Longest text one translation takes (messages are at most this long too). */
export const TRANSLATION_TEXT_MAX_LENGTH = MESSAGE_TEXT_MAX_LENGTH;
/** Messages one request may ask translations for. */
export const TRANSLATE_SEQS_MAX = 50;

/**
 * Translations of messages of one conversation into `lang` (default: the caller's target
 * for that conversation). Messages already in that language, notices and revoked messages
 * are left out of the answer. `retry`: make failed ones again, and done ones anew
 * (retranslate).
 */
export const translateBody = z.object({
  conversationId: conversationIdSchema,
  seqs: z.array(z.number().int().min(1)).min(1).max(TRANSLATE_SEQS_MAX, { error: 'seqs' }),
  lang: motherTongueSchema.optional(),
  retry: z.boolean().optional(),
});
export type TranslateBody = z.infer<typeof translateBody>;
export const translateResult = z.object({ translations: z.array(translationSchema) });
export type TranslateResult = z.infer<typeof translateResult>;

/** The sender's own text translated before sending (nothing is stored). */
export const previewTranslationBody = z.object({
  text: z
    .string()
    .max(TRANSLATION_TEXT_MAX_LENGTH, { error: 'messageLength' })
    .refine((text) => text.trim().length > 0, { error: 'blankMessage' }),
  to: motherTongueSchema,
});
export type PreviewTranslationBody = z.infer<typeof previewTranslationBody>;
export const previewTranslationResult = z.object({
  from: z.string(),
  to: z.string(),
  text: z.string(),
});
export type PreviewTranslationResult = z.infer<typeof previewTranslationResult>;

/**
 * What the server translates. `available`: whether it has a translation provider. Without
 * one it still converts Chinese between its scripts, and answers other pairs
 * `unavailable`, which clients may translate on the device.
 */
export const translationInfoResult = z.object({
  available: z.boolean(),
  maxLength: z.number().int(),
  /** Characters of provider translation one user may cause a day. */
  dailyCharacters: z.number().int(),
});
export type TranslationInfoResult = z.infer<typeof translationInfoResult>;

/** Translations of messages and of one's own draft. */
export const translationEndpoints = {
  info: endpoint({
    method: 'GET',
    path: '/translations/info',
    result: translationInfoResult,
    errors: [],
    access: 'session',
    limits: ['accountReadPerUser'],
    summary: 'Whether the server translates, and its limits',
    tags: ['translation'],
  }),
  translate: endpoint({
    method: 'POST',
    path: '/translations',
    body: translateBody,
    result: translateResult,
    errors: ['CONVERSATION_NOT_FOUND'],
    access: 'session',
    limits: ['translatePerUser'],
    summary:
      'Translations of messages into your language (or `lang`): stored ones, or pending with a translation frame to follow',
    tags: ['translation'],
  }),
  preview: endpoint({
    method: 'POST',
    path: '/translations/preview',
    body: previewTranslationBody,
    result: previewTranslationResult,
    errors: ['TRANSLATION_QUOTA_EXCEEDED', 'TRANSLATION_UNAVAILABLE', 'TRANSLATION_FAILED'],
    access: 'session',
    limits: ['translatePerUser'],
    summary: 'Your own text translated before you send it (not stored)',
    tags: ['translation'],
  }),
};
