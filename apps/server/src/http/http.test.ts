import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  APP_VERSION,
  JSON_BODY_LIMIT_BYTES,
  type CountryListResult,
  type ErrorBody,
  type ErrorCode,
  type OutboxResult,
} from '@teltlk/protocol';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  uniqueEmail,
  type RegisteredUser,
  type TestApp,
} from '../test/harness.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface JsonRoute {
  method: Method;
  url: string;
  auth: boolean;
  /** Whether `{}` is a complete body (all-optional PATCH bodies). */
  emptyIsValid: boolean;
  /** A valid `{}` answered with this error instead (the resource does not exist). */
  emptyError?: ErrorCode;
  /** A body with a wrong type in every field. */
  wrongTypes: Record<string, unknown>;
  /** Its OpenAPI path, where `url` fills in a parameter. */
  route?: string;
}

/** Every route that takes a JSON body. A test below checks the list against the OpenAPI document. */
const JSON_ROUTES: JsonRoute[] = [
  {
    method: 'POST',
    url: '/api/v1/media/urls',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { ids: 'abc' },
  },
  {
    method: 'POST',
    url: '/api/v1/faces/favourites',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { mediaId: 5 },
  },
  {
    method: 'POST',
    url: '/api/v1/auth/codes',
    auth: false,
    emptyIsValid: false,
    wrongTypes: { purpose: 1, channel: true, destination: [] },
  },
  {
    method: 'POST',
    url: '/api/v1/auth/codes/verify',
    auth: false,
    emptyIsValid: false,
    wrongTypes: { purpose: 'register', channel: 'email', destination: 5, code: 123456 },
  },
  {
    method: 'POST',
    url: '/api/v1/auth/register',
    auth: false,
    emptyIsValid: false,
    wrongTypes: {
      ticket: 1,
      nickname: 2,
      password: 3,
      country: 4,
      motherTongue: 5,
      inviteCode: 6,
      uiLanguage: 7,
    },
  },
  {
    method: 'PUT',
    url: '/api/v1/wallet/password',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { password: 123456 },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/password/change',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { currentPassword: 1, password: 2 },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/password/verify',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { password: [] },
  },
  {
    method: 'POST',
    url: '/api/v1/auth/pi',
    auth: false,
    emptyIsValid: false,
    wrongTypes: { accessToken: 5 },
  },
  {
    method: 'POST',
    url: '/api/v1/auth/pi/register',
    auth: false,
    emptyIsValid: false,
    wrongTypes: { ticket: 1, nickname: 2, country: 3, motherTongue: 4, inviteCode: 5 },
  },
  {
    method: 'POST',
    url: '/api/v1/auth/pi/bind',
    auth: false,
    emptyIsValid: false,
    wrongTypes: { proof: 1, ticket: 2, account: 3, password: 4 },
  },
  {
    method: 'POST',
    url: '/api/v1/me/pi',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { accessToken: [] },
  },
  {
    method: 'POST',
    url: '/api/v1/me/phone',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { ticket: 9 },
  },
  {
    method: 'POST',
    url: '/api/v1/security/step-up/code',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { channel: 3 },
  },
  {
    method: 'POST',
    url: '/api/v1/security/step-up',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { method: 1, password: 2 },
  },
  {
    method: 'POST',
    url: '/api/v1/security/address-undo',
    auth: false,
    emptyIsValid: false,
    wrongTypes: { token: 7 },
  },
  {
    method: 'POST',
    url: '/api/v1/pi/payments/incomplete',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { paymentId: {} },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/password/code',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { channel: 1 },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/password/reset',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { channel: 1, code: 123456, password: 123456 },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/transfers',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { conversationId: 1, clientMsgId: 2, amount: 3, note: 4, password: 5 },
  },
  {
    method: 'PUT',
    url: '/api/v1/growth/mining/reminders',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { on: 'yes' },
  },
  {
    method: 'POST',
    url: '/api/v1/growth/mining/ad',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { adId: 1 },
  },
  {
    method: 'PUT',
    url: '/api/v1/push/subscription',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { endpoint: 1, keys: 'x' },
  },
  {
    method: 'POST',
    url: '/api/v1/device-logins/lookup',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { code: 12345678 },
  },
  {
    method: 'POST',
    url: '/api/v1/device-logins/abc/decision',
    route: '/api/v1/device-logins/:id/decision',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { approve: 'yes' },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/nfts/abc/send',
    route: '/api/v1/wallet/nfts/:id/send',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { conversationId: 1, clientMsgId: 2, password: 3 },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/envelopes',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { conversationId: 1, total: 2, count: '3', split: 4, greeting: 5, password: 6 },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/recharge',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { amount: 3.5 },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/recharge/approve',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { paymentId: 1 },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/recharge/complete',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { paymentId: 1, txid: [] },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/recharge/cancel',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { paymentId: null },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/withdraw',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { amount: 1, password: 123456 },
  },
  {
    method: 'POST',
    url: '/api/v1/auth/login',
    auth: false,
    emptyIsValid: false,
    wrongTypes: { account: {}, password: 12345678 },
  },
  {
    method: 'POST',
    url: '/api/v1/auth/login/code',
    auth: false,
    emptyIsValid: false,
    wrongTypes: { channel: 'phone', destination: 8613800000000, code: 1 },
  },
  {
    method: 'POST',
    url: '/api/v1/auth/password/reset',
    auth: false,
    emptyIsValid: false,
    wrongTypes: { channel: 'email', destination: null, code: [], password: {} },
  },
  {
    method: 'PATCH',
    url: '/api/v1/me',
    auth: true,
    emptyIsValid: true,
    wrongTypes: { nickname: 1, country: 2, motherTongue: 3 },
  },
  {
    method: 'PUT',
    url: '/api/v1/me/teltlk-id',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { teltlkId: 1234567 },
  },
  {
    method: 'PUT',
    url: '/api/v1/me/password',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { currentPassword: 1, newPassword: true },
  },
  {
    method: 'PATCH',
    url: '/api/v1/me/settings',
    auth: true,
    emptyIsValid: true,
    wrongTypes: {
      uiLanguage: 1,
      motherTongueFirst: 'yes',
      notifications: 0,
      vibration: null,
      alertSound: [],
    },
  },
  {
    method: 'POST',
    url: '/api/v1/friend-requests',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { userId: 1, greeting: 2 },
  },
  {
    method: 'PATCH',
    url: '/api/v1/friends/abc',
    route: '/api/v1/friends/:id',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { remark: 1 },
  },
  {
    method: 'POST',
    url: '/api/v1/messages',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { conversationId: 1, clientMsgId: 2, content: 'text' },
  },
  {
    // `{}` changes nothing and is refused; the conversation does not exist either.
    method: 'PATCH',
    url: '/api/v1/conversations/si_abc_abd',
    route: '/api/v1/conversations/:id',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { pinned: 'yes', muted: 1, hidden: null, translate: 'on', translateTo: 'xx' },
  },
  {
    method: 'POST',
    url: '/api/v1/translations',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { conversationId: 1, seqs: 'all', lang: 5, retry: 'yes' },
  },
  {
    method: 'POST',
    url: '/api/v1/translations/preview',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { text: 1, to: 'klingon' },
  },
  {
    method: 'PUT',
    url: '/api/v1/conversations/si_abc_abd/burn',
    route: '/api/v1/conversations/:id/burn',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { seconds: 'ten' },
  },
  {
    method: 'POST',
    url: '/api/v1/conversations/si_abc_abd/messages/1/edit',
    route: '/api/v1/conversations/:id/messages/:seq/edit',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { text: 5 },
  },
  {
    method: 'POST',
    url: '/api/v1/conversations/si_abc_abd/read',
    route: '/api/v1/conversations/:id/read',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { seq: 'last' },
  },
  {
    method: 'POST',
    url: '/api/v1/groups',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { name: 1, memberIds: 'all' },
  },
  {
    // `{}` changes nothing and is refused.
    method: 'PATCH',
    url: '/api/v1/groups/abc',
    route: '/api/v1/groups/:id',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { name: 1, notice: [], verification: 'all', allMuted: 'yes' },
  },
  {
    method: 'PATCH',
    url: '/api/v1/groups/abc/me',
    route: '/api/v1/groups/:id/me',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { nickname: 1, remark: true },
  },
  {
    method: 'POST',
    url: '/api/v1/groups/abc/members',
    route: '/api/v1/groups/:id/members',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { userIds: 'all' },
  },
  {
    method: 'POST',
    url: '/api/v1/groups/abc/members/abd/friend-request',
    route: '/api/v1/groups/:id/members/:userId/friend-request',
    auth: true,
    emptyIsValid: true,
    emptyError: 'GROUP_NOT_FOUND',
    wrongTypes: { greeting: 5 },
  },
  {
    method: 'PUT',
    url: '/api/v1/groups/abc/members/abd/role',
    route: '/api/v1/groups/:id/members/:userId/role',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { role: 'owner' },
  },
  {
    method: 'PUT',
    url: '/api/v1/groups/abc/members/abd/mute',
    route: '/api/v1/groups/:id/members/:userId/mute',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { seconds: 'long' },
  },
  {
    method: 'POST',
    url: '/api/v1/groups/abc/transfer',
    route: '/api/v1/groups/:id/transfer',
    auth: true,
    emptyIsValid: false,
    wrongTypes: { userId: 1 },
  },
  {
    method: 'POST',
    url: '/api/v1/groups/abc/join',
    route: '/api/v1/groups/:id/join',
    auth: true,
    emptyIsValid: true,
    emptyError: 'GROUP_NOT_FOUND',
    wrongTypes: { message: 1 },
  },
];

/**
 * Every route that needs a session, with a request that would succeed if signed in.
 * `route` is its OpenAPI path where the URL alone does not say it (parameters other
 * than a trailing `/abc` id, which stands for `/:id`).
 */
const PROTECTED: { method: Method; url: string; body?: unknown; route?: string }[] = [
  { method: 'POST', url: '/api/v1/auth/logout' },
  { method: 'GET', url: '/api/v1/sessions' },
  { method: 'DELETE', url: '/api/v1/sessions/abc' },
  { method: 'GET', url: '/api/v1/me' },
  { method: 'PATCH', url: '/api/v1/me', body: { nickname: 'X' } },
  { method: 'PUT', url: '/api/v1/me/teltlk-id', body: { teltlkId: 'abcdefgh' } },
  { method: 'POST', url: '/api/v1/me/avatar' },
  {
    method: 'PUT',
    url: '/api/v1/me/password',
    body: { currentPassword: PASSWORD, newPassword: 'N3wPassword' },
  },
  { method: 'GET', url: '/api/v1/me/settings' },
  { method: 'PATCH', url: '/api/v1/me/settings', body: { vibration: false } },
  { method: 'GET', url: '/api/v1/sync/events?after=0' },
  { method: 'GET', url: '/api/v1/translations/info' },
  {
    method: 'POST',
    url: '/api/v1/translations',
    body: { conversationId: 'si_abc_abd', seqs: [1] },
  },
  { method: 'POST', url: '/api/v1/translations/preview', body: { text: 'hi', to: 'es' } },
  { method: 'GET', url: '/api/v1/users/search?q=someone' },
  { method: 'GET', url: '/api/v1/users/abc' },
  { method: 'GET', url: '/api/v1/friend-requests' },
  { method: 'POST', url: '/api/v1/friend-requests', body: { userId: 'abc', greeting: 'Hi' } },
  {
    method: 'POST',
    url: '/api/v1/friend-requests/abc/accept',
    route: '/api/v1/friend-requests/:id/accept',
  },
  {
    method: 'POST',
    url: '/api/v1/friend-requests/abc/reject',
    route: '/api/v1/friend-requests/:id/reject',
  },
  { method: 'GET', url: '/api/v1/friends' },
  { method: 'PATCH', url: '/api/v1/friends/abc', body: { remark: 'Pal' } },
  { method: 'DELETE', url: '/api/v1/friends/abc' },
  { method: 'GET', url: '/api/v1/blocks' },
  { method: 'PUT', url: '/api/v1/blocks/abc' },
  { method: 'DELETE', url: '/api/v1/blocks/abc' },
  { method: 'GET', url: '/api/v1/official-accounts' },
  { method: 'GET', url: '/api/v1/sync/conversations?since=0' },
  {
    method: 'GET',
    url: '/api/v1/conversations/si_abc_abd/messages?after=0',
    route: '/api/v1/conversations/:id/messages',
  },
  {
    method: 'POST',
    url: '/api/v1/messages',
    body: {
      conversationId: 'si_abc_abd',
      clientMsgId: 'abcdefgh',
      content: { kind: 'text', text: 'Hi' },
    },
  },
  {
    method: 'PATCH',
    url: '/api/v1/conversations/si_abc_abd',
    body: { pinned: true },
    route: '/api/v1/conversations/:id',
  },
  {
    method: 'POST',
    url: '/api/v1/conversations/si_abc_abd/clear',
    route: '/api/v1/conversations/:id/clear',
  },
  {
    method: 'PUT',
    url: '/api/v1/conversations/si_abc_abd/burn',
    body: { seconds: 10 },
    route: '/api/v1/conversations/:id/burn',
  },
  {
    method: 'POST',
    url: '/api/v1/conversations/si_abc_abd/read',
    body: { seq: 1 },
    route: '/api/v1/conversations/:id/read',
  },
  {
    method: 'POST',
    url: '/api/v1/conversations/si_abc_abd/messages/1/revoke',
    route: '/api/v1/conversations/:id/messages/:seq/revoke',
  },
  {
    method: 'POST',
    url: '/api/v1/conversations/si_abc_abd/messages/1/hide',
    route: '/api/v1/conversations/:id/messages/:seq/hide',
  },
  {
    method: 'POST',
    url: '/api/v1/conversations/si_abc_abd/messages/1/edit',
    body: { text: 'Edited' },
    route: '/api/v1/conversations/:id/messages/:seq/edit',
  },
  { method: 'GET', url: '/api/v1/messages/search?q=hello', route: '/api/v1/messages/search' },
  { method: 'GET', url: '/api/v1/faces/favourites' },
  { method: 'POST', url: '/api/v1/me/pi', body: { accessToken: 'x'.repeat(20) } },
  { method: 'DELETE', url: '/api/v1/me/pi' },
  { method: 'GET', url: '/api/v1/wallet' },
  { method: 'POST', url: '/api/v1/wallet' },
  { method: 'PUT', url: '/api/v1/wallet/password', body: { password: '123456' } },
  {
    method: 'POST',
    url: '/api/v1/wallet/password/change',
    body: { currentPassword: '123456', password: '654321' },
  },
  { method: 'POST', url: '/api/v1/wallet/password/verify', body: { password: '123456' } },
  { method: 'POST', url: '/api/v1/me/phone', body: { ticket: 'x'.repeat(20) } },
  { method: 'GET', url: '/api/v1/security/step-up' },
  { method: 'POST', url: '/api/v1/security/step-up/code', body: { channel: 'email' } },
  {
    method: 'POST',
    url: '/api/v1/security/step-up',
    body: { method: 'password', password: 'Passw0rd!' },
  },
  { method: 'GET', url: '/api/v1/security/activity' },
  { method: 'POST', url: '/api/v1/pi/payments/incomplete', body: { paymentId: 'abc' } },
  { method: 'POST', url: '/api/v1/wallet/password/code', body: { channel: 'email' } },
  {
    method: 'POST',
    url: '/api/v1/wallet/password/reset',
    body: { channel: 'email', code: '123456', password: '123456' },
  },
  { method: 'GET', url: '/api/v1/wallet/rules' },
  {
    method: 'POST',
    url: '/api/v1/wallet/transfers',
    body: { conversationId: 'si_a_b', clientMsgId: 'c1', amount: '1', password: '123456' },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/envelopes',
    body: {
      conversationId: 'sg_a',
      clientMsgId: 'c1',
      total: '1',
      count: 1,
      split: 'equal',
      password: '123456',
    },
  },
  { method: 'GET', url: '/api/v1/wallet/envelopes/abc', route: '/api/v1/wallet/envelopes/:id' },
  { method: 'GET', url: '/api/v1/wallet/nfts' },
  { method: 'GET', url: '/api/v1/growth/mining' },
  { method: 'POST', url: '/api/v1/growth/mining/checkin' },
  { method: 'PUT', url: '/api/v1/growth/mining/reminders', body: { on: true } },
  { method: 'POST', url: '/api/v1/growth/mining/ad', body: { adId: 'ad-1' } },
  { method: 'GET', url: '/api/v1/growth/coin' },
  { method: 'GET', url: '/api/v1/growth/coin/history' },
  { method: 'GET', url: '/api/v1/growth/team' },
  { method: 'GET', url: '/api/v1/growth/team/members' },
  {
    method: 'POST',
    url: '/api/v1/growth/team/members/abc/nudge',
    route: '/api/v1/growth/team/members/:id/nudge',
  },
  {
    method: 'GET',
    url: '/api/v1/growth/rankings/points',
    route: '/api/v1/growth/rankings/:board',
  },
  { method: 'GET', url: '/api/v1/device-logins/abc', route: '/api/v1/device-logins/:id' },
  { method: 'GET', url: '/api/v1/push/key' },
  {
    method: 'PUT',
    url: '/api/v1/push/subscription',
    body: { endpoint: 'https://fcm.googleapis.com/x', keys: { p256dh: 'a', auth: 'b' } },
  },
  { method: 'DELETE', url: '/api/v1/push/subscription' },
  { method: 'POST', url: '/api/v1/push/test' },
  { method: 'POST', url: '/api/v1/device-logins/lookup', body: { code: 'ABCD2345' } },
  {
    method: 'POST',
    url: '/api/v1/device-logins/abc/decision',
    route: '/api/v1/device-logins/:id/decision',
    body: { approve: false },
  },
  { method: 'GET', url: '/api/v1/wallet/nfts/abc', route: '/api/v1/wallet/nfts/:id' },
  {
    method: 'POST',
    url: '/api/v1/wallet/nfts/abc/send',
    route: '/api/v1/wallet/nfts/:id/send',
    body: { conversationId: 'si_a_b', clientMsgId: 'c1', password: '123456' },
  },
  {
    method: 'POST',
    url: '/api/v1/wallet/envelopes/abc/open',
    route: '/api/v1/wallet/envelopes/:id/open',
  },
  { method: 'GET', url: '/api/v1/wallet/payments' },
  { method: 'POST', url: '/api/v1/wallet/recharge', body: { amount: '1' } },
  { method: 'POST', url: '/api/v1/wallet/recharge/approve', body: { paymentId: 'abc' } },
  {
    method: 'POST',
    url: '/api/v1/wallet/recharge/complete',
    body: { paymentId: 'abc', txid: 'def' },
  },
  { method: 'POST', url: '/api/v1/wallet/recharge/cancel', body: { paymentId: 'abc' } },
  { method: 'POST', url: '/api/v1/wallet/withdraw', body: { amount: '1', password: '123456' } },
  { method: 'POST', url: '/api/v1/faces/favourites', body: { mediaId: 'a'.repeat(20) } },
  {
    method: 'DELETE',
    url: `/api/v1/faces/favourites/${'a'.repeat(20)}`,
    route: '/api/v1/faces/favourites/:mediaId',
  },
  { method: 'POST', url: '/api/v1/groups', body: { memberIds: ['abd'] } },
  { method: 'GET', url: '/api/v1/groups' },
  { method: 'GET', url: '/api/v1/groups/search?no=12345678' },
  { method: 'GET', url: '/api/v1/groups/abc' },
  { method: 'PATCH', url: '/api/v1/groups/abc', body: { name: 'Pi' } },
  { method: 'DELETE', url: '/api/v1/groups/abc' },
  {
    method: 'PATCH',
    url: '/api/v1/groups/abc/me',
    body: { nickname: 'Ada' },
    route: '/api/v1/groups/:id/me',
  },
  { method: 'GET', url: '/api/v1/groups/abc/members', route: '/api/v1/groups/:id/members' },
  {
    method: 'POST',
    url: '/api/v1/groups/abc/members',
    body: { userIds: ['abd'] },
    route: '/api/v1/groups/:id/members',
  },
  {
    method: 'DELETE',
    url: '/api/v1/groups/abc/members/abd',
    route: '/api/v1/groups/:id/members/:userId',
  },
  {
    method: 'POST',
    url: '/api/v1/groups/abc/members/abd/friend-request',
    body: {},
    route: '/api/v1/groups/:id/members/:userId/friend-request',
  },
  {
    method: 'PUT',
    url: '/api/v1/groups/abc/members/abd/role',
    body: { role: 'admin' },
    route: '/api/v1/groups/:id/members/:userId/role',
  },
  {
    method: 'PUT',
    url: '/api/v1/groups/abc/members/abd/mute',
    body: { seconds: 600 },
    route: '/api/v1/groups/:id/members/:userId/mute',
  },
  {
    method: 'POST',
    url: '/api/v1/groups/abc/transfer',
    body: { userId: 'abd' },
    route: '/api/v1/groups/:id/transfer',
  },
  { method: 'POST', url: '/api/v1/groups/abc/quit', route: '/api/v1/groups/:id/quit' },
  { method: 'POST', url: '/api/v1/groups/abc/join', body: {}, route: '/api/v1/groups/:id/join' },
  {
    method: 'GET',
    url: '/api/v1/groups/abc/messages/1/reads',
    route: '/api/v1/groups/:id/messages/:seq/reads',
  },
  { method: 'POST', url: '/api/v1/groups/abc/avatar', route: '/api/v1/groups/:id/avatar' },
  { method: 'GET', url: '/api/v1/group-applications' },
  { method: 'GET', url: '/api/v1/media/limits' },
  { method: 'GET', url: '/api/v1/media/abc' },
  { method: 'POST', url: '/api/v1/media/urls', body: { ids: ['a'.repeat(20)] } },
  { method: 'POST', url: '/api/v1/uploads' },
  { method: 'PATCH', url: '/api/v1/uploads/abc' },
  { method: 'DELETE', url: '/api/v1/uploads/abc' },
  {
    method: 'POST',
    url: '/api/v1/group-applications/abc/accept',
    route: '/api/v1/group-applications/:id/accept',
  },
  {
    method: 'POST',
    url: '/api/v1/group-applications/abc/reject',
    route: '/api/v1/group-applications/:id/reject',
  },
];

/** Every route open without a session. */
const PUBLIC = [
  'GET /healthz',
  'GET /api/v1/meta/countries',
  'GET /api/v1/pi/config',
  'POST /api/v1/auth/device-logins',
  'GET /api/v1/meta/version',
  'GET /api/v1/dev/outbox',
  'GET /api/v1/media/:id/:variant',
  'GET /api/v1/security/address-undo/:token',
  ...JSON_ROUTES.filter((route) => !route.auth).map(
    (route) => `${route.method} ${route.route ?? route.url}`,
  ),
];

describe.each(dialects)('HTTP behaviour on $dialect', ({ dialect }) => {
  let t: TestApp;
  let user: RegisteredUser;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    user = await t.register();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the health check', async () => {
    const response = await t.call('GET', '/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', version: APP_VERSION });
  });

  it('lists countries with dial codes, sorted by code', async () => {
    const { countries } = (await t.call('GET', '/api/v1/meta/countries')).json<CountryListResult>();
    expect(countries.length).toBeGreaterThan(200);
    expect(countries).toContainEqual({ code: 'CN', dialCode: '86' });
    expect(countries).toContainEqual({ code: 'TW', dialCode: '886' });
    expect(countries).toContainEqual({ code: 'US', dialCode: '1' });
    expect(countries.map((c) => c.code)).toEqual(countries.map((c) => c.code).sort());
  });

  it('answers unknown API routes and methods with NOT_FOUND', async () => {
    expectError(await t.call('GET', '/api/v1/nope'), 'NOT_FOUND');
    expectError(await t.call('POST', '/api/v1/meta/countries', { body: {} }), 'NOT_FOUND');
    expectError(await t.call('DELETE', '/api/v1/me', { token: user.token }), 'NOT_FOUND');
  });

  it('describes every route in the OpenAPI document, each either public or behind a session', async () => {
    const response = await t.call('GET', '/openapi.json');
    expect(response.statusCode).toBe(200);
    const doc = response.json<{
      openapi: string;
      paths: Record<
        string,
        Record<string, { security?: unknown[]; requestBody?: { content: Record<string, unknown> } }>
      >;
    }>();
    expect(doc.openapi).toMatch(/^3\./);
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        route: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        operation,
      })),
    );
    const secured = PROTECTED.map(
      (r) => `${r.method} ${r.route ?? r.url.replace(/\?.*$/, '').replace(/\/abc$/, '/:id')}`,
    );
    expect(operations.map((o) => o.route).sort()).toEqual([...PUBLIC, ...secured].sort());
    for (const { route, operation } of operations) {
      expect(Boolean(operation.security), route).toBe(secured.includes(route));
    }
    const withJson = operations
      .filter((o) => o.operation.requestBody?.content['application/json'])
      .map((o) => o.route);
    expect(withJson.sort()).toEqual(
      JSON_ROUTES.map((r) => `${r.method} ${r.route ?? r.url}`).sort(),
    );
  });

  it('serves the API docs UI', async () => {
    const page = await t.call('GET', '/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect((await t.call('GET', '/docs/static/swagger-initializer.js')).statusCode).toBe(200);
  });

  it('sends security headers that allow the app and nothing else', async () => {
    const response = await t.call('GET', '/healthz');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    // Sockets to the host asked for only (light-my-request's default Host).
    expect(csp).toContain("connect-src 'self' ws://localhost:80 wss://localhost:80;");
    expect(csp).not.toContain('unsafe');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  describe('every protected endpoint needs a session', () => {
    it.each(PROTECTED)('$method $url', async ({ method, url, body }) => {
      expectError(await t.call(method, url, { body }), 'UNAUTHENTICATED');
      expectError(
        await t.call(method, url, { body, headers: { authorization: `Basic ${user.token}` } }),
        'UNAUTHENTICATED',
      );
      expectError(await t.call(method, url, { body, token: 'x'.repeat(43) }), 'UNAUTHENTICATED');
      // A broken body does not get past the missing session either.
      const broken = await t.app.inject({
        method,
        url,
        payload: '{"a":',
        headers: { 'content-type': 'application/json' },
      });
      expectError(broken, 'UNAUTHENTICATED');
    });
  });

  describe('bad input never becomes a 500', () => {
    const send = (route: JsonRoute, payload: string | Buffer, contentType = 'application/json') =>
      t.app.inject({
        method: route.method,
        url: route.url,
        payload,
        headers: {
          'content-type': contentType,
          ...(route.auth ? { authorization: `Bearer ${user.token}` } : {}),
        },
      });

    it.each(JSON_ROUTES)('$method $url', async (route) => {
      expectError(await send(route, '{"purpose": "register",'), 'MALFORMED_REQUEST');
      expectError(await send(route, ''), 'MALFORMED_REQUEST');
      expectError(await send(route, '{"__proto__": {"admin": true}}'), 'MALFORMED_REQUEST');

      const wrong = expectError(
        await send(route, JSON.stringify(route.wrongTypes)),
        'VALIDATION_FAILED',
      );
      expect(wrong.issues?.length).toBeGreaterThan(0);

      for (const notAnObject of ['[]', '"text"', 'null', '42']) {
        expectError(await send(route, notAnObject), 'VALIDATION_FAILED');
      }

      const empty = await send(route, '{}');
      if (route.emptyError) expectError(empty, route.emptyError);
      else if (route.emptyIsValid) expect(empty.statusCode).toBe(200);
      else expect(expectError(empty, 'VALIDATION_FAILED').issues?.length).toBeGreaterThan(0);

      const big = JSON.stringify({ padding: 'x'.repeat(JSON_BODY_LIMIT_BYTES) });
      expectError(await send(route, big), 'PAYLOAD_TOO_LARGE');

      expectError(
        await send(route, 'purpose=register', 'application/x-www-form-urlencoded'),
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expectError(await send(route, '{}', 'text/plain'), 'UNSUPPORTED_MEDIA_TYPE');
      expectError(
        await send(route, '--b\r\n\r\n--b--', 'multipart/form-data; boundary=b'),
        'UNSUPPORTED_MEDIA_TYPE',
      );
    });

    it('reports missing fields as required, with the shared rule keys', async () => {
      const response = await t.call('POST', '/api/v1/auth/login', { body: {} });
      const error = expectError(response, 'VALIDATION_FAILED');
      expect(error.message).toBe('The request is not valid');
      expect(error.issues).toEqual([
        { path: 'account', rule: 'required' },
        { path: 'password', rule: 'required' },
      ]);
      const register = expectError(
        await t.call('POST', '/api/v1/auth/register', {
          body: {
            ticket: 'short',
            nickname: 'Ada',
            password: 'password',
            country: 'GB',
            motherTongue: 'en',
          },
        }),
        'VALIDATION_FAILED',
      );
      expect(register.issues).toEqual([
        { path: 'ticket', rule: 'ticket' },
        { path: 'password', rule: 'passwordStrength' },
      ]);
    });

    it('checks path parameters', async () => {
      const long = expectError(
        await t.call('DELETE', `/api/v1/sessions/${'a'.repeat(65)}`, { token: user.token }),
        'VALIDATION_FAILED',
      );
      expect(long.issues).toEqual([{ path: 'id', rule: 'invalid' }]);
    });

    it('handles broken URLs and multipart bodies', async () => {
      const badUrl = await t.call('GET', '/api/v1/me/%E0%A4%A');
      expect(badUrl.statusCode).toBeLessThan(500);
      expect(badUrl.json<ErrorBody>().error.code).toBeDefined();

      const avatar = (payload: string, contentType: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/me/avatar',
          payload,
          headers: { 'content-type': contentType, authorization: `Bearer ${user.token}` },
        });
      for (const [payload, contentType] of [
        [
          '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
          'multipart/form-data; boundary=b',
        ],
        ['garbage', 'multipart/form-data'],
        ['garbage', 'multipart/form-data; boundary=b'],
        [
          '--b\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--b--\r\n',
          'multipart/form-data; boundary=b',
        ],
      ] as const) {
        const response = await avatar(payload, contentType);
        expect(response.statusCode, `${contentType} ${payload}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, response.body).toBeLessThan(500);
        expect(response.json<ErrorBody>().error.code).toMatch(/^[A-Z_]+$/);
      }
    });
  });

  describe('dev outbox', () => {
    it('lists codes newest first as JSON', async () => {
      const first = uniqueEmail();
      const second = uniqueEmail();
      await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'email', destination: first },
      });
      t.clock.advance(1000);
      await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'email', destination: second },
      });
      const { messages } = (
        await t.call('GET', '/api/v1/dev/outbox', { ip: '127.0.0.1' })
      ).json<OutboxResult>();
      expect(messages[0]).toMatchObject({
        destination: second,
        purpose: 'register',
        channel: 'email',
      });
      expect(messages[1]).toMatchObject({ destination: first });
      expect(messages[0]?.createdAt).toBe(t.clock.now());
    });

    it('shows an escaped, self-refreshing HTML page', async () => {
      t.ctx.outbox?.add({
        kind: 'code',
        channel: 'email',
        destination: '<script>alert("x")</script>@example.com',
        purpose: 'login',
        code: '012345',
        createdAt: t.clock.now(),
      });
      const page = await t.call('GET', '/dev/outbox', { ip: '127.0.0.1' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toContain('http-equiv="refresh"');
      expect(page.body).toContain('012345');
      expect(page.body).not.toContain('<script>');
      expect(page.body).toContain('&#60;script&#62;');
    });
  });
});

describe('production and static files', () => {
  it('has no dev outbox in production, and codes do not land in memory', async () => {
    const mailed: unknown[] = [];
    const t = await createTestApp({
      env: {
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        PUBLIC_URL: 'https://teltlk.example',
      },
      email: { send: (message) => Promise.resolve(void mailed.push(message)) },
    });
    try {
      expect(t.ctx.outbox).toBeNull();
      const local = { ip: '127.0.0.1' };
      expectError(await t.call('GET', '/api/v1/dev/outbox', local), 'NOT_FOUND');
      expect((await t.call('GET', '/dev/outbox', local)).statusCode).toBe(404);
      const sent = await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'email', destination: uniqueEmail() },
      });
      expect(sent.statusCode).toBe(200);
      expect(mailed).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('serves the built web app with the right caching', async () => {
    const t = await createTestApp();
    await t.close();
    const web = join(t.dataDir, 'web');
    await mkdir(join(web, 'assets'), { recursive: true });
    await writeFile(join(web, 'index.html'), '<!doctype html><title>teltlk</title>');
    await writeFile(join(web, 'assets', 'index-AbC123.js'), 'console.log(1)');
    const served = await createTestApp({ env: { WEB_DIST_DIR: web } });
    try {
      const index = await served.call('GET', '/');
      expect(index.statusCode).toBe(200);
      expect(index.body).toContain('<title>teltlk</title>');
      expect(index.headers['cache-control']).toBe('no-cache');
      expect(index.headers['content-security-policy']).toContain("script-src 'self'");
      const asset = await served.call('GET', '/assets/index-AbC123.js');
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await served.call('GET', '/assets/missing.js')).statusCode).toBe(404);
      expect((await served.call('GET', '/healthz')).statusCode).toBe(200);
    } finally {
      await served.close();
    }
  });

  it('says how to build the web app when it is missing', async () => {
    const t = await createTestApp();
    try {
      const response = await t.call('GET', '/');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/plain/);
      expect(response.body).toContain('npm run build');
    } finally {
      await t.close();
    }
  });

  it('never logs passwords, tokens, the Authorization header or verification codes', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await createTestApp({ logger: pino({ level: 'trace' }, sink) });
    try {
      const user = await t.register();
      const code = t.codeFor(user.destination, 'register');
      await t.call('POST', '/api/v1/auth/login', {
        body: { account: user.destination, password: 'Wrong1234' },
      });
      await t.call('GET', '/api/v1/me', {
        token: user.token,
        headers: { 'x-test': 'header-check' },
      });
      const log = lines.join('');
      expect(log).toContain('/api/v1/me');
      expect(log).toContain('verification code put in the dev outbox');
      expect(log).not.toContain(PASSWORD);
      expect(log).not.toContain('Wrong1234');
      expect(log).not.toContain(user.token);
      // As a number of its own, not inside a timestamp.
      expect(log).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
    } finally {
      await t.close();
    }
  });
});
