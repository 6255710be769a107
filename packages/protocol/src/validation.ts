import { z } from 'zod';
import {
  NICKNAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  UI_LANGUAGES,
} from './constants.js';
import { isLanguageCode } from './languages.js';
import {
  CODE_PATTERN,
  COUNTRY_PATTERN,
  INVITE_CODE_PATTERN,
  PHONE_PATTERN,
  RULE_KEYS,
  type RuleKey,
  TELTLK_ID_PATTERN,
  codePointLength,
  isPlainName,
} from './rules.js';

export * from './rules.js';

/**
 * Validation rules shared by server and client. Each failure message is a stable rule
 * key (`rule.<key>` in the client catalogs), never user-visible text.
 */

export const teltlkIdSchema = z.string().trim().regex(TELTLK_ID_PATTERN, { error: 'teltlkId' });
export const inviteCodeSchema = z
  .string()
  .trim()
  .regex(INVITE_CODE_PATTERN, { error: 'inviteCode' });
export const phoneSchema = z.string().trim().regex(PHONE_PATTERN, { error: 'phone' });
export const emailSchema = z
  .string()
  .trim()
  .max(254, { error: 'email' })
  .pipe(z.email({ error: 'email' }))
  .transform((value) => value.toLowerCase());
export const codeSchema = z.string().trim().regex(CODE_PATTERN, { error: 'code' });
export const countrySchema = z.string().regex(COUNTRY_PATTERN, { error: 'country' });
export const motherTongueSchema = z.string().refine(isLanguageCode, { error: 'motherTongue' });
export const uiLanguageSchema = z.enum(UI_LANGUAGES, { error: 'uiLanguage' });

/**
 * Any Unicode text, spaces included, so passphrases in any script work: the spec's rule
 * (upper-case and lower-case letters and digits) is read in Unicode terms (É and é, ５
 * count). Control characters and lone surrogates are refused: neither can be typed, and a
 * lone surrogate would reach the hash as U+FFFD, matching other strings.
 */
export const passwordSchema = z
  .string()
  .refine(
    (value) => {
      const length = codePointLength(value);
      return length >= PASSWORD_MIN_LENGTH && length <= PASSWORD_MAX_LENGTH;
    },
    { error: 'passwordLength' },
  )
  .regex(/^[^\p{Cc}\p{Cs}]+$/u, { error: 'passwordCharacters' })
  .regex(/\p{Ll}/u, { error: 'passwordStrength' })
  .regex(/\p{Lu}/u, { error: 'passwordStrength' })
  .regex(/\p{Nd}/u, { error: 'passwordStrength' });

/** A password typed to sign in or to confirm a change: only its length is checked. */
export const passwordInputSchema = z
  .string()
  .min(1, { error: 'password' })
  .refine((value) => codePointLength(value) <= PASSWORD_MAX_LENGTH, { error: 'password' });

export const nicknameSchema = z
  .string()
  .trim()
  .min(1, { error: 'nickname' })
  .max(NICKNAME_MAX_LENGTH, { error: 'nicknameLength' })
  .refine(isPlainName, { error: 'nameCharacters' });

export const channelSchema = z.enum(['email', 'phone'], { error: 'channel' });
export type Channel = z.infer<typeof channelSchema>;

/** A destination is an email address or a phone number, as the channel says. */
export function destinationSchemaFor(channel: Channel) {
  return channel === 'email' ? emailSchema : phoneSchema;
}

const ruleKeys = new Set<string>(RULE_KEYS);

/** Turns zod issues into `{ path, rule }` pairs with rule keys the clients translate. */
export function toFieldIssues(error: z.ZodError): { path: string; rule: RuleKey }[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    if (ruleKeys.has(issue.message)) return { path, rule: issue.message as RuleKey };
    // zod leaves `input` out of issues unless asked, so a missing field is read off the message.
    if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) {
      return { path, rule: 'required' };
    }
    return { path, rule: 'invalid' };
  });
}

/** The payment password: six digits, typed on a passcode pad. */
export const PAYMENT_PASSWORD_LENGTH = 6;
export const paymentPasswordSchema = z
  .string()
  .regex(new RegExp(`^\\d{${PAYMENT_PASSWORD_LENGTH}}$`), { error: 'paymentPassword' });

/**
 * A page of a list newest first: `cursor` is the last item's `createdAt` and `id` of the
 * page before, as `<createdAt>:<id>`.
 */
export const pageQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,15}:[A-Za-z0-9_-]{1,32}$/, { error: 'cursor' })
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type PageQuery = z.infer<typeof pageQuery>;
