import { z } from 'zod';
import { CURRENCIES } from './money.js';

/** The payment password: six digits, typed on a passcode pad. */
export const PAYMENT_PASSWORD_LENGTH = 6;
export const paymentPasswordSchema = z
  .string()
  .regex(new RegExp(`^\\d{${PAYMENT_PASSWORD_LENGTH}}$`), { error: 'paymentPassword' });

export const walletBalanceSchema = z.object({
  currency: z.enum(Object.keys(CURRENCIES) as [keyof typeof CURRENCIES]),
  /** Units the person may spend. */
  available: z.number().int(),
  /** Units held for payments under way (a withdrawal being sent). */
  held: z.number().int(),
});
export type WalletBalance = z.infer<typeof walletBalanceSchema>;

export const walletResult = z.object({
  /** False until the person creates their wallet (creatWallet). */
  exists: z.boolean(),
  hasPassword: z.boolean(),
  /** While wrong payment passwords keep it locked: until when; otherwise null. */
  lockedUntil: z.number().nullable(),
  balances: z.array(walletBalanceSchema),
});
export type WalletResult = z.infer<typeof walletResult>;

export const setPaymentPasswordBody = z.object({ password: paymentPasswordSchema });
export type SetPaymentPasswordBody = z.infer<typeof setPaymentPasswordBody>;

export const changePaymentPasswordBody = z.object({
  currentPassword: paymentPasswordSchema,
  password: paymentPasswordSchema,
});
export type ChangePaymentPasswordBody = z.infer<typeof changePaymentPasswordBody>;

export const verifyPaymentPasswordBody = z.object({ password: paymentPasswordSchema });
export type VerifyPaymentPasswordBody = z.infer<typeof verifyPaymentPasswordBody>;
