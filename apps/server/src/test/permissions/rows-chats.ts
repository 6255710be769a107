import { type Message, singleConversationId, singleMembersOf } from '@teltlk/protocol';
import { expect } from 'vitest';
import { clientMsgId } from '../cast.js';
import { inBothChats, membersMessage, mentionSeq, newMessage } from './arrange.js';
import {
  chatOf,
  GROUP_CHAT,
  groupChat,
  NO_CHAT,
  OK,
  type Row,
  SIGNED_IN,
  SINGLE_CHAT,
} from './cells.js';

/** Conversations and their messages, and translation. */
export const CHAT_ROWS: Row[] = [
  // ------------------------------------------------------------------ conversations
  ...inBothChats(
    'GET /api/v1/conversations/:id/messages',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    (w, as, id) => w.call(as, 'GET', `/conversations/${id}/messages`),
  ),
  ...inBothChats(
    'POST /api/v1/messages',
    { group: GROUP_CHAT, single: { ...SINGLE_CHAT, blocked: 'MESSAGE_REFUSED' } },
    (w, as, conversationId) =>
      w.call(as, 'POST', '/messages', {
        conversationId,
        clientMsgId: clientMsgId(),
        content: { kind: 'text', text: 'Hello there' },
      }),
  ),
  {
    route: 'POST /api/v1/messages',
    on: 'a one-to-one chat with the owner',
    cells: {
      // A chat with yourself is no chat.
      owner: NO_CHAT,
      admin: OK,
      member: OK,
      blocked: 'MESSAGE_REFUSED',
      removed: OK,
      stranger: 'NOT_FRIENDS',
    },
    run: (w, as) =>
      w.call(as, 'POST', '/messages', {
        conversationId: singleConversationId(
          w.users.owner.user.id,
          w.users[as === 'anonymous' ? 'member' : as].user.id,
        ),
        clientMsgId: clientMsgId(),
        content: { kind: 'text', text: 'Hello Olivia' },
      }),
  },
  {
    route: 'POST /api/v1/messages',
    on: 'one-to-one, its two ids the other way round',
    // A pair has one chat, its ids sorted: the other order names none, rather than a second one.
    cells: { ...SINGLE_CHAT, owner: NO_CHAT, member: NO_CHAT, blocked: NO_CHAT },
    run: (w, as) => {
      const [first, second] = singleMembersOf(chatOf(w, as))!;
      return w.call(as, 'POST', '/messages', {
        conversationId: `si_${second}_${first}`,
        clientMsgId: clientMsgId(),
        content: { kind: 'text', text: 'Hello again' },
      });
    },
  },
  {
    route: 'POST /api/v1/messages',
    on: 'group, mentioning the owner',
    cells: {
      ...GROUP_CHAT,
      // The message goes; the mention of the blocker is dropped (the group tests check that).
      blocked: OK,
    },
    run: (w, as) =>
      w.call(as, 'POST', '/messages', {
        conversationId: groupChat(w),
        clientMsgId: clientMsgId(),
        content: { kind: 'text', text: '@Olivia look', mentions: [w.users.owner.user.id] },
      }),
    check: async (w, as, response) => {
      if (response.statusCode >= 300) return;
      const { seq } = response.json<Message>();
      const mentioned = (await mentionSeq(w, 'owner', groupChat(w))) === seq;
      // Mentioning yourself marks nothing; a blocked user's mention of the blocker is dropped.
      expect(mentioned).toBe(as !== 'owner' && as !== 'blocked');
    },
  },
  ...inBothChats(
    'PATCH /api/v1/conversations/:id',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    (w, as, id) => w.call(as, 'PATCH', `/conversations/${id}`, { pinned: true }),
  ),
  ...inBothChats(
    'POST /api/v1/conversations/:id/clear',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    (w, as, id) => w.call(as, 'POST', `/conversations/${id}/clear`),
  ),
  ...inBothChats(
    'PUT /api/v1/conversations/:id/burn',
    {
      // Burn after reading is for one-to-one chats.
      group: {
        ...GROUP_CHAT,
        owner: 'VALIDATION_FAILED',
        admin: 'VALIDATION_FAILED',
        member: 'VALIDATION_FAILED',
        blocked: 'VALIDATION_FAILED',
      },
      // Its notice reaches the other person: a blocked user may not send one.
      single: { ...SINGLE_CHAT, blocked: 'MESSAGE_REFUSED' },
    },
    (w, as, id) => w.call(as, 'PUT', `/conversations/${id}/burn`, { seconds: 0 }),
  ),
  ...inBothChats(
    'POST /api/v1/conversations/:id/read',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    async (w, as, id) =>
      w.call(as, 'POST', `/conversations/${id}/read`, {
        seq: (await newMessage(w, id, as)).seq,
      }),
  ),
  ...inBothChats(
    'POST /api/v1/conversations/:id/messages/:seq/revoke',
    {
      // Only the sender revokes, in a group as anywhere.
      group: {
        ...GROUP_CHAT,
        owner: 'REVOKE_NOT_ALLOWED',
        admin: 'REVOKE_NOT_ALLOWED',
        blocked: 'REVOKE_NOT_ALLOWED',
      },
      single: { ...SINGLE_CHAT, owner: 'REVOKE_NOT_ALLOWED', blocked: 'REVOKE_NOT_ALLOWED' },
    },
    async (w, as, id) => {
      const { seq } = await membersMessage(w, id);
      return w.call(as, 'POST', `/conversations/${id}/messages/${seq}/revoke`);
    },
  ),
  ...inBothChats(
    'POST /api/v1/conversations/:id/messages/:seq/edit',
    {
      // Only the sender edits, in a group as anywhere.
      group: {
        ...GROUP_CHAT,
        owner: 'EDIT_NOT_ALLOWED',
        admin: 'EDIT_NOT_ALLOWED',
        blocked: 'EDIT_NOT_ALLOWED',
      },
      single: { ...SINGLE_CHAT, owner: 'EDIT_NOT_ALLOWED', blocked: 'EDIT_NOT_ALLOWED' },
    },
    async (w, as, id) => {
      const { seq } = await membersMessage(w, id);
      return w.call(as, 'POST', `/conversations/${id}/messages/${seq}/edit`, { text: 'Edited' });
    },
  ),
  {
    route: 'GET /api/v1/messages/search',
    on: 'in all chats',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/messages/search?q=hello'),
  },
  ...inBothChats(
    'GET /api/v1/messages/search',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    (w, as, id) => w.call(as, 'GET', `/messages/search?q=hello&conversationId=${id}`),
  ),
  ...inBothChats(
    'POST /api/v1/conversations/:id/messages/:seq/hide',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    async (w, as, id) => {
      const { seq } = await membersMessage(w, id);
      return w.call(as, 'POST', `/conversations/${id}/messages/${seq}/hide`);
    },
  ),

  // ------------------------------------------------------------------ translation
  {
    route: 'GET /api/v1/translations/info',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/translations/info'),
  },
  ...inBothChats(
    'POST /api/v1/translations',
    { group: GROUP_CHAT, single: SINGLE_CHAT },
    async (w, as, conversationId) =>
      w.call(as, 'POST', '/translations', {
        conversationId,
        seqs: [(await newMessage(w, conversationId, as)).seq],
      }),
  ),
  {
    route: 'POST /api/v1/translations/preview',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'POST', '/translations/preview', { text: 'Good night', to: 'fr' }),
  },
];
