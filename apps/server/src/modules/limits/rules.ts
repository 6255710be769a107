import type { LimitClass } from '@teltlk/protocol';
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
  /**
   * Socket sign-ins (auth and device-login ticket frames) per address: one per socket, and
   * a whole NAT's sockets reconnect at once after a restart; a script opening socket after
   * socket to try tokens does not get far.
   */
  socketAuthPerAddress: { limit: 600, windowMs: MINUTE, burst: 300 },
  /** Socket pings per user: each socket pings every 25 s, a user holds at most 64 sockets. */
  pingPerUser: { limit: 5, windowMs: SECOND, burst: 60 },
  /** Typing hints per user (the excess is dropped quietly). */
  typingPerUser: { limit: 2, windowMs: SECOND, burst: 5 },
  /** Read marks per user. */
  readPerUser: { limit: 10, windowMs: SECOND, burst: 30 },
  /** Translation requests (on read, retries, previews) per user; characters have their own daily quota. */
  translatePerUser: { limit: 120, windowMs: MINUTE, burst: 60 },

  // Every other route has a class of its own below, so that no route leans on the
  // per-address floor alone: a person's use stays well inside, a script's loop does not.

  /**
   * Reads of the caller's own account, settings and lists (profile, settings, sessions,
   * push key, translation and upload allowances, favourite stickers), per user: the app
   * reads each at start and after a change.
   */
  accountReadPerUser: { limit: 1_200, windowMs: HOUR, burst: 120 },
  /** Changes to the caller's profile and settings, signing out, ending a session, per user. */
  accountWritePerUser: { limit: 300, windowMs: HOUR, burst: 30 },
  /** Teltlk ID changes tried, per user: one a month succeeds, a few taken names are tried first. */
  teltlkIdPerUser: { limit: 30, windowMs: HOUR, burst: 10 },
  /** Profiles looked up by user id, per user: people open profiles, scripts walk ids. */
  userCardPerUser: { limit: 1_200, windowMs: HOUR, burst: 120 },
  /** Friend, application, block and official-account lists read, per user. */
  contactsReadPerUser: { limit: 1_200, windowMs: HOUR, burst: 120 },
  /** Friend applications answered, friends renamed or deleted, people blocked or unblocked, per user. */
  friendActionPerUser: { limit: 300, windowMs: HOUR, burst: 60 },
  /** Conversation and event syncs, per user: on every connect and each gap, every tab. */
  syncPerUser: { limit: 3_600, windowMs: HOUR, burst: 300 },
  /**
   * Pages of messages pulled, per user: a reconnect pulls the missing range of every
   * conversation with a gap at once; scrolling back pulls a page a second at most.
   */
  messagePagePerUser: { limit: 12_000, windowMs: HOUR, burst: 600 },
  /**
   * Sends and read marks through REST instead of the socket, per user: their own classes
   * (sendPerUser, readPerUser) count each in the messages module, socket or not; this
   * bounds the HTTP door itself, as generously.
   */
  messageRestPerUser: { limit: 10, windowMs: SECOND, burst: 60 },
  /** Chat settings (pin, mute, delete from the list, translation), clearing, burn switches, per user. */
  conversationChangePerUser: { limit: 600, windowMs: HOUR, burst: 60 },
  /** Messages revoked or deleted for oneself, per user. */
  messageChangePerUser: { limit: 600, windowMs: HOUR, burst: 60 },
  /**
   * Group reads (lists, a group, its members page by page, who read a message, applications
   * to review), per user.
   */
  groupReadPerUser: { limit: 3_000, windowMs: HOUR, burst: 300 },
  /** Group searches by name or number, per user: typing pauses search, scraping the directory does not. */
  groupSearchPerUser: { limit: 120, windowMs: HOUR, burst: 30 },
  /**
   * Group administration (settings, dissolving, removing, muting, roles, ownership,
   * answering applications), per user: an owner tidying a group does a few dozen in a row.
   */
  groupAdminPerUser: { limit: 600, windowMs: HOUR, burst: 60 },
  /** A member's own group settings and quitting, per user. */
  groupSelfPerUser: { limit: 300, windowMs: HOUR, burst: 30 },
  /** Wallet reads (balances, rules, payments, red envelopes, NFTs), per user. */
  walletReadPerUser: { limit: 1_200, windowMs: HOUR, burst: 120 },
  /** A media item's details asked for, per user (a chat screen asks for a few at once). */
  mediaInfoPerUser: { limit: 600, windowMs: MINUTE, burst: 120 },
  /**
   * What the app reads before anyone signs in (countries, versions, whether Pi is on), per
   * address: every app start asks, and many people share an address behind a NAT.
   */
  publicInfoPerAddress: { limit: 600, windowMs: MINUTE, burst: 120 },
  /** Landing site pages and download links, per address. */
  landingPerAddress: { limit: 300, windowMs: MINUTE, burst: 100 },
  /** The API description and its pages, per address: a reader loads a handful of files. */
  docsPerAddress: { limit: 120, windowMs: MINUTE, burst: 60 },
  /** Stored files (avatars) read per address: a contact list shows a screenful at once. */
  fileReadPerAddress: { limit: 3_000, windowMs: MINUTE, burst: 600 },
  /** The development outbox (never in production), per address: a page that refreshes. */
  devOutboxPerAddress: { limit: 600, windowMs: MINUTE, burst: 100 },

  /** Calls: the current calls and ICE servers read, per user (each call start and reconnect). */
  callReadPerUser: { limit: 600, windowMs: HOUR, burst: 60 },
  /** Joins of a group call's SFU room, per user (a rejoin after a network change among them). */
  callSfuPerUser: { limit: 120, windowMs: HOUR, burst: 20 },
  /**
   * New calls per user: each rings every device of the invitees, and pushes those offline,
   * so a flood of invites is a flood of ringing phones. A person calling back and forth
   * stays well inside; retries of one invite (the same client call id) count too.
   */
  callInvitePerUser: { limit: 30, windowMs: HOUR, burst: 10 },
  /** Answers, hang-ups and media reports of calls, per user. */
  callFramePerUser: { limit: 10, windowMs: SECOND, burst: 60 },
  /** WebRTC offers, answers and candidates relayed, per user (a call start sends dozens). */
  callSignalPerUser: { limit: 50, windowMs: SECOND, burst: 200 },
} satisfies Record<LimitClass, RateRule>;

/** A class's name: the contract's (each endpoint declares its own), with one rule each here. */
export type LimitName = LimitClass;

/** A group counts as large for the send limit from this many members. */
export const LARGE_GROUP_MEMBERS = 500;
