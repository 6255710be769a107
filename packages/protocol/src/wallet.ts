import { z } from 'zod';
import { idParams } from './api.js';
import { clientMsgIdSchema, conversationIdSchema, messageSchema } from './chat.js';
import { endpoint } from './contract.js';
import { CURRENCIES, amountSchema } from './money.js';
import { channelSchema, codeSchema, pageQuery, paymentPasswordSchema } from './validation.js';

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

/** A recharge (user to app): the order the client hands to Pi's `createPayment`. */
export const rechargeBody = z.object({ amount: amountSchema });
export type RechargeBody = z.infer<typeof rechargeBody>;
export const rechargeOrder = z.object({
  orderId: z.string(),
  /** What `createPayment` is given, exactly: the server checks Pi's payment against it. */
  payment: z.object({
    amount: z.number(),
    memo: z.string(),
    metadata: z.object({ orderId: z.string() }),
  }),
});
export type RechargeOrder = z.infer<typeof rechargeOrder>;

const piIdentifier = z.string().min(1).max(128);
/** Pi's `onReadyForServerApproval` (and `onCancel`, `onError`) hand over the payment id. */
export const piPaymentBody = z.object({ paymentId: piIdentifier });
export type PiPaymentBody = z.infer<typeof piPaymentBody>;
/** Pi's `onReadyForServerCompletion` hands over the payment id and its transaction. */
export const piCompletionBody = z.object({ paymentId: piIdentifier, txid: piIdentifier });
export type PiCompletionBody = z.infer<typeof piCompletionBody>;

/** A withdrawal (app to user): the amount that reaches the Pi wallet; the fee comes on top. */
export const withdrawBody = z.object({ amount: amountSchema, password: paymentPasswordSchema });
export type WithdrawBody = z.infer<typeof withdrawBody>;

export const PAYMENT_KINDS = ['recharge', 'withdraw'] as const;
export const PAYMENT_STATES = ['pending', 'completed', 'cancelled', 'failed'] as const;
export const paymentRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(PAYMENT_KINDS),
  currency: z.enum(Object.keys(CURRENCIES) as [keyof typeof CURRENCIES]),
  /** Units. */
  amount: z.number().int(),
  fee: z.number().int(),
  state: z.enum(PAYMENT_STATES),
  txid: z.string().nullable(),
  createdAt: z.number(),
});
export type PaymentRecord = z.infer<typeof paymentRecordSchema>;

export const paymentListQuery = z.object({
  kind: z.enum(PAYMENT_KINDS).optional(),
  state: z.enum(PAYMENT_STATES).optional(),
  ...pageQuery.shape,
});
export type PaymentListQuery = z.infer<typeof paymentListQuery>;
export const paymentListResult = z.object({
  payments: z.array(paymentRecordSchema),
  /** null: no more. */
  next: z.string().nullable(),
  /** How many records match the filters in all. */
  total: z.number().int(),
});
export type PaymentListResult = z.infer<typeof paymentListResult>;

/** The wallet's money rules, for the screens. Units. */
export const walletRulesSchema = z.object({
  withdrawFee: z.number().int(),
  withdrawMin: z.number().int(),
  withdrawDailyLimit: z.number().int(),
  /** What is left of today's limit (UTC day). */
  withdrawLeftToday: z.number().int(),
  rechargeMax: z.number().int(),
  /** Whether this server can pay out (an app wallet is configured). */
  withdrawEnabled: z.boolean(),
});
export type WalletRules = z.infer<typeof walletRulesSchema>;

/** A forgotten payment password: a code to the person's own phone or email, valid 5 minutes. */
export const walletCodeBody = z.object({ channel: channelSchema });
export type WalletCodeBody = z.infer<typeof walletCodeBody>;
export const walletCodeResult = z.object({
  resendAfter: z.number().int(),
  expiresIn: z.number().int(),
  /** Where it went, partly hidden ("+86 138****5678", "a***@example.com"). */
  sentTo: z.string(),
});
export type WalletCodeResult = z.infer<typeof walletCodeResult>;
export const resetPaymentPasswordBody = z.object({
  channel: channelSchema,
  code: codeSchema,
  password: paymentPasswordSchema,
});
export type ResetPaymentPasswordBody = z.infer<typeof resetPaymentPasswordBody>;

/** A non-fungible item: one of a collection, held by one person (quantity 1 in the ledger). */
export const nftItemView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** A square WebP of the item's picture. */
  imageUrl: z.string(),
  /** Its number within its collection, from 1. */
  serial: z.number().int(),
  collection: z.object({ id: z.string(), name: z.string(), description: z.string() }),
  mintedAt: z.number(),
});
export type NftItemView = z.infer<typeof nftItemView>;
export const nftListResult = z.object({ items: z.array(nftItemView) });
export type NftListResult = z.infer<typeof nftListResult>;

/** An NFT given to the other person of a one-to-one chat, with its message, at once. */
export const nftSendBody = z.object({
  conversationId: conversationIdSchema,
  clientMsgId: clientMsgIdSchema,
  password: paymentPasswordSchema,
});
export type NftSendBody = z.infer<typeof nftSendBody>;

/** The signed-in person's wallet and payment password. */
export const walletEndpoints = {
  wallet: endpoint({
    method: 'GET',
    path: '/wallet',
    result: walletResult,
    errors: [],
    access: 'session',
    limits: ['walletReadPerUser'],
    summary: 'Your wallet and balances',
    tags: ['wallet'],
  }),
  create: endpoint({
    method: 'POST',
    path: '/wallet',
    result: walletResult,
    errors: [],
    access: 'session',
    limits: ['walletPerUser'],
    summary: 'Create your wallet',
    tags: ['wallet'],
  }),
  setPassword: endpoint({
    method: 'PUT',
    path: '/wallet/password',
    body: setPaymentPasswordBody,
    result: walletResult,
    errors: ['STEP_UP_REQUIRED', 'WALLET_NOT_FOUND', 'PAYMENT_PASSWORD_ALREADY_SET'],
    access: 'session',
    limits: ['walletPerUser'],
    sensitive: { level: 'account', proof: 'session' },
    summary: 'Set the first payment password',
    tags: ['wallet'],
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/wallet/password/change',
    body: changePaymentPasswordBody,
    result: walletResult,
    errors: [
      'STEP_UP_REQUIRED',
      'WALLET_NOT_FOUND',
      'PAYMENT_PASSWORD_NOT_SET',
      'PAYMENT_PASSWORD_LOCKED',
      'PAYMENT_PASSWORD_INCORRECT',
    ],
    access: 'session',
    // Guesses of the payment password, on top of the lock that wrong ones set.
    limits: ['paymentPasswordPerUser'],
    sensitive: { level: 'money', proof: 'inline' },
    summary: 'Change the payment password with the current one',
    tags: ['wallet'],
  }),
  verifyPassword: endpoint({
    method: 'POST',
    path: '/wallet/password/verify',
    body: verifyPaymentPasswordBody,
    result: null,
    errors: [
      'WALLET_NOT_FOUND',
      'PAYMENT_PASSWORD_NOT_SET',
      'PAYMENT_PASSWORD_LOCKED',
      'PAYMENT_PASSWORD_INCORRECT',
    ],
    access: 'session',
    limits: ['paymentPasswordPerUser'],
    summary: 'Check the payment password',
    tags: ['wallet'],
  }),
  sendResetCode: endpoint({
    method: 'POST',
    path: '/wallet/password/code',
    body: walletCodeBody,
    result: walletCodeResult,
    errors: [
      'WALLET_NOT_FOUND',
      'WALLET_CODE_NO_DESTINATION',
      'CHANNEL_UNAVAILABLE',
      'CODE_TOO_FREQUENT',
      'CODE_DAILY_LIMIT',
      'CODE_SEND_FAILED',
    ],
    access: 'session',
    limits: ['walletPerUser'],
    summary: 'Forgot the payment password: a code to your own phone or email, valid 5 minutes',
    tags: ['wallet'],
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/wallet/password/reset',
    body: resetPaymentPasswordBody,
    result: walletResult,
    errors: ['WALLET_NOT_FOUND', 'WALLET_CODE_NO_DESTINATION', 'CODE_INVALID', 'CODE_EXPIRED'],
    access: 'session',
    limits: ['paymentPasswordPerUser'],
    sensitive: { level: 'account', proof: 'inline' },
    summary: 'Set a new payment password with a wallet code',
    tags: ['wallet'],
  }),
};

/** Recharges and withdrawals through Pi, and their history. */
export const paymentEndpoints = {
  rules: endpoint({
    method: 'GET',
    path: '/wallet/rules',
    result: walletRulesSchema,
    errors: [],
    access: 'session',
    limits: ['walletReadPerUser'],
    summary: 'Fees and limits of recharges and withdrawals',
    tags: ['wallet'],
  }),
  payments: endpoint({
    method: 'GET',
    path: '/wallet/payments',
    query: paymentListQuery,
    result: paymentListResult,
    errors: [],
    access: 'session',
    limits: ['walletReadPerUser'],
    summary: 'Your recharges and withdrawals, newest first',
    tags: ['wallet'],
  }),
  recharge: endpoint({
    method: 'POST',
    path: '/wallet/recharge',
    body: rechargeBody,
    result: rechargeOrder,
    errors: ['PI_UNAVAILABLE', 'PI_ONLY', 'WALLET_NOT_FOUND', 'RECHARGE_ABOVE_MAX'],
    access: 'session',
    limits: ['rechargePerUser'],
    summary: "Order a recharge: what to hand Pi's createPayment",
    tags: ['wallet'],
  }),
  approveRecharge: endpoint({
    method: 'POST',
    path: '/wallet/recharge/approve',
    body: piPaymentBody,
    result: paymentRecordSchema,
    errors: [
      'PI_UNAVAILABLE',
      'PI_UNREACHABLE',
      'PI_ONLY',
      'NOT_FOUND',
      'PI_PAYMENT_NOT_YOURS',
      'PAYMENT_MISMATCH',
    ],
    access: 'session',
    limits: ['rechargePerUser'],
    summary: "Pi's onReadyForServerApproval: check the payment and approve it",
    tags: ['wallet'],
  }),
  completeRecharge: endpoint({
    method: 'POST',
    path: '/wallet/recharge/complete',
    body: piCompletionBody,
    result: paymentRecordSchema,
    errors: [
      'PI_UNAVAILABLE',
      'PI_UNREACHABLE',
      'PI_ONLY',
      'NOT_FOUND',
      'PAYMENT_MISMATCH',
      'PAYMENT_NOT_COMPLETE',
    ],
    access: 'session',
    limits: ['rechargePerUser'],
    summary: "Pi's onReadyForServerCompletion: complete the payment and credit it",
    tags: ['wallet'],
  }),
  cancelRecharge: endpoint({
    method: 'POST',
    path: '/wallet/recharge/cancel',
    body: piPaymentBody,
    result: paymentRecordSchema,
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
    limits: ['rechargePerUser'],
    summary: "Pi's onCancel and onError: close the order",
    tags: ['wallet'],
  }),
  withdraw: endpoint({
    method: 'POST',
    path: '/wallet/withdraw',
    body: withdrawBody,
    result: paymentRecordSchema,
    errors: [
      'WITHDRAW_UNAVAILABLE',
      'PI_ONLY',
      'WITHDRAW_BELOW_MIN',
      'STEP_UP_REQUIRED',
      'WALLET_NOT_FOUND',
      'PAYMENT_PASSWORD_NOT_SET',
      'PAYMENT_PASSWORD_LOCKED',
      'PAYMENT_PASSWORD_INCORRECT',
      'WITHDRAW_IN_PROGRESS',
      'WITHDRAW_DAILY_LIMIT',
      'INSUFFICIENT_BALANCE',
      'WITHDRAW_FAILED',
      'PI_UNREACHABLE',
      'PAYMENT_MISMATCH',
    ],
    access: 'session',
    limits: ['withdrawPerUser', 'paymentPasswordPerUser'],
    sensitive: { level: 'money', proof: 'inline' },
    summary: 'Withdraw Pi to your Pi wallet',
    tags: ['wallet'],
  }),
};

/** NFT assets the signed-in person holds. Minting and grants are the operator's. */
export const nftEndpoints = {
  held: endpoint({
    method: 'GET',
    path: '/wallet/nfts',
    result: nftListResult,
    errors: [],
    access: 'session',
    limits: ['walletReadPerUser'],
    summary: 'The NFT assets you hold, newest first',
    tags: ['wallet'],
  }),
  item: endpoint({
    method: 'GET',
    path: '/wallet/nfts/:id',
    params: idParams,
    result: nftItemView,
    errors: ['NFT_NOT_FOUND'],
    access: 'session',
    limits: ['walletReadPerUser'],
    summary: 'One NFT you hold',
    tags: ['wallet'],
  }),
  send: endpoint({
    method: 'POST',
    path: '/wallet/nfts/:id/send',
    params: idParams,
    body: nftSendBody,
    result: messageSchema,
    errors: [
      'NFT_SINGLE_ONLY',
      'CONVERSATION_NOT_FOUND',
      'NFT_NOT_FOUND',
      'STEP_UP_REQUIRED',
      'WALLET_NOT_FOUND',
      'PAYMENT_PASSWORD_NOT_SET',
      'PAYMENT_PASSWORD_LOCKED',
      'PAYMENT_PASSWORD_INCORRECT',
      'USER_NOT_FOUND',
      'MESSAGE_REFUSED',
      'NOT_FRIENDS',
    ],
    access: 'session',
    // A gift is a payment password entry as well.
    limits: ['moneyPerUser', 'paymentPasswordPerUser'],
    summary: 'Give an NFT you hold to the other person of a chat, with its message',
    tags: ['wallet'],
  }),
};
