import { z } from 'zod';
import {
  NICKNAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  UI_LANGUAGES,
  VERIFICATION_CODE_LENGTH,
} from './constants.js';
import { isLanguageCode } from './languages.js';

/**
 * Validation rules shared by server and client. Each failure message is a stable rule
 * key (`rule.<key>` in the client catalogs), never user-visible text.
 */

/** Starts with a letter; 7–16 letters, or letters and digits (spec §5). */
export const TELTLK_ID_PATTERN = /^[A-Za-z][A-Za-z0-9]{6,15}$/;
/** Optional at registration; 6–16 characters starting with a letter (spec §5). */
export const INVITE_CODE_PATTERN = /^[A-Za-z][A-Za-z0-9]{5,15}$/;
/** International format: a plus and 8–15 digits (E.164). */
export const PHONE_PATTERN = /^\+[1-9]\d{7,14}$/;
export const CODE_PATTERN = new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`);
export const COUNTRY_PATTERN = /^[A-Z]{2}$/;

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

/** Characters counted as a person sees them: an emoji or a CJK character is one, not two. */
export function codePointLength(value: string): number {
  return [...value].length;
}

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

/**
 * What no name (nickname, remark, group name, group nickname) may hold: C0 and C1 control
 * characters and DEL, which break lines and lists; line and paragraph separators (a name
 * is one line); and the invisible bidirectional formatting characters, which reorder the
 * text around a name where it is shown (after a name ending in U+202E, "joined the group"
 * reads backwards) and let two names that look alike differ. Those are the embeddings and
 * overrides U+202A–U+202E, the isolates U+2066–U+2069 and the marks U+200E, U+200F and
 * U+061C: the marks too, since the letters of a name already give it its direction, and
 * being invisible they only serve to tell look-alike names apart. Zero-width joiners and
 * non-joiners stay allowed: emoji sequences and Persian and Indic scripts need them.
 */
// eslint-disable-next-line no-control-regex
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

/** True when a name holds none of the characters names may not (NAME_FORBIDDEN). */
export function isPlainName(value: string): boolean {
  return !NAME_FORBIDDEN.test(value);
}

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

/** How a sign-in account string is read: phone, email or Teltlk ID. */
export function accountKind(account: string): 'phone' | 'email' | 'teltlkId' {
  const value = account.trim();
  if (value.includes('@')) return 'email';
  if (value.startsWith('+')) return 'phone';
  return 'teltlkId';
}

/** Rule keys the schemas above use as messages; anything else is reported by zod's issue code. */
export const RULE_KEYS = [
  'teltlkId',
  'inviteCode',
  'phone',
  'email',
  'code',
  'country',
  'motherTongue',
  'uiLanguage',
  'passwordLength',
  'passwordCharacters',
  'passwordStrength',
  'nickname',
  'nicknameLength',
  'nameCharacters',
  'channel',
  'purpose',
  'ticket',
  'account',
  'password',
  'required',
  'invalid',
  'conversation',
  'clientMsgId',
  'user',
  'greeting',
  'remark',
  'messageLength',
  'blankMessage',
  'content',
  'burn',
  'frame',
  'mentions',
  'groupName',
  'groupNotice',
  'groupNo',
  'groupMembers',
  'muteDuration',
] as const;
export type RuleKey = (typeof RULE_KEYS)[number];
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
