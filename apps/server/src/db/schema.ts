import type { Generated, Insertable, Kysely, Selectable, Updateable } from 'kysely';

/**
 * Table types, kept beside the migrations that create them. Times are epoch milliseconds;
 * booleans are 0/1 integers on both dialects so rows read the same everywhere.
 */

export interface UsersTable {
  id: string;
  teltlk_id: string;
  teltlk_id_lower: string;
  /** Last change made by the user; null while the generated ID is still in use. */
  teltlk_id_changed_at: number | null;
  phone: string | null;
  email: string | null;
  password_hash: string;
  nickname: string;
  avatar_path: string | null;
  country: string;
  mother_tongue: string;
  invite_code: string;
  invited_by: string | null;
  ui_language: string;
  mother_tongue_first: number;
  notifications: number;
  vibration: number;
  alert_sound: number;
  notification_previews: Generated<number>;
  failed_logins: number;
  login_locked_until: number | null;
  created_at: number;
  updated_at: number;
  /** 1 for the product's own accounts, which only operators post as. */
  official: Generated<number>;
  /** The newest seq of the user's event stream (user_events). */
  event_seq: Generated<number>;
  /** The bound Pi account: its uid from the Platform API, and its username. */
  pi_uid: string | null;
  pi_username: string | null;
}

export interface PiTicketsTable {
  ticket_hash: string;
  pi_uid: string;
  pi_username: string;
  expires_at: number;
}

export interface WalletsTable {
  user_id: string;
  password_hash: string | null;
  failed_attempts: number;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface PaymentsTable {
  id: string;
  user_id: string;
  kind: 'recharge' | 'withdraw';
  currency: string;
  amount: number;
  fee: number;
  memo: string;
  pi_uid: string;
  pi_payment_id: string | null;
  state: PaymentState;
  txid: string | null;
  envelope: string | null;
  valid_until: number | null;
  /** withdraw: the app wallet's sequence number its transaction uses, 19 digits. */
  tx_sequence: string | null;
  /** withdraw: the network passphrase its transaction was signed for. */
  network: string | null;
  reason: string | null;
  created_at: number;
  updated_at: number;
}

export type PaymentState =
  'created' | 'approved' | 'held' | 'signed' | 'completed' | 'cancelled' | 'failed';

export interface EnvelopesTable {
  id: string;
  sender_id: string;
  conversation_id: string;
  currency: string;
  total: number;
  count: number;
  split: 'equal' | 'random';
  greeting: string;
  expires_at: number;
  refunded_at: number | null;
  created_at: number;
  /** The seq of the message it was sent with; null only for one whose message was gone. */
  message_seq: number | null;
}

export interface EnvelopeSharesTable {
  envelope_id: string;
  slot: number;
  amount: number;
  user_id: string | null;
  opened_at: number | null;
  refunded: number;
}

export interface NftCollectionsTable {
  id: string;
  name: string;
  description: string;
  minted: number;
  created_at: number;
}

export interface NftItemsTable {
  id: string;
  collection_id: string;
  serial: number;
  name: string;
  description: string;
  image_path: string;
  created_at: number;
}

export interface LedgerAccountsTable {
  id: string;
  owner_kind: string;
  owner_id: string | null;
  currency: string;
  purpose: string;
  may_go_negative: number;
  balance: number;
  created_at: number;
}

export interface LedgerTransactionsTable {
  id: string;
  idempotency_key: string;
  kind: string;
  reference: string | null;
  digest: string;
  created_at: number;
}

export interface LedgerEntriesTable {
  id: string;
  transaction_id: string;
  account_id: string;
  currency: string;
  amount: number;
  created_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** When this session last proved who it is, and how (see 0024-security). */
  proven_at: number | null;
  proof: 'password' | 'code' | 'pi' | 'payment' | null;
  /** A device-login session is on hold for sensitive actions until then, unless it steps up. */
  held_until: number | null;
}

export interface CooperationRequestsTable {
  id: string;
  name: string;
  organisation: string;
  email: string;
  kind: string;
  message: string;
  language: string;
  ip: string | null;
  created_at: number;
}

export interface ServerFlagsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface CallsTable {
  id: string;
  caller_id: string;
  /** The caller's id for it: a retried invite finds its call. */
  client_call_id: string;
  conversation_id: string;
  /** single or group. */
  kind: string;
  /** audio or video (protocol CallMedia). */
  media: string;
  /** ringing, accepted, connected or ended (protocol CallState). */
  state: string;
  /** How it ended (protocol CallOutcome); null until then. */
  outcome: string | null;
  created_at: number;
  ring_until: number;
  accepted_at: number | null;
  connected_at: number | null;
  ended_at: number | null;
  /** When a participant reported its media lost, until restored; null while it flows. */
  media_lost_at: number | null;
  /** The group call's Janus VideoRoom, and the room's secret. */
  sfu_room: number | null;
  sfu_secret: string | null;
  /** Bumped by each transition, written only where it still holds what was read. */
  revision: number;
}

export interface CallParticipantsTable {
  call_id: string;
  user_id: string;
  /** The order of the call's participants: the caller is 0. */
  position: number;
  /** ringing, joined, rejected or left (protocol CallParticipantState). */
  state: string;
  /** The device (session) that took the call. */
  session_id: string | null;
  /** 1 while the person is rung or in the call. */
  live: number;
  sfu_token: string | null;
}

export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  session_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: number;
}

export interface DeviceLoginsTable {
  id: string;
  secret_hash: string;
  code: string;
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  expires_at: number;
  state: 'pending' | 'approved' | 'refused' | 'used';
  user_id: string | null;
  decided_at: number | null;
  /** The two digits the asking screen shows, picked among three on the approving device. */
  match_number: string | null;
}

export interface SecurityEventsTable {
  id: string;
  user_id: string;
  action: string;
  session_id: string | null;
  user_agent: string | null;
  ip: string | null;
  country: string | null;
  channel: 'email' | 'phone' | null;
  detail: string | null;
  created_at: number;
}

export interface AttemptCountersTable {
  scope: string;
  key: string;
  failures: Generated<number>;
  locked_until: number | null;
}

export interface AddressChangesTable {
  id: string;
  user_id: string;
  channel: 'email' | 'phone';
  previous: string;
  replacement: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  undone_at: number | null;
}

export interface VerificationCodesTable {
  id: string;
  purpose: string;
  channel: string;
  destination: string;
  code_hash: string;
  ip: string | null;
  created_at: number;
  expires_at: number;
  attempts: number;
  /** Set when the code was used, burnt by wrong guesses, superseded or failed to send. */
  consumed_at: number | null;
  ticket_hash: string | null;
  ticket_expires_at: number | null;
}

export interface FriendRequestsTable {
  id: string;
  from_user_id: string;
  to_user_id: string;
  greeting: string;
  /** pending, agreed, rejected or added (protocol friendRequestStatusSchema). */
  status: string;
  created_at: number;
  updated_at: number;
  handled_at: number | null;
}

/** One row per side of a friendship, so each side keeps its own remark. */
export interface FriendshipsTable {
  user_id: string;
  friend_id: string;
  remark: string | null;
  created_at: number;
}

export interface BlocksTable {
  user_id: string;
  blocked_id: string;
  created_at: number;
}

export interface ConversationsTable {
  /** si_<a>_<b> (ids sorted) or sg_<groupId>. */
  id: string;
  kind: string;
  /** The seq of the newest message; the next message takes max_seq + 1. */
  max_seq: Generated<number>;
  burn_seconds: Generated<number>;
  /** The newest seq of an @all in a group. */
  mention_all_seq: Generated<number>;
  created_at: number;
  /** Latest activity (the last message or a conversation-wide change). */
  updated_at: number;
}

export interface ConversationMembersTable {
  conversation_id: string;
  user_id: string;
  read_seq: Generated<number>;
  /** Messages up to min_seq are cleared for this member (or precede their joining). */
  min_seq: Generated<number>;
  pinned: Generated<number>;
  muted: Generated<number>;
  /** Deleted from the chat list until the next message. */
  hidden: Generated<number>;
  joined_at: number;
  updated_at: number;
  /** Group conversations: owner, admin or member; null in single conversations. */
  role: string | null;
  group_nickname: string | null;
  group_remark: string | null;
  muted_until: number | null;
  /** The newest seq that mentions this member by name. */
  mention_seq: Generated<number>;
  /** 1: the member turned translation off here. */
  translate_off: Generated<number>;
  /** The language translations go into here; null: the member's mother tongue. */
  translate_to: string | null;
}

export interface MessagesTable {
  id: string;
  conversation_id: string;
  seq: number;
  sender_id: string;
  client_msg_id: string;
  /** JSON of the protocol's messageContentSchema. */
  content: string;
  created_at: number;
  revoked_at: number | null;
  burn_at: number | null;
  /** Burn-after-reading duration in force when it was sent (0: it does not burn). */
  burn_seconds: Generated<number>;
  /** Source language of a text, detected when sent; null for notices and text with no words. */
  lang: string | null;
  /** The earlier message a notice is about (a revoke's target); null for anything else. */
  target_seq: number | null;
  /** When its sender last edited the text; null if never. */
  edited_at: number | null;
  /** What a search finds the message by (searchTextOf); null for what has none. */
  search_text: string | null;
  /** Its short words in unspaced scripts (gramsOf); null for what has none. */
  search_grams: string | null;
}

/** One message in one target language: claimed (pending), then done or failed. */
export interface TranslationsTable {
  message_id: string;
  lang: string;
  conversation_id: string;
  seq: number;
  source_lang: string;
  status: 'pending' | 'done' | 'failed';
  text: string | null;
  error: string | null;
  provider: string | null;
  /** A pending claim past this time may be taken over (the claiming node died). */
  lease_until: number;
  updated_at: number;
}

/** Provider characters a user caused on one UTC day (the daily quota). */
export interface TranslationUsageTable {
  user_id: string;
  day: string;
  characters: number;
}

/** Messages a member deleted for themselves. */
export interface MessageHidesTable {
  user_id: string;
  conversation_id: string;
  seq: number;
  created_at: number;
}

export interface UserEventsTable {
  user_id: string;
  seq: number;
  /** JSON of the protocol's userEventDataSchema. */
  data: string;
  created_at: number;
}

export interface GroupsTable {
  id: string;
  /** The public number people search for (8 to 10 digits). */
  group_no: string;
  name: string;
  avatar_path: string | null;
  notice: string;
  notice_at: number | null;
  owner_id: string;
  member_count: number;
  /** open, approval or invite (protocol groupVerificationSchema). */
  verification: string;
  private_chat: number;
  /** JSON array of the message kinds members may send. */
  allowed_kinds: string;
  all_muted: number;
  /** Who may start a call: all (members) or admins (owner and admins). */
  call_policy: Generated<string>;
  created_at: number;
  updated_at: number;
  dismissed_at: number | null;
}

export interface GroupApplicationsTable {
  id: string;
  group_id: string;
  user_id: string;
  message: string;
  /** pending, accepted or rejected. */
  status: string;
  created_at: number;
  handled_at: number | null;
  handled_by: string | null;
}

export interface MediaTable {
  id: string;
  owner_id: string;
  /** image or file (protocol MediaKind). */
  kind: string;
  mime: string;
  size: number;
  name: string;
  width: number | null;
  height: number | null;
  /** ThumbHash, base64. */
  placeholder: string | null;
  duration_ms: number | null;
  waveform: string | null;
  poster_id: string | null;
  original_key: string;
  thumb_key: string | null;
  /** 1 once a message carried it. */
  sent: Generated<number>;
  created_at: number;
}

/** An upload begun and not yet stored or dropped: its declared size counts against the day's total. */
export interface UploadReservationsTable {
  id: string;
  owner_id: string;
  size: number;
  created_at: number;
}

export interface FaceFavouritesTable {
  user_id: string;
  media_id: string;
  created_at: number;
}

export interface MessageMediaTable {
  media_id: string;
  conversation_id: string;
  seq: number;
}

export interface GrowthSettingsTable {
  key: string;
  /** JSON. */
  value: string;
  updated_at: number;
}

export interface MinersTable {
  user_id: string;
  session_id: string | null;
  started_at: number | null;
  ends_at: number | null;
  checkins: Generated<number>;
  reminders: Generated<number>;
  qualified_at: number | null;
  nudged_at: number | null;
}

export interface MiningSessionsTable {
  id: string;
  user_id: string;
  country: string;
  started_at: number;
  ends_at: number;
  /** JSON of the rates in force at check-in. */
  rates: string;
  ad_boost_at: number | null;
  ad_id: string | null;
  settled_at: number | null;
}

/** A rewarded ad, bound to the first account that handed it in (Pi names no viewer). */
export interface AdClaimsTable {
  ad_id: string;
  user_id: string;
  claimed_at: number;
}

/** The account each mailbox's invitation counted for (canonicalMailbox: one per person). */
export interface CountedMailboxesTable {
  mailbox: string;
  user_id: string;
  counted_at: number;
}

export interface RankValuesTable {
  board: string;
  period: string;
  user_id: string;
  value: number;
}

export interface JobsTable {
  id: string;
  kind: string;
  key: string;
  /** JSON. */
  payload: string;
  run_at: number;
  lease_until: number | null;
  attempts: Generated<number>;
  error: string | null;
  done_at: number | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  friend_requests: FriendRequestsTable;
  friendships: FriendshipsTable;
  blocks: BlocksTable;
  conversations: ConversationsTable;
  conversation_members: ConversationMembersTable;
  messages: MessagesTable;
  message_hides: MessageHidesTable;
  user_events: UserEventsTable;
  groups: GroupsTable;
  group_applications: GroupApplicationsTable;
  translations: TranslationsTable;
  translation_usage: TranslationUsageTable;
  media: MediaTable;
  message_media: MessageMediaTable;
  upload_reservations: UploadReservationsTable;
  face_favourites: FaceFavouritesTable;
  pi_tickets: PiTicketsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  wallets: WalletsTable;
  payments: PaymentsTable;
  envelopes: EnvelopesTable;
  envelope_shares: EnvelopeSharesTable;
  nft_collections: NftCollectionsTable;
  nft_items: NftItemsTable;
  growth_settings: GrowthSettingsTable;
  miners: MinersTable;
  mining_sessions: MiningSessionsTable;
  ad_claims: AdClaimsTable;
  counted_mailboxes: CountedMailboxesTable;
  rank_values: RankValuesTable;
  jobs: JobsTable;
  device_logins: DeviceLoginsTable;
  push_subscriptions: PushSubscriptionsTable;
  server_flags: ServerFlagsTable;
  cooperation_requests: CooperationRequestsTable;
  security_events: SecurityEventsTable;
  address_changes: AddressChangesTable;
  attempt_counters: AttemptCountersTable;
  calls: CallsTable;
  call_participants: CallParticipantsTable;
}

/** The database or a transaction on it: repos take either. */
export type Db = Kysely<Database>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type CodeRow = Selectable<VerificationCodesTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type FriendRequestRow = Selectable<FriendRequestsTable>;
export type FriendshipRow = Selectable<FriendshipsTable>;
export type ConversationRow = Selectable<ConversationsTable>;
export type MemberRow = Selectable<ConversationMembersTable>;
export type MessageRow = Selectable<MessagesTable>;
export type TranslationRow = Selectable<TranslationsTable>;
export type GroupRow = Selectable<GroupsTable>;
export type MediaRow = Selectable<MediaTable>;
export type GroupApplicationRow = Selectable<GroupApplicationsTable>;
