import { z } from 'zod';
import { authResult, destinationFields, meSchema } from './api.js';
import { endpoint } from './contract.js';
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

/** Pi sign-in and sign-up, the signed-in account's Pi binding, and unfinished Pi payments. */
export const piEndpoints = {
  config: endpoint({
    method: 'GET',
    path: '/pi/config',
    result: piConfigResult,
    errors: [],
    access: 'public',
    limits: ['publicInfoPerAddress'],
    summary: 'Whether Pi is on here, and where its SDK loads from',
    tags: ['pi'],
  }),
  login: endpoint({
    method: 'POST',
    path: '/auth/pi',
    body: piLoginBody,
    result: piLoginResult,
    errors: ['PI_UNAVAILABLE', 'PI_UNREACHABLE', 'PI_AUTH_FAILED'],
    access: 'public',
    limits: ['piLoginPerAddress'],
    summary: 'Sign in with a Pi access token',
    tags: ['pi'],
  }),
  register: endpoint({
    method: 'POST',
    path: '/auth/pi/register',
    body: piRegisterBody,
    result: authResult,
    errors: ['PI_TICKET_INVALID', 'INVITE_CODE_INVALID', 'PI_ALREADY_BOUND', 'REGISTRATION_FAILED'],
    access: 'public',
    limits: ['registerPerAddress'],
    summary: 'Create an account for a Pi account',
    tags: ['pi'],
  }),
  bind: endpoint({
    method: 'POST',
    path: '/auth/pi/bind',
    body: piBindBody,
    result: authResult,
    errors: [
      'PI_TICKET_INVALID',
      'ACCOUNT_NOT_FOUND',
      'PASSWORD_INCORRECT',
      'LOGIN_LOCKED',
      'CODE_INVALID',
      'CODE_EXPIRED',
      'PI_ACCOUNT_HAS_PASSWORD',
      'ACCOUNT_PI_BOUND',
      'PI_ALREADY_BOUND',
    ],
    access: 'public',
    limits: ['piBindPerAddress', 'codeCheckPerDestination'],
    sensitive: { level: 'account', proof: 'inline' },
    summary: 'Bind a Pi account to an existing account and sign in',
    tags: ['pi'],
  }),
  bindSignedIn: endpoint({
    method: 'POST',
    path: '/me/pi',
    body: piLoginBody,
    result: meSchema,
    errors: [
      'STEP_UP_REQUIRED',
      'PI_UNAVAILABLE',
      'PI_UNREACHABLE',
      'PI_AUTH_FAILED',
      'ACCOUNT_PI_BOUND',
      'PI_ALREADY_BOUND',
    ],
    access: 'session',
    limits: ['piAccountPerUser'],
    sensitive: { level: 'account', proof: 'session' },
    summary: 'Bind the Pi account of an access token to your account',
    tags: ['pi'],
  }),
  unbind: endpoint({
    method: 'DELETE',
    path: '/me/pi',
    result: meSchema,
    errors: ['STEP_UP_REQUIRED', 'NOT_FOUND', 'PI_UNBIND_LAST_WAY_IN'],
    access: 'session',
    limits: ['piAccountPerUser'],
    sensitive: { level: 'account', proof: 'session' },
    summary: 'Unbind your Pi account',
    tags: ['pi'],
  }),
  resolveIncompletePayment: endpoint({
    method: 'POST',
    path: '/pi/payments/incomplete',
    body: piIncompletePaymentBody,
    result: null,
    errors: [
      'PI_UNAVAILABLE',
      'PI_UNREACHABLE',
      'PI_ONLY',
      'NOT_FOUND',
      'PI_PAYMENT_NOT_YOURS',
      'PAYMENT_MISMATCH',
      'PAYMENT_NOT_COMPLETE',
    ],
    access: 'session',
    limits: ['piPaymentReportPerUser'],
    summary: 'Settle a Pi payment the SDK found unfinished: completed if paid, else cancelled',
    tags: ['pi'],
  }),
};
