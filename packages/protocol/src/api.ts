import { z } from 'zod';
import { CODE_TTL_SECONDS } from './constants.js';
import { endpoint } from './contract.js';
import {
  channelSchema,
  codeSchema,
  countrySchema,
  emailSchema,
  inviteCodeSchema,
  motherTongueSchema,
  nicknameSchema,
  passwordInputSchema,
  passwordSchema,
  paymentPasswordSchema,
  phoneSchema,
  teltlkIdSchema,
  uiLanguageSchema,
} from './validation.js';

/** REST contract of /api/v1. Times are Unix epoch milliseconds. */

/** What a code asked for at /auth/codes is for. */
export const codePurposeSchema = z.enum(['register', 'login', 'reset'], { error: 'purpose' });
export type CodePurpose = z.infer<typeof codePurposeSchema>;
/** Every purpose a code is sent for: those above, and the wallet's (forgotten payment password). */
export type StoredCodePurpose = keyof typeof CODE_TTL_SECONDS;
export const storedCodePurposeSchema = z.enum(
  Object.keys(CODE_TTL_SECONDS) as [StoredCodePurpose, ...StoredCodePurpose[]],
);

/** Channel plus destination, checked together so an email never passes as a phone. */
export const destinationFields = z.discriminatedUnion(
  'channel',
  [
    z.object({ channel: z.literal('email'), destination: emailSchema }),
    z.object({ channel: z.literal('phone'), destination: phoneSchema }),
  ],
  { error: 'channel' },
);

export const sendCodeBody = z.intersection(
  z.object({ purpose: codePurposeSchema }),
  destinationFields,
);
export type SendCodeBody = z.infer<typeof sendCodeBody>;
export const sendCodeResult = z.object({
  /** Seconds until another code may be asked for. */
  resendAfter: z.number().int(),
  /** Seconds the code stays valid. */
  expiresIn: z.number().int(),
});
export type SendCodeResult = z.infer<typeof sendCodeResult>;

export const verifyCodeBody = z.intersection(
  z.object({ purpose: z.literal('register'), code: codeSchema }),
  destinationFields,
);
export type VerifyCodeBody = z.infer<typeof verifyCodeBody>;
export const verifyCodeResult = z.object({ ticket: z.string() });
export type VerifyCodeResult = z.infer<typeof verifyCodeResult>;

export const registerBody = z.object({
  ticket: z.string().min(16, { error: 'ticket' }).max(200, { error: 'ticket' }),
  nickname: nicknameSchema,
  password: passwordSchema,
  country: countrySchema,
  motherTongue: motherTongueSchema,
  inviteCode: inviteCodeSchema.optional(),
  uiLanguage: uiLanguageSchema.optional(),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const passwordLoginBody = z.object({
  account: z.string().trim().min(1, { error: 'account' }).max(254, { error: 'account' }),
  password: passwordInputSchema,
});
export type PasswordLoginBody = z.infer<typeof passwordLoginBody>;

export const codeLoginBody = z.intersection(z.object({ code: codeSchema }), destinationFields);
export type CodeLoginBody = z.infer<typeof codeLoginBody>;

export const resetPasswordBody = z.intersection(
  z.object({ code: codeSchema, password: passwordSchema }),
  destinationFields,
);
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

export const changePasswordBody = z.object({
  currentPassword: passwordInputSchema,
  newPassword: passwordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const meSchema = z.object({
  id: z.string(),
  teltlkId: z.string(),
  nickname: z.string(),
  avatarUrl: z.string().nullable(),
  country: z.string(),
  motherTongue: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  inviteCode: z.string(),
  /** When the Teltlk ID may next be changed; null when it may be changed now. */
  teltlkIdChangeableAt: z.number().nullable(),
  createdAt: z.number(),
  /** The Pi account bound to this one (its username), or null. */
  piUsername: z.string().nullable(),
  /** False for an account made through Pi that never set a password. */
  hasPassword: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;

export const settingsSchema = z.object({
  uiLanguage: uiLanguageSchema,
  motherTongueFirst: z.boolean(),
  notifications: z.boolean(),
  vibration: z.boolean(),
  alertSound: z.boolean(),
  /** Whether notifications show the sender and the text; off, only that a message came. */
  notificationPreviews: z.boolean(),
});
export type Settings = z.infer<typeof settingsSchema>;

export const updateSettingsBody = settingsSchema.partial().strict();
export type UpdateSettingsBody = z.infer<typeof updateSettingsBody>;

export const updateProfileBody = z
  .object({
    nickname: nicknameSchema,
    country: countrySchema,
    motherTongue: motherTongueSchema,
  })
  .partial()
  .strict();
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;

export const changeTeltlkIdBody = z.object({ teltlkId: teltlkIdSchema });
export type ChangeTeltlkIdBody = z.infer<typeof changeTeltlkIdBody>;

export const authResult = z.object({
  token: z.string(),
  expiresAt: z.number(),
  user: meSchema,
  settings: settingsSchema,
});
export type AuthResult = z.infer<typeof authResult>;

export const sessionSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.number(),
  lastSeenAt: z.number(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;
export const sessionListResult = z.object({ sessions: z.array(sessionSchema) });
export type SessionListResult = z.infer<typeof sessionListResult>;

export const idParams = z.object({ id: z.string().min(1).max(64) });

// ---------------------------------------------------------------------------- versions

/** What clients are told about versions and whether the service is up (`/upgradation`). */
export const versionResult = z.object({
  /** The version this server serves: an older app should reload to get it. */
  version: z.string(),
  /** The oldest app version the server still works with: older ones must update. */
  minimum: z.string(),
  /** The service is under maintenance: requests are refused until it is over. */
  maintenance: z.boolean(),
});
export type VersionResult = z.infer<typeof versionResult>;

// ---------------------------------------------------------------------------- web push

export const pushKeyResult = z.object({
  /** The server's VAPID public key (base64url): `applicationServerKey` for subscribing. */
  publicKey: z.string(),
});
export type PushKeyResult = z.infer<typeof pushKeyResult>;

const base64url = (max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+=*$/, { error: 'invalid' })
    .max(max);

/** A browser's push subscription (`PushSubscription.toJSON()`), for this device. */
export const pushSubscriptionBody = z.object({
  endpoint: z.url({ protocol: /^https?$/, error: 'invalid' }).max(1000),
  keys: z.object({ p256dh: base64url(200), auth: base64url(100) }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

/** The payload of a push, as the service worker reads it. */
export interface PushPayload {
  title: string;
  body: string;
  /** Notifications with the same tag replace each other (one per conversation). */
  tag: string;
  /** The app route to open on a tap. */
  path: string;
  /** The conversation, for muting in the page and clearing on read. */
  conversationId?: string;
}

// ---------------------------------------------------------------------------- device login

/** A ticket id or secret: the server's own base32 and base64url, nothing else. */
const ticketPart = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** A new device-login ticket, for the signed-out browser that asked. */
export const deviceLoginCreated = z.object({
  id: z.string(),
  /** Only this browser holds it: it is what takes the session an approval grants. */
  secret: z.string(),
  /** The short code to type on a device without a camera. */
  code: z.string(),
  /** Two digits to show: the approving device picks them among three. */
  match: z.string(),
  expiresAt: z.number(),
  /** The server's clock when it was made, so a countdown does not depend on the device's. */
  now: z.number(),
});
export type DeviceLoginCreated = z.infer<typeof deviceLoginCreated>;

/** A ticket as the signed-in device that decides on it sees it. */
export const deviceLoginView = z.object({
  id: z.string(),
  /** The browser and system of the device that asks, as it named itself. */
  userAgent: z.string().nullable(),
  /** The address it asked from. */
  ip: z.string().nullable(),
  /** The country that address is registered in (ISO 3166-1 alpha-2), when it has one. */
  country: z.string().nullable(),
  createdAt: z.number(),
  expiresAt: z.number(),
  state: z.enum(['pending', 'approved', 'refused', 'used']),
  /** Three numbers, one of them the asking screen's: the person picks the one they see there. */
  choices: z.array(z.string()),
});
export type DeviceLoginView = z.infer<typeof deviceLoginView>;

export const deviceLoginParams = z.object({ id: ticketPart });

/** A short code as typed: case, spaces and dashes do not matter. */
export const deviceLoginCodeBody = z.object({
  code: z
    .string()
    .max(32)
    .transform((code) => code.replace(/[\s-]/g, '').toUpperCase())
    .pipe(z.string().regex(/^[0-9A-Z]{8}$/, { error: 'invalid' })),
});
export type DeviceLoginCodeBody = z.input<typeof deviceLoginCodeBody>;

/** Two digits, as the asking screen shows them. */
export const deviceMatchSchema = z.string().regex(/^\d{2}$/, { error: 'match' });

/**
 * Refusing needs nothing; approving needs the number the asking screen shows and the
 * account password or the payment password (an account with neither, one made through Pi,
 * proves itself by a step-up on this session instead).
 */
export const deviceLoginDecision = z.discriminatedUnion(
  'approve',
  [
    z.object({ approve: z.literal(false) }),
    z.object({
      approve: z.literal(true),
      match: deviceMatchSchema,
      proof: z
        .discriminatedUnion(
          'method',
          [
            z.object({ method: z.literal('password'), password: passwordInputSchema }),
            z.object({ method: z.literal('payment'), password: paymentPasswordSchema }),
          ],
          { error: 'method' },
        )
        .optional(),
    }),
  ],
  { error: 'approve' },
);
export type DeviceLoginDecision = z.infer<typeof deviceLoginDecision>;

/** The socket frame a waiting browser sends first instead of `auth`. */
export const ticketFrame = z.object({ t: z.literal('ticket'), id: ticketPart, secret: ticketPart });

export const countrySchemaInfo = z.object({ code: z.string(), dialCode: z.string() });
export const countryListResult = z.object({ countries: z.array(countrySchemaInfo) });
export type CountryListResult = z.infer<typeof countryListResult>;

/** What the dev outbox holds: a verification code, or a notice (an address replaced). */
export const outboxMessageSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('code'),
    channel: channelSchema,
    destination: z.string(),
    purpose: storedCodePurposeSchema,
    code: z.string(),
    createdAt: z.number(),
  }),
  z.object({
    kind: z.literal('notice'),
    channel: channelSchema,
    destination: z.string(),
    subject: z.string(),
    text: z.string(),
    createdAt: z.number(),
  }),
]);
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
export const outboxResult = z.object({ messages: z.array(outboxMessageSchema) });
export type OutboxResult = z.infer<typeof outboxResult>;

export const healthResult = z.object({ status: z.literal('ok'), version: z.string() });

/** What clients are told about versions and places: open to anyone, under maintenance too. */
export const metaEndpoints = {
  version: endpoint({
    method: 'GET',
    path: '/meta/version',
    result: versionResult,
    errors: [],
    access: 'public',
    limits: ['publicInfoPerAddress'],
    summary: 'The version served, the oldest app still supported, and maintenance',
    tags: ['meta'],
  }),
  countries: endpoint({
    method: 'GET',
    path: '/meta/countries',
    result: countryListResult,
    errors: [],
    access: 'public',
    limits: ['publicInfoPerAddress'],
    summary: 'Countries with their dial codes',
    tags: ['meta'],
  }),
};

/** The outbox of channels without a provider: outside production, on this machine only. */
export const devEndpoints = {
  outbox: endpoint({
    method: 'GET',
    path: '/dev/outbox',
    result: outboxResult,
    errors: ['NOT_FOUND'],
    access: 'public',
    limits: ['devOutboxPerAddress'],
    summary: 'Codes of channels without a provider (development only, this machine only)',
    tags: ['dev'],
  }),
};
