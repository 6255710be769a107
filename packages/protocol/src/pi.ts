import { z } from 'zod';
import { authResult, destinationFields } from './api.js';
import {
  codeSchema,
  countrySchema,
  inviteCodeSchema,
  motherTongueSchema,
  nicknameSchema,
  passwordInputSchema,
  uiLanguageSchema,
} from './validation.js';

/**
 * Signing in through the Pi Browser: the browser's access token is checked by the server
 * with the Pi Platform API, and the account is keyed on the uid Pi returns.
 */

/** What the web app needs to know to load the Pi SDK; `sdkUrl` null: Pi is off here. */
export const piConfigResult = z.object({
  sdkUrl: z.string().nullable(),
  sandbox: z.boolean(),
  /** The page that plays the Pi Browser in development (the local sandbox), or null. */
  sandboxHostUrl: z.string().nullable(),
});
export type PiConfig = z.infer<typeof piConfigResult>;

/** Tokens and payment ids go into Pi's headers and paths: printable ASCII only. */
const PRINTABLE_ASCII = /^[\x21-\x7E]+$/;

const accessTokenSchema = z
  .string()
  .trim()
  .min(8, { error: 'invalid' })
  .max(4096, { error: 'invalid' })
  .regex(PRINTABLE_ASCII, { error: 'invalid' });

export const piLoginBody = z.object({ accessToken: accessTokenSchema });
export type PiLoginBody = z.infer<typeof piLoginBody>;

/** A ticket stands for a uid the server has checked and that no account holds yet. */
const piTicketSchema = z.string().min(16, { error: 'ticket' }).max(200, { error: 'ticket' });

export const piLoginResult = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signedIn'), auth: authResult }),
  z.object({
    status: z.literal('unbound'),
    /** Creates an account or binds an existing one, within PI_TICKET_TTL_SECONDS. */
    ticket: z.string(),
    piUsername: z.string(),
    expiresAt: z.number(),
  }),
]);
export type PiLoginResult = z.infer<typeof piLoginResult>;

export const PI_TICKET_TTL_SECONDS = 15 * 60;

export const piRegisterBody = z.object({
  ticket: piTicketSchema,
  nickname: nicknameSchema,
  country: countrySchema,
  motherTongue: motherTongueSchema,
  inviteCode: inviteCodeSchema.optional(),
  uiLanguage: uiLanguageSchema.optional(),
});
export type PiRegisterBody = z.infer<typeof piRegisterBody>;

/** Proof that the person owns the account: its password, or a sign-in code sent to it. */
export const piBindBody = z.union(
  [
    z.object({
      proof: z.literal('password'),
      ticket: piTicketSchema,
      account: z.string().trim().min(1, { error: 'account' }).max(254, { error: 'account' }),
      password: passwordInputSchema,
    }),
    z.intersection(
      z.object({ proof: z.literal('code'), ticket: piTicketSchema, code: codeSchema }),
      destinationFields,
    ),
  ],
  { error: 'invalid' },
);
export type PiBindBody = z.infer<typeof piBindBody>;

/** Adds a verified phone number (a registration ticket) to the signed-in account. */
export const addPhoneBody = z.object({
  ticket: z.string().min(16, { error: 'ticket' }).max(200, { error: 'ticket' }),
});
export type AddPhoneBody = z.infer<typeof addPhoneBody>;

/** A payment the Pi SDK found unfinished at sign-in, handed to the server to look after. */
export const piIncompletePaymentBody = z.object({
  paymentId: z
    .string()
    .trim()
    .min(1, { error: 'invalid' })
    .max(128, { error: 'invalid' })
    .regex(PRINTABLE_ASCII, { error: 'invalid' }),
});
export type PiIncompletePaymentBody = z.infer<typeof piIncompletePaymentBody>;
