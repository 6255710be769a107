import type { Database } from './schema.js';

/**
 * Every table and the one module that owns it: only the owner's code names the table in a
 * query; every other module reads and writes it through the owner's service, or through
 * a port the owner implements (a subquery or a function it hands out). owners.test.ts
 * holds the code to it. The module is the folder under src/modules.
 */
export const TABLE_OWNERS = {
  users: 'users',
  sessions: 'auth',
  verification_codes: 'auth',
  friend_requests: 'contacts',
  friendships: 'contacts',
  blocks: 'contacts',
  conversations: 'messages',
  conversation_members: 'messages',
  messages: 'messages',
  message_hides: 'messages',
  user_events: 'events',
  groups: 'groups',
  group_applications: 'groups',
  translations: 'translation',
  translation_usage: 'translation',
  media: 'media',
  message_media: 'media',
  upload_reservations: 'media',
  face_favourites: 'media',
  pi_tickets: 'pi',
  ledger_accounts: 'ledger',
  ledger_transactions: 'ledger',
  ledger_entries: 'ledger',
  wallets: 'wallet',
  payments: 'payments',
  envelopes: 'money',
  envelope_shares: 'money',
  nft_collections: 'nft',
  nft_items: 'nft',
  growth_settings: 'growth',
  miners: 'growth',
  mining_sessions: 'growth',
  ad_claims: 'growth',
  counted_mailboxes: 'growth',
  rank_values: 'growth',
  jobs: 'jobs',
  device_logins: 'devices',
  push_subscriptions: 'push',
  server_flags: 'meta',
  cooperation_requests: 'landing',
  security_events: 'security',
  address_changes: 'security',
  attempt_counters: 'security',
  calls: 'calls',
  call_participants: 'calls',
} as const satisfies Record<keyof Database, string>;

export type TableName = keyof typeof TABLE_OWNERS;
export type ModuleName = (typeof TABLE_OWNERS)[TableName];
