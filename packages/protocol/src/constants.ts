export const APP_VERSION = '1.0.02';
export const APP_VERSION_CODE = 102;

/** Interface languages of the app. The mother tongue (any language) is separate. */
export const UI_LANGUAGES = ['en_US', 'zh_CN', 'zh_TW'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];
export const DEFAULT_UI_LANGUAGE: UiLanguage = 'zh_CN';
export const FALLBACK_UI_LANGUAGE: UiLanguage = 'en_US';

export const VERIFICATION_CODE_LENGTH = 6;
/** A new code for the same destination may be asked for after this many seconds. */
export const CODE_RESEND_SECONDS = 60;
/** Sign-in codes live 3 minutes and wallet codes 5 (spec §5); registration and reset codes a little longer. */
export const CODE_TTL_SECONDS = {
  register: 600,
  login: 180,
  reset: 600,
  wallet: 300,
  stepUp: 300,
} as const;
/** Wrong guesses allowed against one code before it is burnt. */
export const CODE_MAX_ATTEMPTS = 5;
/** A verified code becomes a ticket that finishes registration within this time. */
export const REGISTRATION_TICKET_TTL_SECONDS = 1800;

/** Sends per destination per day (per client address, the server's rate limits hold). */
export const CODE_SENDS_PER_DESTINATION_PER_DAY = 10;

/** Failed passwords before the account starts to slow down, and the delay cap. */
export const LOGIN_FREE_FAILURES = 5;
export const LOGIN_BASE_DELAY_SECONDS = 30;
export const LOGIN_MAX_DELAY_SECONDS = 3600;

export const TELTLK_ID_CHANGE_INTERVAL_DAYS = 30;
export const SESSION_TTL_DAYS = 90;
/** A device-login ticket (QR code and short code) is valid this long: the spec's app login code. */
export const DEVICE_LOGIN_TTL_SECONDS = 180;
/** Characters of a device-login short code, typed on a device without a camera. */
export const DEVICE_LOGIN_CODE_LENGTH = 8;
/** The short code's alphabet: Crockford base32 in capitals, no I, L, O or U to misread. */
export const DEVICE_LOGIN_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const NICKNAME_MAX_LENGTH = 32;
/**
 * Account password length in characters (Unicode code points). 128 leaves room for a
 * passphrase of a dozen words or more (NIST SP 800-63B asks for at least 64); longer
 * adds nothing the 32-byte argon2 hash could keep, and at most 512 UTF-8 bytes are hashed.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Largest avatar upload accepted, before the server resizes it. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_SIZE_PX = 256;
/** Largest JSON body any endpoint accepts. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024;

export const TOAST_DURATION_MS = 1500;
export const CONTACT_EMAIL = 'support@teltlk.com';
