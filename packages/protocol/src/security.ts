import { z } from 'zod';
import { meSchema } from './api.js';
import { endpoint } from './contract.js';
import { addPhoneBody } from './pi.js';
import {
  channelSchema,
  codeSchema,
  pageQuery,
  passwordInputSchema,
  paymentPasswordSchema,
} from './validation.js';

/**
 * Step-up: what cannot be undone (an address replaced, a password changed, Pi bound or
 * unbound, a withdrawal, a device's push, other sessions signed out, a device approved)
 * needs a proof made on this session in the last few minutes.
 */

/** How long a proof made on a session lets it do sensitive actions. */
export const STEP_UP_WINDOW_SECONDS = 300;
/** A session made by device login waits this long before it may act alone (fresh-device hold). */
export const FRESH_DEVICE_HOLD_HOURS = 24;
/**
 * The largest transfer or red envelope a session on hold may send, in Pi: a small gift still
 * works on a new device; more asks for a proof first.
 */
export const HELD_TRANSFER_MAX_PI = '1';
/** An address replaced can be put back from the old address for this long. */
export const ADDRESS_UNDO_DAYS = 7;

/** How a session proved who it is. `payment` (the payment password) counts for money only. */
export const proofSchema = z.enum(['password', 'code', 'pi', 'payment']);
export type Proof = z.infer<typeof proofSchema>;

/** What an action asks of a session: any proof, or (money) the payment password too. */
export type Sensitivity = 'account' | 'money';

/** Why a step-up is asked for: no recent proof, or a new device still on hold. */
export const stepUpReasonSchema = z.enum(['stale', 'hold']);
export type StepUpReason = z.infer<typeof stepUpReasonSchema>;

/** Where this session stands, and the ways this account can prove itself. */
export const stepUpStatusSchema = z.object({
  /** Until when sensitive actions go through without asking; null: a proof is needed. */
  provenUntil: z.number().nullable(),
  /** The proof made, while it counts. */
  proof: proofSchema.nullable(),
  /** Until when this new device is on hold; null when it is not (or stepped up). */
  heldUntil: z.number().nullable(),
  methods: z.object({
    password: z.boolean(),
    /** The account's addresses, partly hidden, that a code can go to. */
    email: z.string().nullable(),
    phone: z.string().nullable(),
    pi: z.boolean(),
    /** A payment password is set: it proves money actions (not on a device on hold). */
    payment: z.boolean(),
  }),
});
export type StepUpStatus = z.infer<typeof stepUpStatusSchema>;

export const stepUpCodeBody = z.object({ channel: channelSchema });
export type StepUpCodeBody = z.infer<typeof stepUpCodeBody>;
export const stepUpCodeResult = z.object({
  resendAfter: z.number().int(),
  expiresIn: z.number().int(),
  sentTo: z.string(),
});
export type StepUpCodeResult = z.infer<typeof stepUpCodeResult>;

export const stepUpBody = z.discriminatedUnion(
  'method',
  [
    z.object({ method: z.literal('password'), password: passwordInputSchema }),
    z.object({ method: z.literal('code'), channel: channelSchema, code: codeSchema }),
    z.object({ method: z.literal('payment'), password: paymentPasswordSchema }),
    z.object({
      method: z.literal('pi'),
      accessToken: z.string().min(1, { error: 'accessToken' }).max(2048),
    }),
  ],
  { error: 'method' },
);
export type StepUpBody = z.infer<typeof stepUpBody>;

/** What a security activity entry records. */
export const securityActionSchema = z.enum([
  'signIn',
  'deviceApproved',
  'stepUp',
  'addressAdded',
  'addressReplaced',
  'addressRestored',
  'passwordChanged',
  'passwordReset',
  'paymentPasswordSet',
  'paymentPasswordChanged',
  'paymentPasswordReset',
  'piBound',
  'piUnbound',
  'withdrawal',
  'pushOn',
  'pushOff',
  'sessionsSignedOut',
]);
export type SecurityAction = z.infer<typeof securityActionSchema>;

export const securityActivitySchema = z.object({
  id: z.string(),
  action: securityActionSchema,
  at: z.number(),
  /** The session it was done on; null when done without one (a reset, an undo link). */
  sessionId: z.string().nullable(),
  /** The browser and system that did it, as it named itself. */
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  /** The country of that address (ISO 3166-1 alpha-2), when known. */
  country: z.string().nullable(),
  /** What it was about: an address's channel and its partly hidden value, a proof, an amount. */
  channel: channelSchema.nullable(),
  detail: z.string().nullable(),
});
export type SecurityActivity = z.infer<typeof securityActivitySchema>;

/** Pages newest first, with `pageQuery`'s `<createdAt>:<id>` cursor. */
export const securityActivityQuery = pageQuery;
export const securityActivityResult = z.object({
  items: z.array(securityActivitySchema),
  /** Pass as `cursor` for older entries; null at the first. */
  next: z.string().nullable(),
});
export type SecurityActivityResult = z.infer<typeof securityActivityResult>;

/** The token of an address-undo link, as mailed: the server's own base64url. */
export const addressUndoToken = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, { error: 'token' });
export const addressUndoParams = z.object({ token: addressUndoToken });
export const addressUndoBody = z.object({ token: addressUndoToken });

/** An address change as its undo link shows it to the old address's owner. */
export const addressUndoView = z.object({
  channel: channelSchema,
  /** The address put back by undoing, and the one that replaced it, partly hidden. */
  previous: z.string(),
  replacement: z.string(),
  changedAt: z.number(),
  undoUntil: z.number(),
  state: z.enum(['open', 'undone', 'expired']),
});
export type AddressUndoView = z.infer<typeof addressUndoView>;

// ---------------------------------------------------------------------------- endpoints

export const securityEndpoints = {
  stepUpStatus: endpoint({
    method: 'GET',
    path: '/security/step-up',
    result: stepUpStatusSchema,
    errors: [],
    access: 'session',
    limits: ['stepUpStatusPerUser'],
    summary: 'Whether this session may do sensitive actions now, and how to prove it may',
    tags: ['security'],
  }),
  sendStepUpCode: endpoint({
    method: 'POST',
    path: '/security/step-up/code',
    body: stepUpCodeBody,
    result: stepUpCodeResult,
    errors: [
      'STEP_UP_METHOD_UNAVAILABLE',
      'CHANNEL_UNAVAILABLE',
      'CODE_TOO_FREQUENT',
      'CODE_DAILY_LIMIT',
      'CODE_SEND_FAILED',
    ],
    access: 'session',
    limits: ['stepUpPerUser', 'codeSendPerAddress'],
    summary: "Send a step-up code to one of the account's own addresses",
    tags: ['security'],
  }),
  stepUp: endpoint({
    method: 'POST',
    path: '/security/step-up',
    body: stepUpBody,
    result: stepUpStatusSchema,
    errors: [
      'STEP_UP_METHOD_UNAVAILABLE',
      'PASSWORD_INCORRECT',
      'LOGIN_LOCKED',
      'CODE_INVALID',
      'CODE_EXPIRED',
      'PAYMENT_PASSWORD_INCORRECT',
      'PAYMENT_PASSWORD_LOCKED',
      'WALLET_NOT_FOUND',
      'PI_AUTH_FAILED',
      'PI_UNREACHABLE',
      'PI_UNAVAILABLE',
    ],
    access: 'session',
    limits: ['stepUpPerUser'],
    summary: 'Prove it is you (password, code, payment password or Pi) for sensitive actions',
    tags: ['security'],
  }),
  activity: endpoint({
    method: 'GET',
    path: '/security/activity',
    query: securityActivityQuery,
    result: securityActivityResult,
    errors: [],
    access: 'session',
    limits: ['securityActivityPerUser'],
    summary: 'Sensitive actions and sign-ins on your account, newest first',
    tags: ['security'],
  }),
  setAddress: endpoint({
    method: 'POST',
    path: '/me/phone',
    body: addPhoneBody,
    result: meSchema,
    errors: ['TICKET_INVALID', 'ACCOUNT_REGISTERED', 'STEP_UP_REQUIRED'],
    access: 'session',
    limits: ['piAccountPerUser'],
    sensitive: { level: 'account', proof: 'conditional' },
    summary:
      'Add a verified phone number or email (replacing one asks for a step-up and tells the old address)',
    tags: ['security'],
  }),
  addressUndoView: endpoint({
    method: 'GET',
    path: '/security/address-undo/:token',
    params: addressUndoParams,
    result: addressUndoView,
    errors: ['ADDRESS_UNDO_INVALID'],
    access: 'public',
    limits: ['addressUndoPerAddress'],
    summary: 'What an address-undo link would put back',
    tags: ['security'],
  }),
  undoAddress: endpoint({
    method: 'POST',
    path: '/security/address-undo',
    body: addressUndoBody,
    result: addressUndoView,
    errors: ['ADDRESS_UNDO_INVALID', 'ACCOUNT_REGISTERED'],
    access: 'public',
    limits: ['addressUndoPerAddress'],
    summary: 'Put a replaced address back and sign every session of the account out',
    tags: ['security'],
  }),
};
