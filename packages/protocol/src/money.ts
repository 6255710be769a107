import { z } from 'zod';
import { idParams } from './api.js';
import {
  clientMsgIdSchema,
  conversationIdSchema,
  ENVELOPE_SPLITS,
  messageSchema,
  MONEY_NOTE_MAX_LENGTH,
} from './chat.js';
import { endpoint } from './contract.js';
import { paymentPasswordSchema } from './validation.js';

/**
 * Money as the ledger keeps it: integers in a currency's smallest unit, never floats.
 * Pi has 7 decimal places (one Pi is 10,000,000 units).
 */
export const CURRENCIES = { PI: { decimals: 7 } } as const;
export type Currency = keyof typeof CURRENCIES;

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && Object.hasOwn(CURRENCIES, value);
}

/**
 * Units of a decimal amount typed or sent as text ("3.5" → 35000000 for Pi), or null when
 * it is not a plain positive-or-zero decimal with at most the currency's places, or is too
 * large to count exactly.
 */
export function toUnits(amount: string, currency: Currency): number | null {
  const { decimals } = CURRENCIES[currency];
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > decimals) return null;
  const units = Number(whole + fraction.padEnd(decimals, '0'));
  return Number.isSafeInteger(units) ? units : null;
}

/** The decimal text of an amount in units ("35000000" → "3.5"), without trailing zeros. */
export function fromUnits(units: number, currency: Currency): string {
  const { decimals } = CURRENCIES[currency];
  const sign = units < 0 ? '-' : '';
  const digits = String(Math.abs(units)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** An amount of Pi as typed: a positive decimal with at most the currency's places. */
export const amountSchema = z
  .string()
  .max(24, { error: 'amount' })
  .refine((text) => (toUnits(text, 'PI') ?? 0) > 0, { error: 'amount' });

/** A transfer to the other person of a one-to-one chat: moves with its message, at once. */
export const transferBody = z.object({
  conversationId: conversationIdSchema,
  clientMsgId: clientMsgIdSchema,
  amount: amountSchema,
  note: z.string().trim().max(MONEY_NOTE_MAX_LENGTH, { error: 'moneyNote' }).default(''),
  password: paymentPasswordSchema,
});
export type TransferBody = z.input<typeof transferBody>;

/** Shares of one red envelope; a group's envelope has at most one per member. */
export const ENVELOPE_SHARES_MAX = 100;
/** Unopened shares go back to the sender after this long. */
export const ENVELOPE_TTL_HOURS = 24;
export const envelopeBody = z.object({
  conversationId: conversationIdSchema,
  clientMsgId: clientMsgIdSchema,
  total: amountSchema,
  count: z
    .number()
    .int({ error: 'envelopeCount' })
    .min(1, { error: 'envelopeCount' })
    .max(ENVELOPE_SHARES_MAX, { error: 'envelopeCount' }),
  split: z.enum(ENVELOPE_SPLITS),
  greeting: z.string().trim().max(MONEY_NOTE_MAX_LENGTH, { error: 'moneyNote' }).default(''),
  password: paymentPasswordSchema,
});
export type EnvelopeBody = z.input<typeof envelopeBody>;

/** A red envelope as its chat's members see it: who opened which share. */
export const envelopeView = z.object({
  id: z.string(),
  senderId: z.string(),
  conversationId: z.string(),
  currency: z.literal('PI'),
  total: z.number().int(),
  count: z.number().int(),
  split: z.enum(ENVELOPE_SPLITS),
  greeting: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
  /** What went back to the sender unopened (0 until it expired). */
  refunded: z.number().int(),
  opened: z.array(z.object({ userId: z.string(), amount: z.number().int(), openedAt: z.number() })),
  /** What the caller got from it; null if they have not opened it. */
  mine: z.number().int().nullable(),
});
export type EnvelopeView = z.infer<typeof envelopeView>;

/** Transfers and red envelopes in chats. */
export const moneyEndpoints = {
  transfer: endpoint({
    method: 'POST',
    path: '/wallet/transfers',
    body: transferBody,
    result: messageSchema,
    errors: [
      'TRANSFER_SINGLE_ONLY',
      'CONVERSATION_NOT_FOUND',
      'STEP_UP_REQUIRED',
      'WALLET_NOT_FOUND',
      'PAYMENT_PASSWORD_NOT_SET',
      'PAYMENT_PASSWORD_LOCKED',
      'PAYMENT_PASSWORD_INCORRECT',
      'USER_NOT_FOUND',
      'MESSAGE_REFUSED',
      'NOT_FRIENDS',
      'INSUFFICIENT_BALANCE',
    ],
    access: 'session',
    // Each one is a payment password entry as well.
    limits: ['moneyPerUser', 'paymentPasswordPerUser'],
    summary: 'Transfer Pi to the other person of a chat, with its message',
    tags: ['wallet'],
  }),
  sendEnvelope: endpoint({
    method: 'POST',
    path: '/wallet/envelopes',
    body: envelopeBody,
    result: messageSchema,
    errors: [
      'CONVERSATION_NOT_FOUND',
      'STEP_UP_REQUIRED',
      'WALLET_NOT_FOUND',
      'PAYMENT_PASSWORD_NOT_SET',
      'PAYMENT_PASSWORD_LOCKED',
      'PAYMENT_PASSWORD_INCORRECT',
      'USER_NOT_FOUND',
      'MESSAGE_REFUSED',
      'NOT_FRIENDS',
      'MUTED_IN_GROUP',
      'GROUP_ALL_MUTED',
      'INSUFFICIENT_BALANCE',
    ],
    access: 'session',
    limits: ['moneyPerUser', 'paymentPasswordPerUser'],
    summary: 'Send a red envelope into a chat or group',
    tags: ['wallet'],
  }),
  envelope: endpoint({
    method: 'GET',
    path: '/wallet/envelopes/:id',
    params: idParams,
    result: envelopeView,
    errors: ['NOT_FOUND'],
    access: 'session',
    limits: ['walletReadPerUser'],
    summary: 'A red envelope of one of your chats: who opened which share',
    tags: ['wallet'],
  }),
  openEnvelope: endpoint({
    method: 'POST',
    path: '/wallet/envelopes/:id/open',
    params: idParams,
    result: envelopeView,
    errors: ['NOT_FOUND', 'ENVELOPE_NOT_FOR_YOU', 'ENVELOPE_EXPIRED', 'ENVELOPE_EMPTY'],
    access: 'session',
    limits: ['envelopeOpenPerUser'],
    summary: 'Open a red envelope: your share, once',
    tags: ['wallet'],
  }),
};
