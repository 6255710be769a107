import {
  blockListResult,
  friendListResult,
  friendRequestListResult,
  friendRequestSchema,
  friendSchema,
  officialListResult,
  sendFriendRequestBody,
  type SendFriendRequestBody,
  updateFriendBody,
  userIdSchema,
  userProfileSchema,
  userSearchQuery,
  userSearchResult,
} from '@teltlk/protocol';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

const security = [{ bearer: [] }];
const userParams = z.object({ id: userIdSchema });
/** Friend request ids have the shape of every row id. */
const requestParams = z.object({
  id: z.string().regex(/^[A-Za-z0-9]{1,32}$/, { error: 'request' }),
});
const noContent = { 204: z.null() };

/** Finding people, friend applications, friends, blocks, official accounts: behind `requireSession`. */
export function contactRoutes(app: App, { services: { contacts }, limits }: AppContext): void {
  const reads = limitBy(limits, ['contactsReadPerUser', byUser]);
  const actions = limitBy(limits, ['friendActionPerUser', byUser]);
  app.get(
    '/users/search',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Find a user by phone, email or Teltlk ID',
        security,
        querystring: userSearchQuery,
        response: { 200: userSearchResult },
      },
      // Each search tells whether a phone number or e-mail address has an account.
      onRequest: limitBy(limits, ['searchPerUser', byUser]),
    },
    async (request) => ({ user: await contacts.search(authOf(request), request.query.q) }),
  );
  app.get(
    '/users/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: "A user's profile as the caller sees it",
        security,
        params: userParams,
        response: { 200: userProfileSchema },
      },
      onRequest: limitBy(limits, ['userCardPerUser', byUser]),
    },
    (request) => contacts.profile(authOf(request), request.params.id),
  );

  app.get(
    '/friend-requests',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Friend applications received and sent',
        security,
        response: { 200: friendRequestListResult },
      },
      onRequest: reads,
    },
    (request) => contacts.requests(authOf(request)),
  );
  app.post(
    '/friend-requests',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Send a friend application (renews an earlier one)',
        security,
        body: sendFriendRequestBody,
        response: { 200: friendRequestSchema },
      },
      preHandler: limitBy(
        limits,
        [
          'friendRequestPerPair',
          (request) => `${byUser(request)}:${(request.body as SendFriendRequestBody).userId}`,
        ],
        ['friendRequestPerUser', byUser],
      ),
    },
    (request) => contacts.sendRequest(authOf(request), request.body),
  );
  app.post(
    '/friend-requests/:id/accept',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Accept a friend application',
        security,
        params: requestParams,
        response: { 200: friendRequestSchema },
      },
      onRequest: actions,
    },
    (request) => contacts.acceptRequest(authOf(request), request.params.id),
  );
  app.post(
    '/friend-requests/:id/reject',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Reject a friend application',
        security,
        params: requestParams,
        response: { 200: friendRequestSchema },
      },
      onRequest: actions,
    },
    (request) => contacts.rejectRequest(authOf(request), request.params.id),
  );

  app.get(
    '/friends',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Your friends',
        security,
        response: { 200: friendListResult },
      },
      onRequest: reads,
    },
    (request) => contacts.friends(authOf(request)),
  );
  app.patch(
    '/friends/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: "Set a friend's remark",
        security,
        params: userParams,
        body: updateFriendBody,
        response: { 200: friendSchema },
      },
      onRequest: actions,
    },
    (request) => contacts.updateFriend(authOf(request), request.params.id, request.body.remark),
  );
  app.delete(
    '/friends/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Delete a friend (both sides)',
        security,
        params: userParams,
        response: noContent,
      },
      onRequest: actions,
    },
    async (request, reply) => {
      await contacts.deleteFriend(authOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/blocks',
    {
      schema: {
        tags: ['contacts'],
        summary: 'People you blocked',
        security,
        response: { 200: blockListResult },
      },
      onRequest: reads,
    },
    (request) => contacts.blocks(authOf(request)),
  );
  app.put(
    '/blocks/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Block a user (their messages and applications stop reaching you)',
        security,
        params: userParams,
        response: noContent,
      },
      onRequest: actions,
    },
    async (request, reply) => {
      await contacts.block(authOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/blocks/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Unblock a user',
        security,
        params: userParams,
        response: noContent,
      },
      onRequest: actions,
    },
    async (request, reply) => {
      await contacts.unblock(authOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/official-accounts',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Official (legal) accounts',
        security,
        response: { 200: officialListResult },
      },
      onRequest: reads,
    },
    () => contacts.officialAccounts(),
  );
}
