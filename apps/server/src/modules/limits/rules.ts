import { DAY, HOUR, MINUTE, SECOND } from '../../lib/clock.js';

/** `limit` requests per `windowMs`, at most `burst` (default `limit`) in a row. */
export interface RateRule {
  limit: number;
  windowMs: number;
  burst?: number;
}

/**
 * Every class of request and its limit, in one table. Keys name what a bucket counts:
 * "address" is the client address (IPv6 by /64), "user" the signed-in account.
 * The numbers are generous for a person and tight for a script.
 */
export const LIMITS = {
  /** Any API call, per address: a floor under everything else (a busy NAT stays well below). */
  apiPerAddress: { limit: 1_200, windowMs: MINUTE, burst: 300 },

  /** Code sends per address; per destination the resend interval and daily cap hold (codes). */
  codeSendPerAddress: { limit: 30, windowMs: HOUR, burst: 10 },
  /**
   * Code sends per phone-number prefix (the number less its last four digits): SMS pumping
   * walks a premium range, each number once, which no per-number limit sees.
   */
  codeSendPerPrefix: { limit: 20, windowMs: HOUR, burst: 10 },
  /** All SMS this server sends: a ceiling on what a pumping attack can cost in an hour. */
  smsGlobal: { limit: 1_000, windowMs: HOUR, burst: 200 },

  /** Code checks (verify, sign-in by code, reset) per destination, across re-sent codes. */
  codeCheckPerDestination: { limit: 20, windowMs: HOUR, burst: 10 },
  /** Code checks per address. */
  codeCheckPerAddress: { limit: 60, windowMs: HOUR, burst: 20 },
  /** Password sign-ins per address; per account the lock schedule holds. */
  loginPerAddress: { limit: 60, windowMs: HOUR, burst: 20 },
  /**
   * Device-login tickets (QR codes) asked for per address: a waiting page asks for a new
   * one every 3 minutes, and reloads.
   */
  deviceLoginPerAddress: { limit: 120, windowMs: HOUR, burst: 20 },
  /** Device-login tickets looked at, approved or refused, per user. */
  deviceLoginDecidePerUser: { limit: 60, windowMs: HOUR, burst: 20 },
  /** Typed device-login codes looked up, per user: each is a guess at 40 bits. */
  deviceLoginCodePerUser: { limit: 30, windowMs: HOUR, burst: 10 },
  /**
   * Step-up proofs per user (each secret has its own attempt lock besides) and status
   * reads; a person confirms a few times a day.
   */
  stepUpPerUser: { limit: 30, windowMs: HOUR, burst: 10 },
  stepUpStatusPerUser: { limit: 600, windowMs: HOUR, burst: 60 },
  /** Security activity pages read, per user. */
  securityActivityPerUser: { limit: 300, windowMs: HOUR, burst: 30 },
  /** Address-undo links opened or used, per address: a link is a 256-bit secret, a guess is hopeless. */
  addressUndoPerAddress: { limit: 30, windowMs: HOUR, burst: 10 },
  /** Partnership requests from the landing site's form, per address. */
  cooperationPerAddress: { limit: 10, windowMs: HOUR, burst: 5 },
  /** Push subscriptions made or dropped, per user (a browser renews its own now and then). */
  pushPerUser: { limit: 60, windowMs: HOUR, burst: 20 },
  /** Test notifications, per user. */
  pushTestPerUser: { limit: 20, windowMs: HOUR, burst: 5 },
  /**
   * Pi sign-ins per address: each one costs a call to Pi's Platform API, and a stolen or
   * made-up token is tried there, not here.
   */
  piLoginPerAddress: { limit: 60, windowMs: HOUR, burst: 20 },
  /** Binding a Pi account (password or code), per address; per account the lock holds. */
  piBindPerAddress: { limit: 30, windowMs: HOUR, burst: 10 },
  /** Binding, unbinding, adding a phone, per user. */
  piAccountPerUser: { limit: 20, windowMs: HOUR, burst: 10 },
  /** Unfinished Pi payments handed over per user (one Platform API call each). */
  piPaymentReportPerUser: { limit: 30, windowMs: HOUR, burst: 10 },
  /** Creating a wallet and setting its first payment password, per user. */
  walletPerUser: { limit: 30, windowMs: HOUR, burst: 10 },
  /** Payment password entries (checks, changes) per user, beside the lock wrong ones set. */
  paymentPasswordPerUser: { limit: 30, windowMs: HOUR, burst: 10 },
  /**
   * Recharge orders and Pi's callbacks for them, per user: each callback costs calls to
   * Pi and Horizon, and Pi retries a callback every 10 s up to 5 times.
   */
  rechargePerUser: { limit: 240, windowMs: HOUR, burst: 40 },
  /** Transfers and red envelopes sent, per user. */
  moneyPerUser: { limit: 120, windowMs: HOUR, burst: 20 },
  /** Red envelopes opened, per user. */
  envelopeOpenPerUser: { limit: 600, windowMs: HOUR, burst: 60 },
  /** Withdrawals asked for, per user (each one a payment at Pi and on the chain). */
  withdrawPerUser: { limit: 20, windowMs: HOUR, burst: 5 },
  /** Check-ins, reminder switches and ad boosters, per user. */
  miningPerUser: { limit: 120, windowMs: HOUR, burst: 30 },
  /** Reminders sent to team members, per user (each member once a day besides). */
  nudgePerUser: { limit: 100, windowMs: DAY, burst: 20 },
  /** Points, team and ranking reads, per user: rankings are the costliest read of them. */
  growthReadPerUser: { limit: 1_200, windowMs: HOUR, burst: 120 },
  /** Registrations per address. */
  registerPerAddress: { limit: 10, windowMs: HOUR, burst: 5 },
  /**
   * Answers that say whether an account exists ('This account has been registered',
   * 'Teltlk account does not exist'), per address and in all: a person meets a few, a
   * scan of the user base needs millions.
   */
  accountAnswersPerAddress: { limit: 30, windowMs: HOUR, burst: 10 },
  accountAnswersGlobal: { limit: 5_000, windowMs: HOUR, burst: 1_000 },

  /** Contact searches per user: each one tells whether a phone or e-mail has an account. */
  searchPerUser: { limit: 60, windowMs: HOUR, burst: 20 },
  /** Friend requests per user, and per (sender, recipient) pair. */
  friendRequestPerUser: { limit: 50, windowMs: DAY, burst: 20 },
  friendRequestPerPair: { limit: 3, windowMs: DAY },
  /** Group applications per user, and per (user, group). */
  groupApplicationPerUser: { limit: 50, windowMs: DAY, burst: 20 },
  groupApplicationPerPair: { limit: 3, windowMs: DAY },
  /** Groups created per user: each one notifies every friend put in it. */
  groupCreatePerUser: { limit: 20, windowMs: DAY, burst: 10 },
  /** Invitations into groups per user (one call may invite several friends). */
  groupInvitePerUser: { limit: 100, windowMs: HOUR, burst: 30 },
  /** Uploads (avatars, group avatars, media) per user. */
  uploadPerUser: { limit: 60, windowMs: HOUR, burst: 20 },
  /** Media uploads started per user: nine photos at once, many times an hour. */
  mediaUploadPerUser: { limit: 600, windowMs: HOUR, burst: 60 },
  /** Requests on started uploads (each chunk, each resume), per user. */
  mediaChunkPerUser: { limit: 6_000, windowMs: HOUR, burst: 300 },
  /** Favourite stickers kept or removed per user. */
  faceFavouritePerUser: { limit: 60, windowMs: MINUTE, burst: 20 },
  /** Media address requests per user: a chat screen asks for a page of photos at once. */
  mediaUrlsPerUser: { limit: 600, windowMs: MINUTE, burst: 120 },
  /** Media reads per address (photos, thumbnails, range requests of a video). */
  mediaReadPerAddress: { limit: 3_000, windowMs: MINUTE, burst: 600 },

  /** Message sends per user: quick typists and forwarding bursts pass, scripts do not. */
  sendPerUser: { limit: 5, windowMs: SECOND, burst: 30 },
  /**
   * Sends per user into a large group, where one message costs a push to every online
   * member on every node: slowed before the fan-out multiplies.
   */
  largeGroupSendPerUser: { limit: 1, windowMs: 2 * SECOND, burst: 5 },
  /** Edits of sent texts per user. */
  editPerUser: { limit: 30, windowMs: MINUTE, burst: 10 },
  /** Message searches per user (each keystroke's search, once typing pauses). */
  messageSearchPerUser: { limit: 60, windowMs: MINUTE, burst: 20 },
  /** Typing hints per user (the excess is dropped quietly). */
  typingPerUser: { limit: 2, windowMs: SECOND, burst: 5 },
  /** Read marks per user. */
  readPerUser: { limit: 10, windowMs: SECOND, burst: 30 },
  /** Translation requests (on read, retries, previews) per user; characters have their own daily quota. */
  translatePerUser: { limit: 120, windowMs: MINUTE, burst: 60 },
} satisfies Record<string, RateRule>;

export type LimitName = keyof typeof LIMITS;

/** A group counts as large for the send limit from this many members. */
export const LARGE_GROUP_MEMBERS = 500;
