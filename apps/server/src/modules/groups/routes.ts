import multipart from '@fastify/multipart';
import {
  AVATAR_MAX_BYTES,
  createGroupBody,
  friendRequestSchema,
  groupApplicationListResult,
  groupFriendRequestBody,
  groupMemberParams,
  groupMembersQuery,
  groupMembersResult,
  groupSchema,
  groupSearchQuery,
  groupSearchResult,
  inviteMembersBody,
  inviteMembersResult,
  joinGroupBody,
  joinGroupResult,
  messageReadsResult,
  muteMemberBody,
  myGroupListResult,
  myGroupSchema,
  setRoleBody,
  transferGroupBody,
  updateGroupBody,
  updateMyGroupBody,
} from '@teltlk/protocol';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError, invalidField } from '../../errors.js';
import { authOf } from '../../http/auth.js';
import { toAppError } from '../../http/errors.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

const tags = ['groups'];
const security = [{ bearer: [] }];

const groupParams = z.object({ id: z.string().min(1).max(64) });
const applicationParams = z.object({ id: z.string().min(1).max(64) });
const readsParams = z.object({
  id: z.string().min(1).max(64),
  seq: z.coerce.number().int().min(1),
});

/** Groups, their members and applications (behind `requireSession`). */
export async function groupRoutes(
  app: App,
  { services: { groups }, limits }: AppContext,
): Promise<void> {
  const reads = limitBy(limits, ['groupReadPerUser', byUser]);
  const admin = limitBy(limits, ['groupAdminPerUser', byUser]);
  const self = limitBy(limits, ['groupSelfPerUser', byUser]);
  app.post(
    '/groups',
    {
      schema: {
        tags,
        summary: 'Create a group with friends (you become its owner)',
        security,
        body: createGroupBody,
        response: { 200: myGroupSchema },
      },
      onRequest: limitBy(limits, ['groupCreatePerUser', byUser]),
    },
    (request) => groups.create(authOf(request).userId, request.body),
  );
  app.get(
    '/groups',
    {
      schema: {
        tags,
        summary: 'Your groups',
        security,
        response: { 200: myGroupListResult },
      },
      onRequest: reads,
    },
    (request) => groups.list(authOf(request).userId),
  );
  app.get(
    '/groups/search',
    {
      schema: {
        tags,
        summary: 'Find a group by its number',
        security,
        querystring: groupSearchQuery,
        response: { 200: groupSearchResult },
      },
      onRequest: limitBy(limits, ['groupSearchPerUser', byUser]),
    },
    (request) => groups.search(authOf(request).userId, request.query.no),
  );
  app.get(
    '/groups/:id',
    {
      schema: {
        tags,
        summary: 'A group you are in',
        security,
        params: groupParams,
        response: { 200: myGroupSchema },
      },
      onRequest: reads,
    },
    (request) => groups.get(authOf(request).userId, request.params.id),
  );
  app.patch(
    '/groups/:id',
    {
      schema: {
        tags,
        summary: 'Change group settings (each field needs its permission)',
        security,
        params: groupParams,
        body: updateGroupBody,
        response: { 200: groupSchema },
      },
      onRequest: admin,
    },
    (request) => groups.update(authOf(request).userId, request.params.id, request.body),
  );
  app.delete(
    '/groups/:id',
    {
      schema: {
        tags,
        summary: 'Dismiss the group (owner)',
        security,
        params: groupParams,
        response: { 204: z.null() },
      },
      onRequest: admin,
    },
    async (request, reply) => {
      await groups.dismiss(authOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.patch(
    '/groups/:id/me',
    {
      schema: {
        tags,
        summary: 'Your nickname in the group and your remark for it',
        security,
        params: groupParams,
        body: updateMyGroupBody,
        response: { 200: myGroupSchema },
      },
      onRequest: self,
    },
    (request) => groups.updateMine(authOf(request).userId, request.params.id, request.body),
  );
  app.get(
    '/groups/:id/members',
    {
      schema: {
        tags,
        summary: 'Members: owner, admins, then members by joining; searchable',
        security,
        params: groupParams,
        querystring: groupMembersQuery,
        response: { 200: groupMembersResult },
      },
      onRequest: reads,
    },
    (request) => groups.members(authOf(request).userId, request.params.id, request.query),
  );
  app.post(
    '/groups/:id/members',
    {
      schema: {
        tags,
        summary: 'Invite friends into the group',
        security,
        params: groupParams,
        body: inviteMembersBody,
        response: { 200: inviteMembersResult },
      },
      onRequest: limitBy(limits, ['groupInvitePerUser', byUser]),
    },
    async (request) => ({
      added: await groups.invite(authOf(request).userId, request.params.id, request.body.userIds),
    }),
  );
  app.delete(
    '/groups/:id/members/:userId',
    {
      schema: {
        tags,
        summary: 'Remove a member of lower rank',
        security,
        params: groupMemberParams,
        response: { 204: z.null() },
      },
      onRequest: admin,
    },
    async (request, reply) => {
      const { id, userId } = request.params;
      await groups.remove(authOf(request).userId, id, userId);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/groups/:id/members/:userId/friend-request',
    {
      schema: {
        tags,
        summary:
          'Send another member a friend application from the group (only the owner and admins while private chat is off)',
        security,
        params: groupMemberParams,
        body: groupFriendRequestBody,
        response: { 200: friendRequestSchema },
      },
      // The same buckets as a friend request by user id: it is one.
      preHandler: limitBy(
        limits,
        [
          'friendRequestPerPair',
          (request) => `${byUser(request)}:${(request.params as { userId: string }).userId}`,
        ],
        ['friendRequestPerUser', byUser],
      ),
    },
    (request) =>
      groups.requestFriend(
        authOf(request),
        request.params.id,
        request.params.userId,
        request.body.greeting,
      ),
  );
  app.put(
    '/groups/:id/members/:userId/role',
    {
      schema: {
        tags,
        summary: 'Appoint or dismiss an admin (owner)',
        security,
        params: groupMemberParams,
        body: setRoleBody,
        response: { 204: z.null() },
      },
      onRequest: admin,
    },
    async (request, reply) => {
      const { id, userId } = request.params;
      await groups.setRole(authOf(request).userId, id, userId, request.body.role);
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/groups/:id/members/:userId/mute',
    {
      schema: {
        tags,
        summary: 'Mute a member of lower rank for a while (0 lifts it)',
        security,
        params: groupMemberParams,
        body: muteMemberBody,
        response: { 204: z.null() },
      },
      onRequest: admin,
    },
    async (request, reply) => {
      const { id, userId } = request.params;
      await groups.mute(authOf(request).userId, id, userId, request.body.seconds);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/groups/:id/transfer',
    {
      schema: {
        tags,
        summary: 'Hand the group to another member (owner)',
        security,
        params: groupParams,
        body: transferGroupBody,
        response: { 204: z.null() },
      },
      onRequest: admin,
    },
    async (request, reply) => {
      await groups.transfer(authOf(request).userId, request.params.id, request.body.userId);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/groups/:id/quit',
    {
      schema: {
        tags,
        summary: 'Leave the group',
        security,
        params: groupParams,
        response: { 204: z.null() },
      },
      onRequest: self,
    },
    async (request, reply) => {
      await groups.quit(authOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/groups/:id/join',
    {
      schema: {
        tags,
        summary: 'Join a group, or apply where admins approve',
        security,
        params: groupParams,
        body: joinGroupBody,
        response: { 200: joinGroupResult },
      },
      preHandler: limitBy(
        limits,
        [
          'groupApplicationPerPair',
          (request) => `${byUser(request)}:${(request.params as { id: string }).id}`,
        ],
        ['groupApplicationPerUser', byUser],
      ),
    },
    (request) => groups.join(authOf(request).userId, request.params.id, request.body.message),
  );
  app.get(
    '/groups/:id/messages/:seq/reads',
    {
      schema: {
        tags,
        summary: 'How many members have read a message (its sender, or admins)',
        security,
        params: readsParams,
        response: { 200: messageReadsResult },
      },
      onRequest: reads,
    },
    (request) => groups.reads(authOf(request).userId, request.params.id, request.params.seq),
  );
  app.get(
    '/group-applications',
    {
      schema: {
        tags,
        summary: 'Applications to review, and your own',
        security,
        response: { 200: groupApplicationListResult },
      },
      onRequest: reads,
    },
    (request) => groups.applications(authOf(request).userId),
  );
  for (const [action, accept] of [
    ['accept', true],
    ['reject', false],
  ] as const) {
    app.post(
      `/group-applications/:id/${action}`,
      {
        schema: {
          tags,
          summary: `${accept ? 'Accept' : 'Reject'} an application (owner and admins)`,
          security,
          params: applicationParams,
          response: { 204: z.null() },
        },
        onRequest: admin,
      },
      async (request, reply) => {
        await groups.review(authOf(request).userId, request.params.id, accept);
        return reply.code(204).send(null);
      },
    );
  }

  // Multipart parsing is registered for this route only, so JSON routes refuse form uploads.
  await app.register(async (upload: App) => {
    await upload.register(multipart, {
      limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 11 },
    });
    upload.post(
      '/groups/:id/avatar',
      {
        schema: {
          tags,
          summary:
            'Upload the group avatar (multipart field "file": a JPEG, PNG, WebP or GIF image; admins)',
          security,
          consumes: ['multipart/form-data'],
          params: groupParams,
          response: { 200: groupSchema },
        },
        onRequest: limitBy(limits, ['uploadPerUser', byUser]),
      },
      async (request) =>
        groups.setAvatar(authOf(request).userId, request.params.id, await readUpload(request)),
    );
  });
}

/** The bytes of the multipart field `file`; too large a file fails with 413 inside toBuffer. */
async function readUpload(request: FastifyRequest): Promise<Buffer> {
  try {
    const file = await request.file();
    if (!file || file.fieldname !== 'file') throw invalidField('file', 'required');
    return await file.toBuffer();
  } catch (error) {
    // The multipart parser reports a broken body (no boundary, cut short) without a status.
    throw toAppError(error) ?? new AppError('MALFORMED_REQUEST');
  }
}
