import { type Endpoint, ENDPOINT_GROUPS, type ErrorCode, pathOf } from '@teltlk/protocol';
import { z } from 'zod';

/**
 * What the HTTP tests send the contract's endpoints: a URL for each, a JSON body that passes
 * its checks and one of the wrong types, and the lists of protected and public routes.
 */

type Method = Endpoint['method'];

export interface JsonRoute {
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

/** What the tests send an endpoint of the contract that takes a JSON body. */
interface JsonSample extends Partial<Pick<JsonRoute, 'emptyError' | 'wrongTypes'>> {
  /** Path parameters that pass their checks, where PARAMS' do not. */
  params?: Record<string, string>;
  emptyIsValid?: boolean;
}

/** Every endpoint of the contract. */
const CONTRACT: Endpoint[] = Object.values(ENDPOINT_GROUPS).flatMap((group) =>
  Object.values<Endpoint>(group),
);
const { security, auth, users, contacts, messages, translation, groups } = ENDPOINT_GROUPS;

/** Path parameters that pass their checks, by name. */
const PARAMS: Record<string, string> = {
  id: 'abc',
  userId: 'abd',
  seq: '1',
  token: 'abc',
  mediaId: 'a'.repeat(20),
  variant: 'original',
  board: 'points',
};
const chat = { id: 'si_abc_abd' };

/** An endpoint's URL with its path parameters filled in, and its OpenAPI path. */
function addressOf(endpoint: Endpoint, params: Record<string, string> = {}) {
  return {
    url: `/api/v1${pathOf(endpoint.path, { ...PARAMS, ...params })}`,
    route: `/api/v1${endpoint.path}`,
  };
}

/**
 * Every endpoint of the contract that takes a JSON body, with what the tests send it. The
 * OpenAPI test below finds one missing.
 */
const JSON_SAMPLES = new Map<Endpoint, JsonSample>([
  [auth.sendCode, { wrongTypes: { purpose: 1, channel: true, destination: [] } }],
  [
    auth.verifyCode,
    { wrongTypes: { purpose: 'register', channel: 'email', destination: 5, code: 123456 } },
  ],
  [
    auth.register,
    {
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
  ],
  [auth.login, { wrongTypes: { account: {}, password: 12345678 } }],
  [auth.loginWithCode, { wrongTypes: { channel: 'phone', destination: 8613800000000, code: 1 } }],
  [
    auth.resetPassword,
    { wrongTypes: { channel: 'email', destination: null, code: [], password: {} } },
  ],
  [security.setAddress, { wrongTypes: { ticket: 9 } }],
  [security.sendStepUpCode, { wrongTypes: { channel: 3 } }],
  [security.stepUp, { wrongTypes: { method: 1, password: 2 } }],
  [security.undoAddress, { wrongTypes: { token: 7 } }],
  [
    users.updateProfile,
    { emptyIsValid: true, wrongTypes: { nickname: 1, country: 2, motherTongue: 3 } },
  ],
  [users.changeTeltlkId, { wrongTypes: { teltlkId: 1234567 } }],
  [users.changePassword, { wrongTypes: { currentPassword: 1, newPassword: true } }],
  [
    users.updateSettings,
    {
      emptyIsValid: true,
      wrongTypes: {
        uiLanguage: 1,
        motherTongueFirst: 'yes',
        notifications: 0,
        vibration: null,
        alertSound: [],
      },
    },
  ],
  [contacts.sendFriendRequest, { wrongTypes: { userId: 1, greeting: 2 } }],
  [contacts.updateFriend, { wrongTypes: { remark: 1 } }],
  [messages.send, { wrongTypes: { conversationId: 1, clientMsgId: 2, content: 'text' } }],
  [
    // `{}` changes nothing and is refused; the conversation does not exist either.
    messages.update,
    {
      params: chat,
      emptyIsValid: false,
      wrongTypes: { pinned: 'yes', muted: 1, hidden: null, translate: 'on', translateTo: 'xx' },
    },
  ],
  [messages.setBurn, { params: chat, wrongTypes: { seconds: 'ten' } }],
  [messages.edit, { params: chat, wrongTypes: { text: 5 } }],
  [messages.read, { params: chat, wrongTypes: { seq: 'last' } }],
  [
    translation.translate,
    { wrongTypes: { conversationId: 1, seqs: 'all', lang: 5, retry: 'yes' } },
  ],
  [translation.preview, { wrongTypes: { text: 1, to: 'klingon' } }],
  [groups.create, { wrongTypes: { name: 1, memberIds: 'all' } }],
  [
    // `{}` changes nothing and is refused.
    groups.update,
    {
      emptyIsValid: false,
      wrongTypes: { name: 1, notice: [], verification: 'all', allMuted: 'yes' },
    },
  ],
  // `{}` changes nothing and is refused.
  [groups.updateMine, { emptyIsValid: false, wrongTypes: { nickname: 1, remark: true } }],
  [groups.invite, { wrongTypes: { userIds: 'all' } }],
  [
    groups.requestFriend,
    { emptyIsValid: true, emptyError: 'GROUP_NOT_FOUND', wrongTypes: { greeting: 5 } },
  ],
  [groups.setRole, { wrongTypes: { role: 'owner' } }],
  [groups.mute, { wrongTypes: { seconds: 'long' } }],
  [groups.transfer, { wrongTypes: { userId: 1 } }],
  [groups.join, { emptyIsValid: true, emptyError: 'GROUP_NOT_FOUND', wrongTypes: { message: 1 } }],
]);

/**
 * A value of the wrong type for each field of a JSON body: the first of a few candidates
 * the field refuses (a field that takes anything is left out).
 */
function wrongTypesOf(schema: z.ZodType): Record<string, unknown> {
  if (!(schema instanceof z.ZodObject)) return {};
  const candidates: unknown[] = [12345, 'x', true, [], { a: 1 }];
  const wrong: Record<string, unknown> = {};
  for (const [key, field] of Object.entries<z.ZodType>(schema.shape)) {
    const value = candidates.find((candidate) => !field.safeParse(candidate).success);
    if (value !== undefined) wrong[key] = value;
  }
  return wrong;
}

/**
 * Every endpoint of the contract that takes a JSON body, with what the tests send it: its
 * sample where it has one, otherwise wrong types found from its schema.
 */
export const JSON_ROUTES: JsonRoute[] = CONTRACT.flatMap((endpoint) => {
  const { body } = endpoint;
  if (body === undefined || typeof body === 'string') return [];
  const { params, ...sample } = JSON_SAMPLES.get(endpoint) ?? {};
  return [
    {
      method: endpoint.method,
      ...addressOf(endpoint, params),
      auth: endpoint.access === 'session',
      emptyIsValid: body.safeParse({}).success,
      wrongTypes: wrongTypesOf(body),
      ...sample,
    },
  ];
});

/** Every route that needs a session: every endpoint of the contract that says so. */
export const PROTECTED: { method: Method; url: string; body?: unknown; route: string }[] =
  CONTRACT.filter((endpoint) => endpoint.access === 'session').map((endpoint) => ({
    method: endpoint.method,
    ...addressOf(endpoint),
  }));

/** Every route open without a session: the health check and the contract's public ones. */
export const PUBLIC = [
  'GET /healthz',
  ...CONTRACT.filter((endpoint) => endpoint.access === 'public').map(
    (endpoint) => `${endpoint.method} /api/v1${endpoint.path}`,
  ),
];
