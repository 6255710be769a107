import { VERIFICATION_CODE_LENGTH } from './constants.js';

/**
 * Validation patterns and rule keys, without schemas: what a client needs on its first
 * screen, where zod would only cost download (`validation.ts` re-exports all of it).
 */

/** Starts with a letter; 7–16 letters, or letters and digits (spec §5). */
export const TELTLK_ID_PATTERN = /^[A-Za-z][A-Za-z0-9]{6,15}$/;
/** Optional at registration; 6–16 characters starting with a letter (spec §5). */
export const INVITE_CODE_PATTERN = /^[A-Za-z][A-Za-z0-9]{5,15}$/;
/** International format: a plus and 8–15 digits (E.164). */
export const PHONE_PATTERN = /^\+[1-9]\d{7,14}$/;
export const CODE_PATTERN = new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`);
export const COUNTRY_PATTERN = /^[A-Z]{2}$/;

/** Characters counted as a person sees them: an emoji or a CJK character is one, not two. */
export function codePointLength(value: string): number {
  return [...value].length;
}

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

/** How a sign-in account string is read: phone, email or Teltlk ID. */
export function accountKind(account: string): 'phone' | 'email' | 'teltlkId' {
  const value = account.trim();
  if (value.includes('@')) return 'email';
  if (value.startsWith('+')) return 'phone';
  return 'teltlkId';
}

/** Rule keys the schemas of `validation.ts` use as messages; anything else is reported by zod's issue code. */
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
  'placeName',
  'location',
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
  'searchLength',
  'cursor',
  'sticker',
  'merged',
  'paymentPassword',
  'amount',
  'moneyNote',
  'envelopeCount',
] as const;
export type RuleKey = (typeof RULE_KEYS)[number];
